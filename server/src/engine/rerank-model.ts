/**
 * The project's learned reranker: a small ONNX model over the hand-made features
 * of `rerank-features.ts`, evaluated in plain TypeScript (`models/src/onnx-mlp.ts`,
 * no onnxruntime). A reranker directory holds `model.onnx` (input
 * `features` float32 [N, F] of standardised features → output `scores` [N]) and
 * `reranker.json` (feature names in order, the mean/std to standardise with, and
 * whether reranking should be on by default).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ModelFileMissingError, ModelFormatError, errorMessage } from '../../../models/src/errors.js';
import { loadMlp, type Mlp } from '../../../models/src/onnx-mlp.js';
import { packageRoot } from '../paths.js';
import { FEATURE_COUNT, FEATURE_NAMES, featureMatrix } from './rerank-features.js';
import type { Reranker, RerankInput } from './rerank.js';
import type { ParsedQuery, QueryStyle } from './types.js';

export const RERANKER_FORMAT = 'premise-lsp-reranker';

export interface RerankerSpec {
  format: typeof RERANKER_FORMAT;
  version: 1;
  /** Feature names in input-column order; must equal FEATURE_NAMES. */
  features: string[];
  /** Standardisation: x' = (x - mean) / std, per feature. */
  mean: number[];
  std: number[];
  /** Rerank unless the caller says otherwise (set by evaluation, see MODEL_CARD.md). */
  default: boolean;
  /**
   * Query styles the model was trained for; other queries keep their first-stage
   * order (the reranker returns the first-stage scores). Absent = every style.
   */
  styles?: QueryStyle[];
  /** Free-form provenance (first stage trained on, data sizes, metrics). */
  trainedOn?: Record<string, unknown>;
}

/** The reranker shipped with the package (absent until trained). */
export const defaultRerankerDir = () => join(packageRoot(), 'models', 'reranker');

/** Whether `dir` is a feature-reranker directory (as opposed to a cross-encoder). */
export const isFeatureRerankerDir = (dir: string) => existsSync(join(dir, 'reranker.json'));

/** The shipped reranker directory if there is one (none when running outside the package). */
export function shippedRerankerDir(): string | undefined {
  let dir: string;
  try {
    dir = defaultRerankerDir();
  } catch {
    return undefined;
  }
  return isFeatureRerankerDir(dir) ? dir : undefined;
}

function readSpec(file: string): RerankerSpec {
  if (!existsSync(file)) throw new ModelFileMissingError(`reranker file missing: ${file}`, file);
  let spec: RerankerSpec;
  try {
    spec = JSON.parse(readFileSync(file, 'utf8')) as RerankerSpec;
  } catch (e) {
    throw new ModelFormatError(`corrupt reranker file ${file}: ${errorMessage(e)}`, file, { cause: e });
  }
  const bad = (why: string) => new ModelFormatError(`corrupt reranker file ${file}: ${why}`, file);
  if (!spec || typeof spec !== 'object' || spec.format !== RERANKER_FORMAT) throw bad(`"format" is not "${RERANKER_FORMAT}"`);
  if (!Array.isArray(spec.features) || spec.features.join('\n') !== FEATURE_NAMES.join('\n')) {
    throw bad(`its feature list does not match the ${FEATURE_COUNT} features this version computes; retrain the reranker`);
  }
  for (const key of ['mean', 'std'] as const) {
    const v = spec[key];
    if (!Array.isArray(v) || v.length !== FEATURE_COUNT || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      throw bad(`"${key}" must be ${FEATURE_COUNT} finite numbers`);
    }
  }
  if (spec.std.some((s) => s <= 0)) throw bad('"std" must be positive');
  if (typeof spec.default !== 'boolean') throw bad('"default" must be true or false');
  if (spec.styles !== undefined && !(Array.isArray(spec.styles) && spec.styles.every((x) => typeof x === 'string'))) {
    throw bad('"styles" must be a list of query styles');
  }
  return spec;
}

export class FeatureReranker implements Reranker {
  private readonly invStd: Float32Array;
  private readonly mean: Float32Array;

  private constructor(
    readonly dir: string,
    readonly spec: RerankerSpec,
    private readonly model: Mlp,
  ) {
    this.mean = Float32Array.from(spec.mean);
    this.invStd = Float32Array.from(spec.std, (s) => 1 / s);
  }

  /** Whether the model's evaluation says reranking should be on unless the caller turns it off. */
  get byDefault(): boolean {
    return this.spec.default;
  }

  static async load(dir: string): Promise<FeatureReranker> {
    const spec = readSpec(join(dir, 'reranker.json'));
    const file = join(dir, 'model.onnx');
    if (!existsSync(file)) throw new ModelFileMissingError(`reranker file missing: ${file}`, file);
    let model: Mlp;
    try {
      model = loadMlp(file);
    } catch (e) {
      throw new ModelFormatError(`corrupt reranker file ${file}: ${errorMessage(e)}`, file, { cause: e });
    }
    if (model.input !== 'features' || model.output !== 'scores') {
      throw new ModelFormatError(
        `reranker model ${file} must take "features" and give "scores" (has input ${model.input}, output ${model.output})`,
        file,
      );
    }
    return new FeatureReranker(dir, spec, model);
  }

  /** Whether the model was trained for this kind of query (else the first-stage order stands). */
  reranks(query: ParsedQuery): boolean {
    return !this.spec.styles || this.spec.styles.includes(query.style);
  }

  /** Standardised feature rows, row-major [n × F]. */
  inputs(query: ParsedQuery, candidates: readonly RerankInput[]): Float32Array {
    const x = featureMatrix(query, candidates);
    for (let i = 0; i < x.length; i++) {
      const j = i % FEATURE_COUNT;
      x[i] = (x[i]! - this.mean[j]!) * this.invStd[j]!;
    }
    return x;
  }

  async score(query: ParsedQuery, candidates: readonly RerankInput[]): Promise<Float32Array> {
    const n = candidates.length;
    if (!n) return new Float32Array(0);
    if (!this.reranks(query)) return Float32Array.from(candidates, (c) => c.score);
    return this.model.run(this.inputs(query, candidates), n);
  }

  release(): Promise<void> {
    return Promise.resolve();
  }
}
