/**
 * `premise-lsp fusion-data --index DIR --records records.jsonl --out pools.jsonl
 *   [--limit N] [--dev-limit N] [--holdout FILE] [--no-context PCT] [--ranker]`
 * `premise-lsp fusion-data --project DIR --half dev|test --out pools.jsonl --ranker [--limit N]`
 *
 * Development command: training data for the learned first-stage fusion
 * (models/train/fusion/train.py, `learned-fusion.ts`). The same statement queries
 * as `rerank-data` (never the held-out files, stable hash 0 mod 20); each is
 * searched in hybrid mode as `eval` does (the theorem excluded, what its file
 * declares below it hidden) and one JSON line per search is written with the
 * whole candidate pool: per candidate the fusion's inputs as `fusionInputs`
 * computes them, its uses and a 0/1 label (the proof uses it); per search the
 * query features. Training queries lose their file context at `--no-context`
 * percent (as a statement typed in a scratch file); dev queries (stable hash 1
 * mod 20) are written twice, with and without it.
 *
 * `--ranker`: the learned ranker's data instead (models/train/ranker/train.sh): per
 * search the rows its stage computes for the hand-set fusion's head
 * (pipeline/rank-features.ts, handed over by `SearchOptions.onRank`), each with a 0/1
 * label. `--project DIR`: a Lake project's own theorems of one half, searched in its
 * automatic index as `eval --project` does (the server's entries and cache), each
 * search's split the one hold-out rule's (dev files: `dev`, held-out files: none).
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { BASE_FEATURES, EXTRA_FEATURES, fusionFeatures, fusionInputs, fusionQueryOf, openEngine, QUERY_FEATURES, RANK_FEATURES, RANK_QUERY_FEATURES, RANK_TOP } from '../engine/open.js';
import { fileDeclarations, provingIn } from '../eval/run.js';
import { projectQueries } from '../eval/statements.js';
import type { OpenedEngine } from '../engine/types.js';
import { choice, intOption, parse, percentOption, UsageError, indexDirOption } from './args.js';
import { openTarget } from './engine-flags.js';
import { isDevFile, isValidationFile } from '../eval/holdout.js';
import { statementQueries, withoutContext } from './rerank-data-cmd.js';
import { close, readHoldout, round, write } from './training-files.js';

/**
 * The whole pool (sparse and dense 200 each, graph votes, nearby): a larger pool (a long
 * file's declarations nearby) is cut to its best 1000 by the hand fusion, and its features
 * are then those of the cut pool.
 */
const POOL_K = 1000;

export async function fusionDataCommand(argv: string[]): Promise<number> {
  const { values } = parse(argv, {
    index: { type: 'string', short: 'i' },
    records: { type: 'string' },
    out: { type: 'string', short: 'o' },
    limit: { type: 'string' },
    'dev-limit': { type: 'string' },
    holdout: { type: 'string' },
    shared: { type: 'string' },
    'no-context': { type: 'string' },
    ranker: { type: 'boolean' },
    project: { type: 'string' },
    half: { type: 'string' },
  });
  if (values.project) return projectRankData(values);
  if (!values.index || !values.records || !values.out) throw new UsageError('fusion-data needs --index DIR --records FILE --out FILE');
  const limit = intOption(values.limit, 'limit', 6000);
  const devLimit = intOption(values['dev-limit'], 'dev-limit', 1000);
  const noContext = percentOption(values['no-context'], 'no-context', 50);
  const holdout = readHoldout(values.holdout);
  const engine = await openEngine(indexDirOption(values.index), { defaultReranker: false });
  if (!engine.hasDense) throw new UsageError(`${values.index} has no premise vectors: the fusion is learned for hybrid search`);
  const out = createWriteStream(values.out);
  try {
    const { queries } = statementQueries(values.records, holdout, (n) => !!engine.lookup(n), values.shared);
    const training = queries.filter((q) => q.split === 'train');
    const train = training.filter((q) => !isDevFile(q.file)).slice(0, limit);
    const dev = training.filter((q) => isDevFile(q.file)).slice(0, devLimit);
    process.stderr.write(`fusion-data: ${train.length} train + ${dev.length} dev queries\n`);
    await write(
      out,
      JSON.stringify(
        values.ranker
          ? { header: true, ranker: true, features: RANK_FEATURES, query: RANK_QUERY_FEATURES, index: values.index, top: RANK_TOP }
          : { header: true, base: BASE_FEATURES, extra: EXTRA_FEATURES, query: QUERY_FEATURES, index: values.index, k: POOL_K },
      ),
    );
    const files = fileDeclarations(engine);
    const started = Date.now();
    let done = 0;
    for (const [split, qs] of [['train', train], ['dev', dev]] as const) {
      for (const q of qs) {
        const contexts = split === 'dev' ? [true, false] : [!withoutContext(q, noContext)];
        const where = provingIn(engine, files, q.name);
        for (const context of contexts) {
          if (values.ranker) {
            await writeRankSearch(out, engine, q.text, { ...where, ...(context ? {} : { nearby: undefined }) }, (n) => q.gold.has(n), { name: q.name, file: q.file, split, context, nGold: q.gold.size });
            continue;
          }
          // as rerank-data: without context, nothing nearby
          const hits = await engine.search(q.text, { k: POOL_K, mode: 'hybrid', pattern: false, ...where, ...(context ? {} : { nearby: undefined }) });
          // the pool as the engine fused it (each candidate is a hit, up to POOL_K), read as the engine reads it
          const pool = hits.map((h) => fusionFeatures(h.parts, h.uses));
          const inputs = fusionInputs(pool, fusionQueryOf(q.text, context), engine.maxUses);
          await write(
            out,
            JSON.stringify({
              name: q.name,
              file: q.file,
              split,
              context,
              nGold: q.gold.size,
              query: inputs.query.map(round),
              rows: inputs.rows.map((r, i) => [...Array.from(r, round), hits[i]!.uses, q.gold.has(hits[i]!.name) ? 1 : 0]),
            }),
          );
        }
        if (++done % 500 === 0) process.stderr.write(`fusion-data: ${done}/${train.length + dev.length} queries, ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
      }
    }
  } finally {
    await close(out);
    await engine.dispose();
  }
  return 0;
}

/** One search's ranker rows (the head of the hand-set fusion's list, as the stage computes them), labelled by `gold`. */
async function writeRankSearch(
  out: WriteStream,
  engine: OpenedEngine,
  text: string,
  where: { exclude?: string[]; hidden?: string[]; nearby?: string[] },
  gold: (name: string) => boolean,
  about: Record<string, unknown>,
): Promise<void> {
  let head: { names: string[]; rows: Float64Array[] } | undefined;
  await engine.search(text, { k: 1, mode: 'hybrid', pattern: false, ...where, onRank: (names, rows) => (head = { names, rows }) });
  if (!head) return;
  const rows = head.rows.map((r, i) => [...Array.from(r, (x) => (Number.isNaN(x) ? null : round(x))), gold(head!.names[i]!) ? 1 : 0]);
  await write(out, JSON.stringify({ ...about, rows }));
}

/** `--project DIR --half dev|test --ranker`: a Lake project's own theorems, the ranker's rows. */
async function projectRankData(values: { project?: string; half?: string; out?: string; ranker?: boolean; limit?: string; index?: string; records?: string }): Promise<number> {
  if (!values.ranker) throw new UsageError('fusion-data --project writes the learned ranker\'s data: add --ranker');
  if (values.index || values.records) throw new UsageError('fusion-data --project takes no --index or --records: its queries are the project\'s own theorems');
  if (!values.out) throw new UsageError('fusion-data --project needs --out FILE');
  const half = choice(values.half, 'half', ['dev', 'test'] as const);
  if (!half) throw new UsageError('fusion-data --project needs --half dev|test');
  const limit = values.limit === undefined ? undefined : intOption(values.limit, 'limit', 1);
  const target = await openTarget('fusion-data', { project: values.project }, false);
  const { engine } = target;
  if (!engine.hasDense) throw new UsageError(`${values.project}: its automatic index has no premise vectors: the ranker is learned for hybrid search`);
  const out = createWriteStream(values.out);
  try {
    await write(out, JSON.stringify({ header: true, ranker: true, features: RANK_FEATURES, query: RANK_QUERY_FEATURES, project: values.project, half, top: RANK_TOP }));
    const files = fileDeclarations(engine);
    const queries = projectQueries(target.project!, { limit, half });
    process.stderr.write(`fusion-data: ${queries.length} theorems of ${values.project} (${half} half)\n`);
    for (const q of queries) {
      const file = engine.lookup(q.theorem!)?.file ?? '';
      if (isValidationFile(file)) continue;
      const gold = new Set(q.gold.flat());
      const dep = new Set((q.goldParts?.dependency ?? []).flat());
      await writeRankSearch(out, engine, q.text, provingIn(engine, files, q.theorem!), (n) => gold.has(n), {
        name: q.theorem,
        file,
        split: isDevFile(file) ? 'dev' : 'train',
        context: true,
        nGold: q.gold.length,
        nDependency: dep.size,
      });
    }
  } finally {
    await close(out);
    await engine.dispose();
  }
  return 0;
}
