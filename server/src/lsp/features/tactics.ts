/**
 * Which text inserts a premise: the tactic (Lean) or method (Isabelle) form that
 * fits the premise and the goal, or just the name inside an open premise slot.
 */
import { isEquational, mainConclusion } from '../../engine/open.js';
import type { PremiseInfo } from '../../engine/types.js';

export { isEquational, mainConclusion };
import type { Slot } from '../text/context.js';

export interface Insertion {
  /** Short form label: `rw`, `exact`, `simp add`, `name`… */
  form: string;
  text: string;
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
