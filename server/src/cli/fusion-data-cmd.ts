/**
 * `premise-lsp fusion-data --index DIR --records records.jsonl --out pools.jsonl
 *   [--limit N] [--dev-limit N] [--holdout FILE] [--no-context PCT]`
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
 */
import { createWriteStream } from 'node:fs';
import { BASE_FEATURES, EXTRA_FEATURES, fusionFeatures, fusionInputs, fusionQueryOf, openEngine, QUERY_FEATURES } from '../engine/open.js';
import { fileDeclarations, provingIn } from '../eval/run.js';
import { intOption, parse, percentOption, UsageError, indexDirOption } from './args.js';
import { isDevFile } from '../eval/holdout.js';
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
  });
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
    await write(out, JSON.stringify({ header: true, base: BASE_FEATURES, extra: EXTRA_FEATURES, query: QUERY_FEATURES, index: values.index, k: POOL_K }));
    const files = fileDeclarations(engine);
    const started = Date.now();
    let done = 0;
    for (const [split, qs] of [['train', train], ['dev', dev]] as const) {
      for (const q of qs) {
        const contexts = split === 'dev' ? [true, false] : [!withoutContext(q, noContext)];
        const where = provingIn(engine, files, q.name);
        for (const context of contexts) {
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
