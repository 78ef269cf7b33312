/**
 * Reads a query: a Lean proof state (`hyps\n⊢ goal`, possibly several goals, as
 * `$/lean/plainGoal` renders them), an Isabelle goal (`goal (1 subgoal):\n 1. …`),
 * a Lean statement (`theorem foo (x : ℕ) : P x`), or plain text. Separating the
 * goal from the hypotheses matters for ranking: the goal is the strongest signal.
 */
import { isabelleToUnicode } from '../../../indexes/src/extract/symbols.js';
import { binderToHyp, declState, signatureDecl } from '../../../indexes/src/extract/lean/signature.js';
import { latexToUnicode, looksLikeLatex } from './latex.js';
import { MAX_QUERY_CHARS, type ParsedQuery } from './types.js';

function stripFences(text: string): string {
  return text.replace(/```(?:lean)?\n?/g, '').replace(/\r\n?/g, '\n');
}

/** Joins indented continuation lines to the line they continue. */
function logicalLines(block: string): string[] {
  const out: string[] = [];
  for (const line of block.split('\n')) {
    if (!line.trim()) continue;
    if (/^\s/.test(line) && out.length && !/^\s*⊢/.test(line)) out[out.length - 1] += ' ' + line.trim();
    else out.push(line.trim());
  }
  return out;
}

interface Goal {
  hyps: string[];
  goal: string;
}

function parseLeanGoal(block: string): Goal | undefined {
  const lines = logicalLines(block).filter((l) => !/^case\s/.test(l));
  const turnstile = lines.findIndex((l) => l.startsWith('⊢'));
  if (turnstile < 0) return undefined;
  const goal = lines.slice(turnstile).join(' ').replace(/^⊢\s*/, '');
  return { hyps: lines.slice(0, turnstile), goal };
}

function parseLeanState(text: string): ParsedQuery | undefined {
  const goals = text
    .split(/\n\s*\n|\n---\n/)
    .map(parseLeanGoal)
    .filter((g): g is Goal => !!g);
  if (!goals.length) return undefined;
  const [main, ...rest] = goals;
  return { style: 'lean-state', goal: main!.goal, hyps: main!.hyps, otherGoals: rest.map((g) => g.goal), text };
}

/** Splits `⋀x. ⟦A; B⟧ ⟹ C` or `A ⟹ B ⟹ C` into premises and conclusion. */
export function splitIsabelleProp(prop: string): Goal {
  let p = prop.trim().replace(/^⋀[^.]*\.\s*/, '');
  const hyps: string[] = [];
  const m = /^⟦([\s\S]*?)⟧\s*⟹\s*([\s\S]*)$/.exec(p);
  if (m) {
    hyps.push(...m[1]!.split(';').map((s) => s.trim()).filter(Boolean));
    p = m[2]!;
  }
  const parts = p.split(/\s*⟹\s*/);
  const goal = parts.pop()!.trim();
  hyps.push(...parts.filter(Boolean));
  return { hyps, goal };
}

function parseIsabelleState(text: string): ParsedQuery | undefined {
  const looksIsabelle = /goal \(\d+ subgoals?\)|proof \((?:prove|state|chain)\)|⟹|⟦|\\<[A-Za-z^]/.test(text);
  if (!looksIsabelle) return undefined;
  const uni = isabelleToUnicode(text);
  const lines = uni.split('\n');
  const subgoals: string[] = [];
  const facts: string[] = [];
  let inFacts = false;
  for (const line of lines) {
    const sg = /^\s*\d+\.\s+(.*)$/.exec(line);
    if (sg) {
      subgoals.push(sg[1]!);
      inFacts = false;
    } else if (/^\s*using this:/.test(line)) inFacts = true;
    else if (/^\s*(goal|proof) \(/.test(line)) inFacts = false;
    else if (line.trim() && subgoals.length && /^\s/.test(line)) subgoals[subgoals.length - 1] += ' ' + line.trim();
    else if (line.trim() && inFacts) facts.push(line.trim());
  }
  const props = subgoals.length ? subgoals : [uni.replace(/\s+/g, ' ')];
  const [main, ...rest] = props.map(splitIsabelleProp);
  return {
    style: 'isabelle-state',
    goal: main!.goal,
    hyps: [...facts, ...main!.hyps],
    otherGoals: rest.map((g) => g.goal),
    text: uni,
  };
}

function parseLeanStatement(text: string): ParsedQuery | undefined {
  const m = /^\s*(?:@\[[^\]]*\]\s*)?(?:(?:private|protected|noncomputable)\s+)*(theorem|lemma|example|def|abbrev)\b/.exec(text);
  if (!m) return undefined;
  const src = (m[1] === 'example' ? text.replace(/\bexample\b/, 'theorem _example') : text).replace(/:=[\s\S]*$/, '');
  const decl = signatureDecl(src, 'query.lean', 'Query');
  if (!decl) return undefined;
  const hyps = decl.args.map(binderToHyp);
  return { style: 'lean-statement', goal: decl.goal, hyps, otherGoals: [], text: declState(decl) };
}

export function parseQuery(raw: string): ParsedQuery {
  const text = stripFences(raw.length > MAX_QUERY_CHARS ? raw.slice(0, MAX_QUERY_CHARS) : raw).trim();
  if (text.includes('⊢')) {
    // a state written on one line (`a b : ℕ ⊢ a + b = b + a`): its `⊢` starts the goal's line
    const q = parseLeanState(/^\s*⊢/m.test(text) || !/⊢\s*\S/.test(text) ? text : text.replace(/\s*⊢/, '\n⊢'));
    if (q) return q;
  }
  const statement = parseLeanStatement(text) ?? parseIsabelleState(text);
  if (statement) return statement;
  // the Isabelle reader claims `\<…>` symbols, so anything left with backslashes is LaTeX
  const plain = looksLikeLatex(text) ? latexToUnicode(text) : text;
  return { style: 'text', goal: plain, hyps: [], otherGoals: [], text: plain };
}

/** The text the encoder sees for a query: the state with the main goal, as in training. */
export function denseQueryText(q: ParsedQuery): string {
  if (q.style === 'text') return q.text;
  const hyps = q.hyps.length ? q.hyps.join('\n') + '\n' : '';
  return `${hyps}⊢ ${q.goal}`;
}
