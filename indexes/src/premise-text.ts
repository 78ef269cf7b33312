/**
 * How a premise is turned into text, in one place, so that index building, query
 * time rescoring and the training recipe (models/train) agree.
 *  - sparse: name, hypotheses, conclusion and docstring, for BM25;
 *  - dense Γp: `name args…`; dense Gp: the conclusion (the statement if empty).
 */
import type { PremiseInfo } from './store/premises.js';

type Textual = Pick<PremiseInfo, 'name' | 'args' | 'goal' | 'statement' | 'doc'>;

export function sparseText(p: Textual): string {
  // the name twice: identifier parts are the strongest lexical signal
  return `${p.name} ${p.name} ${p.args.join(' ')} ${p.goal || p.statement} ${p.doc ?? ''}`;
}

export function denseArgsText(p: Textual): string {
  return p.args.length ? `${p.name} ${p.args.join(' ')}` : p.name;
}

export function denseGoalText(p: Textual): string {
  return p.goal || p.statement || p.name;
}
