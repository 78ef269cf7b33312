/**
 * SInE (Hoder & Voronkov 2011, "Sine Qua Non for large theory reasoning") over
 * the index's source-level symbols (see symbol-sets.ts). A symbol s triggers a
 * premise A when s occurs in A and occ(s) ≤ t·occ(the least common symbol of A);
 * starting from the query's symbols, every premise a reached symbol triggers is
 * selected, and its symbols are reached one level deeper (breadth first, depth
 * limited). Ranked by depth, then by strength: the summed rarity log(1 + N/occ)
 * of the premise's symbols already reached when it is selected (for depth 1, the
 * symbols it shares with the query).
 */
import { bySelection, type Selected, type SymbolSets } from './symbol-sets.js';

/** Tolerance t: 1 is the strict original; larger values let commoner symbols trigger. */
export const SINE_TOLERANCE = 1.5;
/** BFS depth limit (the conjecture's own symbols trigger depth 1). */
export const SINE_MAX_DEPTH = 4;

export interface BaselineOptions {
  /** Stop after the level (pass) at which this many premises are selected. */
  limit: number;
  /** Premises that may be selected (language, exclusions); the others neither count nor propagate. */
  usable: (id: number) => boolean;
}

export interface SineOptions extends BaselineOptions {
  tolerance?: number;
  maxDepth?: number;
}

export function sine(sets: SymbolSets, conjecture: readonly number[], opts: SineOptions): Selected[] {
  const t = opts.tolerance ?? SINE_TOLERANCE;
  const maxDepth = opts.maxDepth ?? SINE_MAX_DEPTH;
  const n = Math.max(1, sets.docCount);
  const reached = new Set<number>(conjecture);
  const chosen = new Set<number>();
  const out: Selected[] = [];
  let frontier = [...reached];
  for (let depth = 1; depth <= maxDepth && frontier.length && out.length < opts.limit; depth++) {
    const level: number[] = [];
    for (const s of frontier) {
      const o = sets.occ[s]!;
      for (const d of sets.postings(s)) {
        if (chosen.has(d) || o > t * sets.minOcc[d]!) continue;
        chosen.add(d);
        if (opts.usable(d)) level.push(d);
      }
    }
    for (const d of level) {
      let strength = 0;
      for (const s of sets.symbols(d)) if (reached.has(s)) strength += Math.log1p(n / sets.occ[s]!);
      out.push({ id: d, level: depth, strength });
    }
    const next: number[] = [];
    for (const d of level) {
      for (const s of sets.symbols(d)) {
        if (reached.has(s)) continue;
        reached.add(s);
        next.push(s);
      }
    }
    frontier = next;
  }
  return out.sort(bySelection);
}
