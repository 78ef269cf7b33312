/**
 * The SInE and MePo baselines' shared parts: the symbol sets they read
 * (indexes/src/symbol-sets.ts, built at index time) and their selection order.
 */
export { SymbolSets, statementSymbols } from '../../../indexes/src/symbol-sets.js';

/** A premise chosen by a baseline: its selection round (SInE depth, MePo pass) and its strength within the round. */
export interface Selected {
  id: number;
  level: number;
  strength: number;
  /** Second key within a level (MePo: the weight of the relevant symbols). */
  tie?: number;
}

/** Baseline order: earlier round first, then stronger, then by position in the index. */
export const bySelection = (a: Selected, b: Selected) =>
  a.level - b.level || b.strength - a.strength || (b.tie ?? 0) - (a.tie ?? 0) || a.id - b.id;
