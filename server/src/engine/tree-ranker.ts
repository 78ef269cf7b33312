/**
 * The learned ranker (LambdaMART: xgboost `rank:pairwise` or `rank:ndcg` trees over
 * the pipeline's feature vector, pipeline/rank-features.ts), given with `--ranker DIR`
 * (`ranker.json`, trained by models/train/ranker/train.sh for the index's encoder).
 * Off unless given: none is shipped on by default (docs/quality.md, "The learned ranker").
 * The file names the features it was trained on; a model whose list is not this
 * version's is refused rather than fed shifted columns.
 */
import { readModelFile, sameNames } from './model-file.js';
import { TreeModel } from './tree-model.js';

/** Candidates the ranker scores: the head of the hand-set fusion's list. */
export const RANK_TOP = 300;

/** The model's columns, in order: each candidate's, then the query's (their values: pipeline/rank-features.ts). */
export const RANK_FEATURES = [
  'fused',
  'fused_rank',
  'fused_share',
  'dense',
  'dense_rank',
  'dense_norm',
  'sparse',
  'sparse_rank',
  'sparse_share',
  'graph',
  'graph_rank',
  'graph_share',
  'own',
  'own_rank',
  'usage',
  'usage_rank',
  'local',
  'log_uses',
  'entry',
  'generators',
  'kind',
  'statement_len',
  'binders',
  'proof_refs',
] as const;

export const RANK_QUERY_FEATURES = ['goal_len', 'hyps', 'statement', 'context', 'slot', 'project', 'pool_log', 'pool_sparse_max', 'pool_dense_max'] as const;

export const RANKER_FORMAT = 'premise-lsp-ranker';
export const RANKER_FILE = 'ranker.json';

export class TreeRanker {
  private constructor(
    readonly model: TreeModel,
    /** The encoder whose cosines it was trained on. */
    readonly encoderId: string,
    /** Candidates it scores: the head of the hand-set fusion's list. */
    readonly top: number,
    readonly file: string,
  ) {}

  /** Reads `dir/ranker.json`; throws an Error naming the file when it is missing or malformed. */
  static load(dir: string): TreeRanker {
    const { file, m, encoderId, bad } = readModelFile(dir, RANKER_FILE, 'learned ranker', RANKER_FORMAT);
    if (!sameNames(m.features, RANK_FEATURES) || !sameNames(m.query, RANK_QUERY_FEATURES)) {
      throw bad('its features are not the ones this version computes (retrain it with models/train/ranker/train.sh)');
    }
    if (!Number.isInteger(m.top) || (m.top as number) < 2) throw bad('top must be an integer ≥ 2');
    const model = TreeModel.fromJSON(m.model, `learned ranker ${file}`);
    if (model.features !== RANK_FEATURES.length + RANK_QUERY_FEATURES.length) throw bad(`its trees read ${model.features} features, not ${RANK_FEATURES.length + RANK_QUERY_FEATURES.length}`);
    return new TreeRanker(model, encoderId, m.top as number, file);
  }

  score(rows: readonly Float64Array[]): number[] {
    return rows.map((r) => this.model.score(r));
  }
}
