/**
 * A Lean declaration given as a signature only (a query statement, a premise
 * LeanHammer sends, an evaluation set's formal statement), read with the Lean
 * extractor, and the hypothesis lines Lean would show for its binders. The one
 * home of the "signature + `:= sorry`" trick.
 */
import { extractLean } from './extractor.js';
import type { ExtractedDecl } from '../record.js';

/** The declaration a signature without a body declares: it is given one (`:= sorry`) so that the extractor sees a whole declaration. */
export function signatureDecl(signature: string, file: string, module: string): ExtractedDecl | undefined {
  return extractLean(`${signature} := sorry\n`, file, module).decls[0];
}

/** Turns a binder group into the hypothesis line Lean would show: `(a b : α)` → `a b : α`. */
export function binderToHyp(binder: string): string {
  const inner = binder.trim().replace(/^[({[⦃⟨]|[)}\]⦄⟩]$/g, '').trim();
  if (binder.trim().startsWith('[') && !/^[^:]*\s:\s/.test(inner)) return `inst✝ : ${inner}`;
  return inner;
}

/** A declaration as the proof state at its start: its binders as hypotheses, one a line, then `⊢ goal`. */
export function declState(d: Pick<ExtractedDecl, 'args' | 'goal'>): string {
  return `${d.args.map(binderToHyp).join('\n')}\n⊢ ${d.goal}`;
}
