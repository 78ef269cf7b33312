/**
 * A learned first-stage fusion for Lean states and statements (a `fusion.json`
 * trained by models/train/fusion/train.sh and given with `--fusion DIR`; none is
 * shipped: docs/quality.md, "What did not ship"). It scores every candidate of
 * the pool from the inputs the hand-set fusion reads (dense, sparse, prior, graph
 * votes, locality), a few more per candidate (raw cosine, raw BM25, few uses, a
 * new premise that matches lexically), and weights that depend on the query (file context, goal and
 * hypothesis sizes, how strongly BM25 and the encoder matched at all):
 *   score = base · (w + U · q) + extra · v.
 * `fusionInputs` is the one definition of those numbers: `premise-lsp
 * fusion-data` writes them for training and the engine computes them at search
 * time, so training and serving cannot drift apart.
 */
import { readModelFile, sameNames } from './model-file.js';
import { minMax, prior, type Scored } from './fusion.js';
import { parseQuery } from './query.js';
import { LOW_USES } from './rerank-features.js';

export const BASE_FEATURES = ['dense_norm', 'sparse_share', 'prior', 'graph_share', 'local'] as const;
export const EXTRA_FEATURES = ['dense', 'sparse_log', 'has_sparse', 'low_use', 'low_use_lexical', 'no_graph'] as const;
export const QUERY_FEATURES = ['context', 'goal_len', 'hyps', 'pool_sparse_max', 'pool_dense_max', 'bias'] as const;

export const FUSION_FORMAT = 'premise-lsp-fusion';
export const FUSION_FILE = 'fusion.json';

/** What the fusion knows of the query. */
export interface FusionQuery {
  /** The search has a file context (`nearby` given, even empty). */
  context: boolean;
  /** The main goal's length in characters. */
  goalChars: number;
  hyps: number;
}

export interface FusionInputs {
  /** Per candidate, BASE_FEATURES then EXTRA_FEATURES. */
  rows: Float64Array[];
  /** QUERY_FEATURES. */
  query: number[];
}

/** What the fusion knows of a query text searched with (`context`) or without a file context. */
export function fusionQueryOf(text: string, context: boolean): FusionQuery {
  const q = parseQuery(text);
  return { context, goalChars: q.goal.length, hyps: q.hyps.length };
}

/** The fusion's inputs for a pool of candidates (`maxUses`: the corpus's most used premise, as for the prior). */
export function fusionInputs(cands: readonly Scored[], q: FusionQuery, maxUses: number): FusionInputs {
  // the hand fusion's scalings (fusion.ts), so that its weights are a point of this model
  const nd = minMax(cands.map((c) => c.dense));
  const maxSparse = Math.max(0, ...cands.map((c) => c.sparse ?? 0));
  const maxGraph = Math.max(0, ...cands.map((c) => c.graph ?? 0));
  const maxDense = Math.max(...cands.map((c) => c.dense ?? -Infinity));
  const rows = cands.map((c) => {
    const sparse = c.sparse ?? 0;
    const ss = maxSparse > 0 ? sparse / maxSparse : 0;
    const graph = c.graph ?? 0;
    // a new premise: as the reranker's `uses_low`
    const low = c.uses < LOW_USES ? 1 : 0;
    return Float64Array.of(
      nd(c.dense),
      ss,
      prior(c.uses, maxUses),
      maxGraph > 0 ? graph / maxGraph : 0,
      c.local ?? 0,
      c.dense ?? 0,
      Math.log1p(sparse),
      sparse > 0 ? 1 : 0,
      low,
      low * ss,
      graph === 0 ? 1 : 0,
    );
  });
  const query = [q.context ? 1 : 0, Math.log1p(q.goalChars) / 6, Math.log1p(q.hyps) / 3, Math.log1p(maxSparse) / 5, maxDense > -Infinity ? maxDense : 0, 1];
  return { rows, query };
}

export class LearnedFusion {
  private constructor(
    /** BASE_FEATURES weights. */
    private readonly w: number[],
    /** EXTRA_FEATURES weights. */
    private readonly v: number[],
    /** BASE × QUERY interaction weights. */
    private readonly u: number[][],
    /** The encoder whose cosines it was trained on (its dense features are that encoder's). */
    readonly encoderId: string,
    readonly file: string,
  ) {}

  /** Reads `dir/fusion.json`; throws an Error naming the file when it is missing or malformed. */
  static load(dir: string): LearnedFusion {
    const { file, m, encoderId, bad } = readModelFile(dir, FUSION_FILE, 'learned fusion', FUSION_FORMAT);
    if (!sameNames(m.base, BASE_FEATURES) || !sameNames(m.extra, EXTRA_FEATURES) || !sameNames(m.query, QUERY_FEATURES)) {
      throw bad('its features are not the ones this version computes (retrain it with models/train/fusion/train.sh)');
    }
    const nums = (a: unknown, n: number): a is number[] => Array.isArray(a) && a.length === n && a.every((x) => typeof x === 'number' && Number.isFinite(x));
    if (!nums(m.w, BASE_FEATURES.length) || !nums(m.v, EXTRA_FEATURES.length)) throw bad('w and v must be finite numbers, one per feature');
    if (!Array.isArray(m.u) || m.u.length !== BASE_FEATURES.length || !m.u.every((r: unknown) => nums(r, QUERY_FEATURES.length))) {
      throw bad(`u must be ${BASE_FEATURES.length} rows of ${QUERY_FEATURES.length} finite numbers`);
    }
    return new LearnedFusion(m.w, m.v, m.u as number[][], encoderId, file);
  }

  /** The fused score of every candidate (same order). */
  score(cands: readonly Scored[], q: FusionQuery, maxUses: number): number[] {
    const { rows, query } = fusionInputs(cands, q, maxUses);
    const nb = BASE_FEATURES.length;
    // the query's own base weights: w + U·q
    const wq = this.w.map((w, i) => w + this.u[i]!.reduce((acc, x, j) => acc + x * query[j]!, 0));
    return rows.map((r) => {
      let s = 0;
      for (let i = 0; i < nb; i++) s += r[i]! * wq[i]!;
      for (let i = 0; i < this.v.length; i++) s += r[nb + i]! * this.v[i]!;
      return s;
    });
  }
}
