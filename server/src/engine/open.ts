/**
 * With types.ts, the engine's public surface: nothing else of server/src/engine
 * is imported from outside it (test/unit/import-graph.test.ts).
 *
 * Opens an index directory (or several, as one) as a ready Engine: reads and checks the index files,
 * loads the encoder the index was built with (or the one given), and checks the
 * two agree; loads a reranker (the one given, else the shipped `models/reranker`
 * when present) and says whether its evaluation turns reranking on by default.
 */
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { loadEncoder, type Encoder } from '../../../models/src/encoder.js';
import { openIndexEncoder } from './encoder-choice.js';
import { chooseTextTower } from './text-tower-choice.js';
import { readIndexDir } from '../../../indexes/src/store/index-dir.js';
import { readExternalRefs } from '../../../indexes/src/external-refs.js';
import { mergeModuleImports, readModuleImports } from '../../../indexes/src/module-imports.js';
import { Engine, type EngineOptions } from './engine.js';
import { Segment } from './segment.js';
import { loadCrossEncoder } from '../../../models/src/cross-encoder.js';
import { CrossEncoderReranker } from './rerank-cross.js';
import { FeatureReranker, isFeatureRerankerDir, shippedRerankerDir } from './rerank-model.js';
import type { Reranker } from './rerank.js';
import { loadVocabulary } from '../../../indexes/src/informal/vocab.js';
import { defaultModelDir, defaultTextTowerDir, defaultVocabFile } from '../paths.js';
import { loadTextTower } from '../../../models/src/text-tower.js';
import { LearnedFusion } from './learned-fusion.js';
import { TreeRanker } from './tree-ranker.js';
import type { OpenedEngine } from './types.js';

// The engine's values for callers outside it (with types.ts, its whole public surface).
export { DEFAULT_WEIGHTS, type FusionWeights, type StyleWeights } from './fusion.js';
export { withNotation } from './notation.js';
export { FEATURE_NAMES, featureRows } from './rerank-features.js';
export { FixtureEngine } from './fixture-engine.js';
export { isEquational, mainConclusion } from './shape.js';
export { instantiateArgs, slotChoices, slotOf, SLOT_KINDS, type SlotKind } from './slot.js';
export { isPatternQuery, notationOf, parsePattern, patternConstants, PatternError } from './pattern.js';
export { QueryError } from './query-error.js';
export { BASE_FEATURES, EXTRA_FEATURES, QUERY_FEATURES, fusionInputs, fusionQueryOf } from './learned-fusion.js';
export { RANK_FEATURES, RANK_QUERY_FEATURES, RANK_TOP } from './tree-ranker.js';
export { fusionFeatures } from './pipeline/features.js';

export interface OpenOptions extends Omit<EngineOptions, 'encoder' | 'rerankByDefault' | 'fusion' | 'ranker' | 'sourceRoots' | 'moduleImports'> {
  /** Encoder directory overriding the one recorded in the index manifest. */
  encoderDir?: string;
  /** Skip loading the encoder (BM25 only). */
  sparseOnly?: boolean;
  /** A reranker directory: the project's feature reranker (has `reranker.json`) or a cross-encoder. */
  rerankerDir?: string;
  /** Load the shipped `models/reranker` when no reranker is given (default true). */
  defaultReranker?: boolean;
  /** English text tower directory (default: the shipped models/text-tower when it was trained for the index's encoder). */
  textTowerDir?: string;
  /** Load no text tower: English goes through the encoder like any query (default false). */
  noTextTower?: boolean;
  /**
   * A learned fusion for Lean states and statements (`fusion.json`, trained by
   * models/train/fusion/train.sh for the index's encoder; default: none, the hand-set weights).
   */
  fusionDir?: string;
  /** A learned ranker (`ranker.json`, models/train/ranker/train.sh, for the index's encoder; default: none). */
  rankerDir?: string;
  /** English → Lean vocabulary file (default: the shipped models/vocab/en-lean.json; the seed table alone when absent). */
  vocabFile?: string;
  /**
   * Source roots per index directory (by the path given), replacing its manifest's
   * `sources` for `sourcePath`: the automatic index's toolchain entry is built
   * from a temporary directory of links, gone once built.
   */
  sourceRoots?: Readonly<Record<string, readonly string[]>>;
  /** Problems that do not stop the engine, e.g. a shipped reranker that cannot be loaded (default: stderr). */
  onWarning?: (message: string) => void;
}

export type { OpenedEngine };

async function openReranker(opts: OpenOptions): Promise<{ reranker?: Reranker; byDefault: boolean }> {
  if (opts.reranker) return { reranker: opts.reranker, byDefault: false };
  const dir = opts.rerankerDir;
  if (dir && !isFeatureRerankerDir(dir)) return { reranker: new CrossEncoderReranker(await loadCrossEncoder(dir)), byDefault: false };
  if (dir) {
    const reranker = await FeatureReranker.load(dir);
    return { reranker, byDefault: reranker.byDefault };
  }
  const shipped = opts.defaultReranker !== false ? shippedRerankerDir() : undefined;
  if (!shipped) return { byDefault: false };
  try {
    const reranker = await FeatureReranker.load(shipped);
    return { reranker, byDefault: reranker.byDefault };
  } catch (e) {
    // the first stage works without it: say so and go on
    const warn = warnOf(opts);
    warn(`reranking is off: ${(e as Error).message}`);
    return { byDefault: false };
  }
}

/** Where problems that do not stop the engine go: the caller's `onWarning`, else stderr. */
const warnOf = (opts: OpenOptions) => opts.onWarning ?? ((m: string) => process.stderr.write(`premise-lsp: ${m}\n`));

/** The English → Lean vocabulary; a damaged shipped table falls back to the seed with a warning (text search keeps working). */
function openVocabulary(opts: OpenOptions) {
  try {
    return loadVocabulary(opts.vocabFile ?? defaultVocabFile());
  } catch (e) {
    if (opts.vocabFile) throw e;
    const warn = warnOf(opts);
    warn(`English vocabulary: ${(e as Error).message}; using the naming-convention seed only`);
    return loadVocabulary();
  }
}

/** The learned fusion asked for: an error when it was trained on another encoder than the index's. */
function loadFusion(dir: string, encoderId: string): LearnedFusion {
  const f = LearnedFusion.load(dir);
  if (f.encoderId !== encoderId) throw new Error(`learned fusion ${f.file} was trained on encoder ${f.encoderId}, but the index's vectors are from ${encoderId}`);
  return f;
}

/** The learned ranker asked for: an error when it was trained on another encoder than the index's. */
function loadRanker(dir: string, encoderId: string): TreeRanker {
  const r = TreeRanker.load(dir);
  if (r.encoderId !== encoderId) throw new Error(`learned ranker ${r.file} was trained on encoder ${r.encoderId}, but the index's vectors are from ${encoderId}`);
  return r;
}

/** A manifest's `sources` as roots: absolute paths only (`index` records them so; anything else is not trusted). */
const manifestSources = (sources: unknown): string[] => (Array.isArray(sources) ? sources.filter((s): s is string => typeof s === 'string' && isAbsolute(s)) : []);

/**
 * Open one index directory, or several as one engine (one base segment each,
 * e.g. a project's dependencies and its own sources). Several directories must
 * have been built with the same encoder, or all without one.
 */
export async function openEngine(indexDir: string | string[], opts: OpenOptions = {}): Promise<OpenedEngine> {
  const dirs = Array.isArray(indexDir) ? indexDir : [indexDir];
  if (!dirs.length) throw new Error('no index directory to open');
  const all = dirs.map((d) => readIndexDir(d, { dense: !opts.sparseOnly }));
  const idOf = (i: number) => all[i]!.manifest.encoder?.id ?? 'no encoder (sparse only)';
  // an empty index has no vectors whatever its encoder: it goes with any
  const first = Math.max(0, all.findIndex((p) => p.manifest.premises > 0));
  for (let i = 0; i < all.length && !opts.sparseOnly; i++) {
    if (idOf(i) !== idOf(first) && all[i]!.manifest.premises > 0) {
      throw new Error(`indexes built with different encoders cannot be opened together: ${dirs[first]} has ${idOf(first)}, ${dirs[i]} has ${idOf(i)}; rebuild them with the same encoder`);
    }
  }
  let encoder: Encoder | undefined;
  const rec = all[first]!.manifest.encoder;
  if (rec && !opts.sparseOnly) {
    const index = all[first]!;
    encoder = await openIndexEncoder(rec, { dir: dirs[first]!, sources: manifestSources(index.manifest.sources) }, opts.encoderDir);
  }
  const textTower = encoder && rec ? chooseTextTower(opts, rec.id, defaultTextTowerDir(), warnOf(opts)) : undefined;
  const fusion = encoder && rec && opts.fusionDir ? loadFusion(opts.fusionDir, rec.id) : undefined;
  const ranker = encoder && rec && opts.rankerDir ? loadRanker(opts.rankerDir, rec.id) : undefined;
  const { reranker, byDefault } = await openReranker(opts);
  const vocabulary = opts.vocabulary ?? openVocabulary(opts);
  const engine = new Engine(all.map((parts) => Segment.fromIndex(parts, readExternalRefs(parts.dir, parts.premises.size))), {
    ...opts,
    encoder,
    textTower,
    fusion,
    ranker,
    reranker,
    rerankByDefault: byDefault,
    vocabulary,
    sourceRoots: all.map((parts, i) => opts.sourceRoots?.[dirs[i]!] ?? manifestSources(parts.manifest.sources)),
    moduleImports: mergeModuleImports(dirs.map(readModuleImports)),
    patternBudgetMs: opts.patternBudgetMs ?? patternBudgetFromEnv(warnOf(opts)),
  });
  return Object.assign(engine, { rerankByDefault: byDefault });
}

/** `PREMISE_LSP_PATTERN_BUDGET_MS`: a pattern search's time budget in ms for every caller of this process (unset: 2,000). */
function patternBudgetFromEnv(warn: (message: string) => void): number | undefined {
  const raw = process.env.PREMISE_LSP_PATTERN_BUDGET_MS;
  if (raw === undefined || raw === '') return undefined;
  const ms = Number(raw);
  if (Number.isFinite(ms) && ms > 0) return ms;
  warn(`PREMISE_LSP_PATTERN_BUDGET_MS must be a positive number of ms, got ${JSON.stringify(raw)}; using the default`);
  return undefined;
}

/** One shipped model loaded as a search loads it (`premise-lsp doctor`): what it is, where, and what failed. */
export interface ModelCheck {
  model: string;
  dir: string;
  detail?: string;
  error?: string;
}

/** Loads each shipped model: the encoder (one query embedded), the English text tower, the reranker and the vocabulary. Never throws. */
export async function checkShippedModels(): Promise<ModelCheck[]> {
  const check = async (model: string, dir: string, load: () => Promise<string>): Promise<ModelCheck> => {
    try {
      return { model, dir, detail: await load() };
    } catch (e) {
      return { model, dir, error: (e as Error).message };
    }
  };
  return [
    await check('encoder', defaultModelDir(), async () => {
      if (!existsSync(defaultModelDir())) throw new Error(`no encoder at ${defaultModelDir()}`);
      const encoder = await loadEncoder(defaultModelDir(), { threads: 1 });
      try {
        const [v] = await encoder.embed(['a + b = b + a'], 'query');
        if (!v || v.length !== encoder.dim || !v.every(Number.isFinite)) throw new Error('the encoder gave no usable vector');
        return `${encoder.dim}-d`;
      } finally {
        await encoder.dispose();
      }
    }),
    await check('text tower', defaultTextTowerDir(), async () => `${loadTextTower(defaultTextTowerDir()).dim}-d`),
    await check('reranker', shippedRerankerDir() ?? 'models/reranker', async () => {
      const dir = shippedRerankerDir();
      if (!dir) throw new Error('no shipped reranker');
      const r = await FeatureReranker.load(dir);
      return r.byDefault ? 'on by default' : 'off by default';
    }),
    await check('vocabulary', defaultVocabFile(), async () => (loadVocabulary(defaultVocabFile()), 'loaded')),
  ];
}
