/**
 * Hybrid fusion: min-max normalised dense and sparse scores over the candidate
 * pool, a popularity prior log(1+uses) scaled to [0,1] by the corpus maximum,
 * and graph votes scaled by the pool maximum.
 * Pure functions over candidate arrays, so weights can be tuned from `eval`.
 */
import type { Mode } from './types.js';

export interface FusionWeights {
  dense: number;
  sparse: number;
  prior: number;
  /** Graph votes, scaled by the largest vote of the query. */
  graph: number;
  /** Declared earlier in the same file. */
  local: number;
  /** Text queries: the informal (English) field, scaled by the pool maximum. */
  informal: number;
  /** Text queries: the declaration's kind is what the sentence asks for (+) or not (−). */
  kind: number;
  /** Text queries: the name, read through the naming convention, says what the query says. */
  name: number;
  /**
   * Hybrid mode, no slot given and no reranker: the top 50 are reordered by how
   * well each premise acts on the goal as it stands (rewrites a subterm of it, or
   * is it once its hypotheses are set aside; `slot.ts`, `UNKNOWN_SLOT`), a bonus
   * of up to this share of their score span.
   */
  fit: number;
  /**
   * A Lake project's automatic index: votes of the project's own nearest proofs
   * (`OWN_NEIGHBOURS`, weighted against the nearest of them, not against the
   * library's), scaled by the pool maximum. The project's proofs show which of
   * the dependencies' lemmas its theorems use; with 250,000 library proofs in
   * the race for the 64 graph votes, they rarely vote otherwise.
   */
  own: number;
  /**
   * Hybrid: the usage model (usage-model.ts), every statement sharing a formal term
   * with the query votes for its proof's premises; scaled by the pool maximum. 0: off
   * (its generator does not run).
   */
  usage: number;
  /**
   * Hybrid: the usage model fitted at index time (MaSh's naive Bayes, indexes/src/mash.ts;
   * the `mash` generator), min–max scaled over the pool. 0 or absent: off (its generator
   * does not run).
   */
  mash?: number;
}

/**
 * Weights per kind of query, chosen with `eval` (docs/quality.md): the best
 * R@10 on held-out Mathlib statements that stays above plain BM25 on every
 * evaluation set, MathlibMPR's new premises included (heavier graph votes do
 * better on the former and worse on the latter); text queries (the declaration
 * itself is the answer) take neither graph votes nor locality.
 * `--weights` (CLI) and `weights` (engine options) change them.
 */
export interface StyleWeights {
  formal: FusionWeights;
  /**
   * Isabelle goals: the shipped encoder learned Mathlib only (dense alone reaches
   * R@10 0.17 on the AFP held-out lemmas, BM25 0.44), and 81% of the facts an AFP
   * proof uses come from its own theory, so dense is off and locality weighs
   * more (chosen on the AFP dev half, docs/quality.md).
   */
  isabelle: FusionWeights;
  /** Text read on its formal side only (`informal: false`), or a name. */
  text: FusionWeights;
  /**
   * Text with formulas in it (Lean notation, LaTeX turned into it), read with its
   * informal side: the encoder reads formulas well, so dense weighs more than for
   * names, and the informal field less than for prose, so that it cannot push a
   * strong formal match down (chosen on MathlibQR's even rows, docs/quality.md, "English queries").
   */
  formula: FusionWeights;
  /** Prose: the informal field leads. */
  english: FusionWeights;
  /**
   * Lean states and statements in a Lake project's automatic index (an engine
   * opened with `project`): the project's own lemmas match a query's words so
   * well that BM25 at the library weight fills the top ten with them; lighter
   * BM25 leaves room for the dependencies' workhorse lemmas that graph votes
   * and the prior bring (chosen on the dev halves of the development projects,
   * docs/quality.md "Downstream projects").
   */
  project: FusionWeights;
}

export const DEFAULT_WEIGHTS: StyleWeights = {
  formal: { dense: 0.3, sparse: 0.9, prior: 0.2, graph: 0.8, local: 0.3, informal: 0, kind: 0, name: 0, fit: 0.3, own: 0, usage: 0 },
  isabelle: { dense: 0, sparse: 0.9, prior: 0.2, graph: 0.8, local: 1, informal: 0, kind: 0, name: 0, fit: 0, own: 0, usage: 0 },
  text: { dense: 0.1, sparse: 0.9, prior: 0.4, graph: 0, local: 0, informal: 0.6, kind: 0, name: 0, fit: 0, own: 0, usage: 0 },
  formula: { dense: 0.5, sparse: 0.9, prior: 0.4, graph: 0, local: 0, informal: 0.45, kind: 0, name: 0, fit: 0, own: 0, usage: 0 },
  english: { dense: 0.1, sparse: 0.5, prior: 0.4, graph: 0, local: 0, informal: 0.9, kind: 0.1, name: 0.4, fit: 0, own: 0, usage: 0 },
  project: { dense: 0.15, sparse: 0.6, prior: 0.5, graph: 0.8, local: 0.45, informal: 0, kind: 0, name: 0, fit: 0.3, own: 0.5, usage: 0 },
};

/**
 * The weights for a query of this style (`ParsedQuery['style']`; for text, its reading: english, formula, mixed, name or none);
 * `project`: the engine serves a Lake project's automatic index (Lean states and statements take `project`).
 */
export function weightsFor(w: StyleWeights, style: string, textStyle?: string, project = false): FusionWeights {
  if (style === 'isabelle-state') return w.isabelle;
  if (style !== 'text') return project ? w.project : w.formal;
  if (textStyle === 'formula' || textStyle === 'mixed') return w.formula;
  return textStyle === 'english' ? w.english : w.text;
}

export interface Scored {
  dense?: number;
  sparse?: number;
  graph?: number;
  /** Votes of the project's own nearest proofs. */
  own?: number;
  /** The usage model's score. */
  usage?: number;
  /** The index-time usage model's (MaSh) score, any sign. */
  mash?: number;
  local?: number;
  informal?: number;
  /** Name match in [0, 1]. */
  name?: number;
  /** +1 the kind the query asks for, −1 the other, 0 no opinion. */
  kind?: number;
  uses: number;
  /** The entry it comes from, for `fuse`'s `byEntry`: 1 the project's own premises, 0 its dependencies'. */
  entry?: number;
}

/** Min–max scaling over a pool's defined values (0 for undefined, or when all are equal). */
export function minMax(values: (number | undefined)[]): (v: number | undefined) => number {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v === undefined) continue;
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  const span = hi - lo;
  return (v) => (v === undefined || !(span > 0) ? 0 : (v - lo) / span);
}

/** The prior in [0,1]: log(1+uses) / log(1+maxUses). */
export function prior(uses: number, maxUses: number): number {
  return maxUses > 0 ? Math.log1p(uses) / Math.log1p(maxUses) : 0;
}

/**
 * `byEntry` (a Lake project's automatic index): dense and sparse scores are scaled
 * within each entry (`Scored.entry`: the project's own premises, its dependencies'),
 * so that the project's lemmas, which share a query's words and notation, do not
 * squeeze the dependencies' best matches towards 0.
 */
export function fuse(cands: Scored[], mode: Mode, maxUses: number, w: FusionWeights, byEntry = false): number[] {
  if (mode === 'bm25') return cands.map((c) => c.sparse ?? 0);
  if (mode === 'dense') return cands.map((c) => c.dense ?? -1);
  if (byEntry) return fuseByEntry(cands, mode, maxUses, w);
  const nd = minMax(cands.map((c) => c.dense));
  // sparse scores are ≥ 0; scale by the maximum so that "no lexical match" stays 0
  const maxSparse = Math.max(0, ...cands.map((c) => c.sparse ?? 0));
  const maxGraph = Math.max(0, ...cands.map((c) => c.graph ?? 0));
  const maxOwn = Math.max(0, ...cands.map((c) => c.own ?? 0));
  const maxUsage = Math.max(0, ...cands.map((c) => c.usage ?? 0));
  const ni = minMax(cands.map((c) => c.informal));
  const nm = w.mash ? minMax(cands.map((c) => c.mash)) : () => 0;
  const share = (v: number | undefined, max: number) => (max > 0 ? (v ?? 0) / max : 0);
  return cands.map(
    (c) =>
      w.dense * nd(c.dense) +
      w.sparse * share(c.sparse, maxSparse) +
      w.prior * prior(c.uses, maxUses) +
      w.graph * share(c.graph, maxGraph) +
      w.own * share(c.own, maxOwn) +
      w.usage * share(c.usage, maxUsage) +
      (w.mash ?? 0) * nm(c.mash) +
      w.local * (c.local ?? 0) +
      w.informal * ni(c.informal) +
      w.kind * (c.kind ?? 0) +
      w.name * (c.name ?? 0),
  );
}

/** `fuse` with dense and sparse scaled within each entry; the other parts over the whole pool. */
function fuseByEntry(cands: Scored[], mode: Mode, maxUses: number, w: FusionWeights): number[] {
  const out = fuse(cands, mode, maxUses, { ...w, dense: 0, sparse: 0 });
  const entries = new Map<number, number[]>();
  cands.forEach((c, i) => {
    const e = c.entry ?? 0;
    const at = entries.get(e);
    if (at) at.push(i);
    else entries.set(e, [i]);
  });
  for (const at of entries.values()) {
    const nd = minMax(at.map((i) => cands[i]!.dense));
    const maxSparse = Math.max(0, ...at.map((i) => cands[i]!.sparse ?? 0));
    for (const i of at) out[i]! += w.dense * nd(cands[i]!.dense) + w.sparse * (maxSparse > 0 ? (cands[i]!.sparse ?? 0) / maxSparse : 0);
  }
  return out;
}
