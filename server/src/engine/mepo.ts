/**
 * MePo (Meng & Paulson 2009, "Lightweight relevance filtering for
 * machine-generated resolution problems"; Sledgehammer's relevance filter) over
 * the index's source-level symbols (see symbol-sets.ts). The relevant symbols
 * start as the query's; each pass scores every premise sharing one of them by
 * M / (M + N), M the weights of its relevant symbols (rare ones heavier:
 * 1 + 2/ln(occ + 1)), N the number of its other symbols; premises scoring at
 * least the threshold p are selected (the best PER_PASS of them), their symbols
 * become relevant, and p rises towards 1 by (1 − p)/c. When a pass selects
 * nothing, the remaining premises that share any relevant symbol follow by
 * relevance, so Recall@k stays defined. Ranked by pass, then relevance, then M.
 */
import { bySelection, type Selected, type SymbolSets } from './symbol-sets.js';
import type { BaselineOptions } from './sine.js';

export const MEPO_THRESHOLD = 0.6;
export const MEPO_DECAY = 2.4;
/** At most this many premises are added per pass. */
export const MEPO_PER_PASS = 50;

export interface MepoOptions extends BaselineOptions {
  threshold?: number;
  decay?: number;
  perPass?: number;
}

/** The weight of a relevant symbol that occurs in `occ` premises. */
export const relevantWeight = (occ: number) => 1 + 2 / Math.log(occ + 1);

export function mepo(sets: SymbolSets, conjecture: readonly number[], opts: MepoOptions): Selected[] {
  const decay = opts.decay ?? MEPO_DECAY;
  const perPass = opts.perPass ?? MEPO_PER_PASS;
  const n = sets.docCount;
  const relW = new Float64Array(n);
  const relCnt = new Uint32Array(n);
  /** 0 unseen, 1 candidate, 2 unusable, 3 selected, 4 usable candidate (checked when it first clears a threshold) */
  const state = new Uint8Array(n);
  const ok = (d: number) => state[d] === 4 || (state[d] === 1 && (opts.usable(d) ? ((state[d] = 4), true) : ((state[d] = 2), false)));
  const open = (d: number) => state[d] === 1 || state[d] === 4;
  const touched: number[] = [];
  const relevant = new Set<number>();
  const makeRelevant = (s: number) => {
    if (relevant.has(s)) return;
    relevant.add(s);
    const w = relevantWeight(sets.occ[s]!);
    for (const d of sets.postings(s)) {
      if (state[d] === 0) {
        state[d] = 1;
        touched.push(d);
      }
      if (!open(d)) continue;
      relW[d] += w;
      relCnt[d]++;
    }
  };
  const relevance = (d: number) => {
    const irrelevant = sets.docStart[d + 1]! - sets.docStart[d]! - relCnt[d]!;
    return relW[d]! / (relW[d]! + irrelevant);
  };
  for (const s of conjecture) makeRelevant(s);
  const out: Selected[] = [];
  let p = opts.threshold ?? MEPO_THRESHOLD;
  for (let pass = 1; out.length < opts.limit; pass++) {
    const passed: Selected[] = [];
    for (const d of touched) {
      if (!open(d)) continue;
      const r = relevance(d);
      if (r >= p && ok(d)) passed.push({ id: d, level: pass, strength: r, tie: relW[d]! });
    }
    if (!passed.length) {
      // nothing clears the threshold: the rest, by relevance, in one last round
      const rest = touched.filter(open).map((d) => ({ id: d, level: pass, strength: relevance(d), tie: relW[d]! }));
      for (const sel of rest.sort(bySelection)) {
        if (out.length >= opts.limit) break;
        if (ok(sel.id)) out.push(sel);
      }
      break;
    }
    for (const sel of passed.sort(bySelection).slice(0, perPass)) {
      state[sel.id] = 3;
      out.push(sel);
    }
    for (const sel of out) if (sel.level === pass) for (const s of sets.symbols(sel.id)) makeRelevant(s);
    p += (1 - p) / decay;
  }
  return out.sort(bySelection);
}
