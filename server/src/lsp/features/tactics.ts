/**
 * Which text inserts a premise: the tactic (Lean) or method (Isabelle) form that
 * fits the premise and the goal, or just the name inside an open premise slot.
 */
import type { PremiseInfo } from '../../engine/types.js';
import type { Slot } from '../text/context.js';

export interface Insertion {
  /** Short form label: `rw`, `exact`, `simp add`, `name`… */
  form: string;
  text: string;
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

function hasExplicitArgs(p: PremiseInfo): boolean {
  return p.args.some((a) => a.trim().startsWith('(')) || /→|⟹|\\<Longrightarrow>/.test(p.goal);
}

export function leanInsertion(p: PremiseInfo, slot: Slot | undefined, goalText: string | undefined): Insertion {
  if (slot) return { form: 'name', text: p.name };
  if (isEquational(p.goal)) {
    const goal = mainConclusion(goalText);
    return goal === undefined || isEquational(goal) ? { form: 'rw', text: `rw [${p.name}]` } : { form: 'simp', text: `simp [${p.name}]` };
  }
  return hasExplicitArgs(p) ? { form: 'apply', text: `apply ${p.name}` } : { form: 'exact', text: `exact ${p.name}` };
}

export function isabelleInsertion(p: PremiseInfo, slot: Slot | undefined): Insertion {
  if (slot) return { form: 'name', text: p.name };
  if (isEquational(p.goal)) return { form: 'simp add', text: `by (simp add: ${p.name})` };
  if (p.args.length > 0) return { form: 'rule', text: `by (rule ${p.name})` };
  return { form: 'using', text: `using ${p.name} by simp` };
}

const ISABELLE_LISTS = /:$|^(using|from|with|unfolding|including|note|metis)$/;

/** Space or comma needed between the text before the cursor and the insertion. */
export function separatorBefore(before: string, slot: Slot | undefined): string {
  const prev = before.slice(-1);
  if (prev === '' || prev === '\n') return '';
  const ws = /\s/.test(prev);
  if (slot?.kind === 'list') {
    const t = before.trimEnd();
    const last = t.slice(-1);
    const opened = last === '[' || last === ',' || last === ':' || last === '←' || /\b(using|from|with|unfolding|including|note|metis)$/.test(t);
    if (opened) return ws || prev === '[' ? '' : ' ';
    if (ISABELLE_LISTS.test(slot.tactic)) return ws ? '' : ' ';
    return ', ';
  }
  return /[\s([]/.test(prev) ? '' : ' ';
}
