/**
 * How a premise is turned into text, in one place, so that index building, query
 * time rescoring and the training recipe (models/train) agree.
 *  - sparse: name, hypotheses, conclusion and docstring, for BM25;
 *  - dense Γp: `name args…`; dense Gp: the conclusion (the statement if empty);
 *  - informal: the English side (docstring, the prose around the declaration,
 *    the name read through the naming convention, the statement in words, an
 *    LLM-written informal statement when the build asked for one), for
 *    the informal BM25 field that English queries search.
 */
import type { PremiseInfo } from './store/premises.js';
import { nameWords } from './informal/naming.js';
import { renderStatement } from './informal/render.js';

type Textual = Pick<PremiseInfo, 'name' | 'args' | 'goal' | 'statement' | 'doc'> & { informal?: string };

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

/** The English side of a premise. `context` (module and section prose) is known at build time only. */
export function informalText(p: Textual & { context?: string }): string {
  const words = nameWords(p.name);
  const formal = p.goal ? `${p.args.join(' ')} ${p.goal}` : p.statement;
  return `${p.doc ?? ''} ${p.informal ?? ''} ${p.context ?? ''} ${words} ${words} ${renderStatement(formal)}`;
}
