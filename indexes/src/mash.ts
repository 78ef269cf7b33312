/**
 * MaSh's naive Bayes fitted at index time (Kühlwein et al., "MaSh: Machine Learning
 * for Sledgehammer", ITP 2013; Blanchette et al., JAR 2016), over the index's own
 * proofs. A statement's features are its formal BM25 terms (./sparse/terms.ts: its
 * resolved constants, whole and split into parts, and its symbols, head symbols
 * included); a feature is keyed by its id in the index's formal field (sparse.bin),
 * so the file holds no strings and a query's features are its formal terms.
 *
 * Counts, every statement of the index being a proof that uses its premises and
 * itself (as MaSh counts a fact as a use of itself):
 *   t(φ)    = 1 + the proofs that use φ
 *   s(φ, f) = the proofs using φ whose statement has feature f (φ's own included)
 * and per feature only the `MASH_POSTING_CAP` premises with the largest s(φ, f)
 * are kept (a feature's postings). At query time, for the query's features F with
 * their IDF weights w(f), only F's postings are read, and a premise φ in any of them scores
 *   σ1 ln t(φ) + Σ_{f ∈ F, φ ∈ post(f)} w(f) ln(σ2 s(φ,f) / t(φ)) + σ3 Σ_{f ∈ F, φ ∉ post(f)} w(f)
 * (the naive-Bayes score of MaSh with its σ weights; a feature whose posting was cut
 * before φ counts as unseen). Test: test/unit/mash.test.ts.
 */
import type { ProofGraph } from './graph.js';
import type { Bm25Index } from './sparse/bm25.js';

/** Premises kept per feature. */
export const MASH_POSTING_CAP = 64;
/** MaSh's σ weights: the use prior, the seen feature's ratio, the unseen feature's penalty. */
export const MASH_SIGMA = { prior: 2, seen: 10, unseen: -6 } as const;

/** Feature f's postings are premise[offsets[f]..offsets[f+1]) with their counts s; t per premise. */
export interface MashModel {
  offsets: Uint32Array;
  premise: Uint32Array;
  count: Uint32Array;
  t: Uint32Array;
}

/**
 * Fits the model from the formal field (feature → statements) and the proof graph
 * (statement → premises). Work: Σ over statements of features × (premises + 1).
 */
export function fitMash(field: Bm25Index, graph: ProofGraph, cap = MASH_POSTING_CAP): MashModel {
  const n = graph.offsets.length - 1;
  const t = new Uint32Array(n).fill(1);
  for (const p of graph.targets) t[p]!++;
  const { offsets: fo, docs } = field.arrays;
  const nf = fo.length - 1;
  const offsets = new Uint32Array(nf + 1);
  const premise: number[] = [];
  const count: number[] = [];
  const acc = new Uint32Array(n);
  const touched: number[] = [];
  const bump = (p: number) => {
    if (acc[p] === 0) touched.push(p);
    acc[p]!++;
  };
  for (let f = 0; f < nf; f++) {
    offsets[f] = premise.length;
    for (let i = fo[f]!; i < fo[f + 1]!; i++) {
      const d = docs[i]!;
      bump(d);
      for (let j = graph.offsets[d]!; j < graph.offsets[d + 1]!; j++) bump(graph.targets[j]!);
    }
    // the strongest: largest s, then the smaller id
    touched.sort((a, b) => acc[b]! - acc[a]! || a - b);
    const kept = Math.min(cap, touched.length);
    for (let k = 0; k < kept; k++) {
      premise.push(touched[k]!);
      count.push(acc[touched[k]!]!);
    }
    for (const p of touched) acc[p] = 0;
    touched.length = 0;
  }
  offsets[nf] = premise.length;
  return { offsets, premise: Uint32Array.from(premise), count: Uint32Array.from(count), t };
}

/**
 * A statement whose proof must not count (the theorem being proved, `SearchOptions.exclude`):
 * the premises its proof uses (and itself), and whether it has feature f.
 */
export interface MashExcluded {
  premises: ReadonlySet<number>;
  has(feature: number): boolean;
}

/**
 * MaSh scores of the premises in the postings of `features` (feature id → IDF weight).
 * `excluded` statements' proofs are taken out of the counts (t and s each lose one
 * where they counted), so that they are no evidence.
 */
export function mashScores(model: MashModel, features: ReadonlyMap<number, number>, sigma = MASH_SIGMA, excluded: readonly MashExcluded[] = []): Map<number, number> {
  // Σ over unseen features = σ3·W − σ3·Σ over seen ones: every premise starts at σ1 ln t + σ3·W
  let W = 0;
  for (const w of features.values()) if (w > 0) W += w;
  const tOf = (p: number) => {
    let t = model.t[p]!;
    for (const x of excluded) if (x.premises.has(p)) t--;
    return t;
  };
  const scores = new Map<number, number>();
  for (const [f, w] of features) {
    if (!(w > 0) || f + 1 >= model.offsets.length) continue;
    const takenBy = excluded.filter((x) => x.has(f));
    for (let i = model.offsets[f]!; i < model.offsets[f + 1]!; i++) {
      const p = model.premise[i]!;
      let s = model.count[i]!;
      for (const x of takenBy) if (x.premises.has(p)) s--;
      if (s <= 0) continue;
      const t = tOf(p);
      const base = scores.get(p) ?? sigma.prior * Math.log(t) + sigma.unseen * W;
      scores.set(p, base + w * (Math.log((sigma.seen * s) / t) - sigma.unseen));
    }
  }
  return scores;
}
