/**
 * LeanHammer's new (unindexed) premises, `{name, decl}` with `decl` the
 * docstring and `kind signature` Lean prints (`/-- doc -/\ntheorem Foo.bar (x : Nat) : …`),
 * turned into premise records with the Lean extractor so that they are embedded
 * like indexed ones (hypotheses Γp and conclusion Gp apart).
 */
import { signatureDecl } from '../../../indexes/src/extract/lean/signature.js';
import type { PremiseRecord } from '../../../indexes/src/extract/record.js';
import { withNotation } from '../engine/open.js';

export const NEW_PREMISE_MODULE = '[new premise]';
const ZERO = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

export function newPremiseRecord(name: string, decl: string): PremiseRecord {
  const text = withNotation(decl);
  const d = signatureDecl(text, 'request.lean', NEW_PREMISE_MODULE);
  const base = { name, lang: 'lean' as const, module: NEW_PREMISE_MODULE, file: '', range: ZERO, refs: [] };
  if (!d) return { ...base, kind: 'def', args: [], goal: text, statement: text };
  return { ...base, kind: d.kind, args: d.args, goal: d.goal, statement: d.statement, ...(d.doc ? { doc: d.doc } : {}) };
}
