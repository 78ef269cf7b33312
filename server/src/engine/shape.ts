/**
 * The shape of a statement or goal as text: its top-level relation, its leading
 * binders, its main conclusion. The one home of these readings: the reranker's
 * features (`headRelation`: precedence-aware, `∀` binders stripped) and the
 * server's insertion forms (`isEquational`, `mainConclusion`) both read
 * statements here. The two relation readers answer different questions and are
 * kept apart on purpose: `a = b → c` is headed by `→` for the features, yet it
 * still rewrites with `rw`, so `isEquational` says yes.
 */

export const RELATIONS = ['=', '≠', '≤', '<', '↔', '∈', '⊆', '∣', '→', 'none'] as const;
export type Relation = (typeof RELATIONS)[number];

const OPEN = new Set(['(', '[', '{', '⟨', '⦃', '⟦', '⁅']);
const CLOSE = new Set([')', ']', '}', '⟩', '⦄', '⟧', '⁆']);
/** Relation precedence: a lower number binds more loosely, so it heads the expression. */
const PREC: Record<string, number> = { '↔': 20, '→': 25, '=': 50, '≠': 50, '≤': 50, '<': 50, '∈': 50, '⊆': 50, '∣': 50 };
/** Relations written another way that count as one of RELATIONS. */
const ALIAS: Record<string, Relation> = { '≥': '≤', '>': '<', '∉': '∈', '⊂': '⊆', '⊇': '⊆', '⊃': '⊆' };

interface Head {
  rel: Relation;
  /** Character offsets of the relation symbol, or -1. */
  at: number;
  len: number;
}

/** Drops leading `∀ x y, ` binders (their body is what a rewrite or `apply` meets). */
export function stripForall(goal: string): string {
  let g = goal.trim();
  for (let guard = 0; guard < 8 && /^(∀|Π)/.test(g); guard++) {
    const cut = topLevelComma(g, 1);
    if (cut < 0) break;
    g = g.slice(cut + 1).trim();
  }
  return g;
}

const BIG_OPS = new Set(['∑', '∏', '⋃', '⋂', '⨆', '⨅', '∫', '⨁']);

/** The first `,` at bracket depth 0 from `from`, or -1. */
function topLevelComma(g: string, from: number): number {
  let depth = 0;
  for (let i = from; i < g.length; i++) {
    const ch = g[i]!;
    if (OPEN.has(ch)) depth++;
    else if (CLOSE.has(ch)) depth--;
    else if (ch === ',' && depth === 0) return i;
    if (depth < 0) return -1;
  }
  return -1;
}

/** The top-level relation of a goal (`a + b = c` → `=`), by precedence then position. */
export function headRelation(goal: string): Head {
  const head = scanHead(goal);
  // `¬p` binds tighter than `↔`/`→` but looser than `=`, `≤`, …
  if (head.rel !== '↔' && head.rel !== '→' && goal.trimStart().startsWith('¬')) {
    return { rel: head.rel === '=' ? '≠' : 'none', at: -1, len: 0 };
  }
  return head;
}

function scanHead(g: string): Head {
  let best: Head = { rel: 'none', at: -1, len: 0 };
  let bestPrec = Infinity;
  let depth = 0;
  for (let i = 0; i < g.length; i++) {
    const ch = g[i]!;
    if (OPEN.has(ch)) {
      depth++;
      continue;
    }
    if (CLOSE.has(ch)) {
      depth = Math.max(0, depth - 1);
      continue;
    }
    if (depth > 0) continue;
    // an ∃ / ∀ / λ body runs to the end: nothing after it heads the expression
    // (features strip leading ∀ binders first, see stripForall)
    if (ch === '∃' || ch === '∀' || ch === 'λ' || ch === '∄') return best;
    // a big operator's binder part (`∑ i ∈ s,`) holds no relation of the goal
    if (BIG_OPS.has(ch)) {
      const comma = topLevelComma(g, i + 1);
      if (comma > 0) i = comma;
      continue;
    }
    let sym: string | undefined;
    let len = 1;
    if (ch === '=') {
      const prev = g[i - 1];
      const next = g[i + 1];
      if (next === '>' || next === '=' || prev === ':' || prev === '=' || prev === '!' || prev === '<' || prev === '>') continue;
      sym = '=';
    } else if (ch === '<') {
      if (g.startsWith('<->', i)) [sym, len] = ['↔', 3];
      else if (g[i + 1] === '=') [sym, len] = ['≤', 2];
      else if (g[i + 1] === '|' || g[i + 1] === '$' || g[i + 1] === '*' || g[i + 1] === '-') continue;
      else sym = '<';
    } else if (ch === '>') {
      const prev = g[i - 1];
      if (prev === '-' || prev === '=' || prev === '|') continue;
      if (g[i + 1] === '=') [sym, len] = ['≥', 2];
      else sym = '>';
    } else if (ch === '-' && g[i + 1] === '>') [sym, len] = ['→', 2];
    else if (ch === '!' && g[i + 1] === '=') [sym, len] = ['≠', 2];
    else if (ch in PREC || ch in ALIAS) sym = ch;
    if (!sym) continue;
    const rel = (ALIAS[sym] ?? sym) as Relation;
    const prec = PREC[rel]!;
    if (prec < bestPrec) {
      best = { rel, at: i, len };
      bestPrec = prec;
    }
    i += len - 1;
  }
  return best;
}

/** Top-level `=` or `↔` (Lean), `=`/`⟷`/`≡` (Isabelle) in a conclusion. */
export function isEquational(conclusion: string): boolean {
  let depth = 0;
  const s = conclusion;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if ('([{⟨'.includes(c)) depth++;
    else if (')]}⟩'.includes(c)) depth--;
    else if (depth === 0) {
      if (c === '↔' || c === '⟷' || c === '≡') return true;
      if (c === '=' && !'<>≠:!=/'.includes(s[i - 1] ?? '') && s[i + 1] !== '>' && s[i + 1] !== '=') return true;
    }
  }
  return false;
}

/** The `⊢` line of the main goal (Lean) or the first subgoal (Isabelle). */
export function mainConclusion(goalText: string | undefined): string | undefined {
  if (!goalText) return undefined;
  const lean = /⊢\s*([^\n]*(?:\n(?!\S)[^\n]*)*)/.exec(goalText);
  if (lean) return lean[1].trim();
  const isa = /^\s*1\.\s*(.*)$/m.exec(goalText);
  if (isa) return isa[1].replace(/^.*⟹\s*/, '').trim();
  return undefined;
}
