/**
 * `premise-lsp rerank-data --index DIR --records records.jsonl --out features.jsonl
 *   [--limit N] [--val-limit N] [--mode M] [--holdout FILE] [--val-dojo FILE]`
 *
 * Development command: training data for the learned reranker. Each theorem of the
 * records whose proof references premises of the index becomes a query (its
 * statement rendered as a proof state); the first stage ranks the index for it and
 * one JSON line per query is written with the feature rows of the top 50 and 0/1
 * labels (1 = the proof references the candidate). Theorems on the holdout list
 * are skipped; files whose stable hash is 0 mod 20 form the validation split.
 * `--val-dojo` also writes the validation queries in LeanDojo form, so that
 * `premise-lsp eval --dataset leandojo` can score them end to end.
 */
import { createWriteStream } from 'node:fs';
import type { PremiseRecord } from '../../../indexes/src/extract/record.js';
import { FEATURE_NAMES, featureRows, openEngine } from '../engine/open.js';
import { fileDeclarations, provingIn } from '../eval/run.js';
import { recordQueries, type TrainQuery } from '../eval/statements.js';
import { isDevFile, stableHash, VAL_MOD, type HoldOutRule } from '../eval/holdout.js';
import { choice, intOption, MODES, parse, percentOption, UsageError, indexDirOption } from './args.js';
import { close, readHoldout, readLines, readRule, round, write } from './training-files.js';

/** Candidates per query (the engine's RERANK_TOP, pipeline/reorderers/rerank.ts). */
const TOP = 50;

/** Whether a training query is searched without its file context (`pct` percent of them, by a stable hash; never validation queries). */
export function withoutContext(q: { name: string; split: 'train' | 'val' }, pct: number): boolean {
  return q.split === 'train' && stableHash(`context:${q.name}`) % 100 < pct;
}

/** Training queries from an extracted records file (see eval/statements.ts for the rules). */
export function statementQueries(
  recordsFile: string,
  holdout: Set<string>,
  has: (name: string) => boolean,
  shared: string | undefined,
): { queries: TrainQuery[]; skippedHoldout: number; rule: HoldOutRule } {
  const records = readLines(recordsFile).map((l) => JSON.parse(l) as PremiseRecord);
  const fileOf = new Map(records.map((r) => [r.name, r.file]));
  const rule = readRule(shared, (n) => fileOf.get(n));
  return { ...recordQueries(records, holdout, has, rule), rule };
}

export async function rerankDataCommand(argv: string[]): Promise<number> {
  const { values } = parse(argv, {
    index: { type: 'string', short: 'i' },
    records: { type: 'string' },
    out: { type: 'string', short: 'o' },
    limit: { type: 'string' },
    'val-limit': { type: 'string' },
    mode: { type: 'string' },
    holdout: { type: 'string' },
    shared: { type: 'string' },
    'val-dojo': { type: 'string' },
    encoder: { type: 'string' },
    'no-context': { type: 'string' },
  });
  if (!values.index || !values.records || !values.out) throw new UsageError('rerank-data needs --index DIR --records FILE --out FILE');
  const limit = intOption(values.limit, 'limit', Number.MAX_SAFE_INTEGER);
  const valLimit = intOption(values['val-limit'], 'val-limit', Math.max(1, Math.ceil(limit / VAL_MOD)));
  const holdout = readHoldout(values.holdout);
  const mode = choice(values.mode, 'mode', MODES);
  const noContext = percentOption(values['no-context'], 'no-context', 50);

  const engine = await openEngine(indexDirOption(values.index), { encoderDir: values.encoder, sparseOnly: mode === 'bm25', defaultReranker: false });
  const firstStage = mode ?? (engine.hasDense ? 'hybrid' : 'bm25');

  const { queries, skippedHoldout } = statementQueries(values.records, holdout, (n) => !!engine.lookup(n), values.shared);
  const train = queries.filter((q) => q.split === 'train').slice(0, limit);
  const val = queries.filter((q) => q.split === 'val').slice(0, valLimit);
  const chosen = [...train, ...val];
  process.stderr.write(
    `rerank-data: ${queries.length} eligible queries (${skippedHoldout} held out); writing ${train.length} train + ${val.length} val, first stage ${firstStage}\n`,
  );

  const out = createWriteStream(values.out);
  await write(out, JSON.stringify({ header: true, features: FEATURE_NAMES, firstStage, index: values.index, top: TOP }));
  const dojo = values['val-dojo'] ? createWriteStream(values['val-dojo']) : undefined;
  const files = fileDeclarations(engine);
  const started = Date.now();
  let withPositive = 0;
  try {
    for (let i = 0; i < chosen.length; i++) {
      const q = chosen[i]!;
      // searched as `eval` does: as if proving the theorem at its place in its file
      // some training queries lose their file context (nothing nearby), as a statement typed in a
      // scratch file or a benchmark without positions: their new premises are not local there
      const where = provingIn(engine, files, q.name);
      const context = !withoutContext(q, noContext);
      const hits = await engine.search(q.text, { k: TOP, mode: firstStage, pattern: false, ...where, ...(context ? {} : { nearby: undefined }) });
      // the query theorem is excluded, so its own proof is not counted among its premises' uses
      // (a user proving a new theorem has no such use; else every positive would have ≥ 1)
      const pool = hits.map((h) => ({ info: h, parts: h.parts, score: h.score }));
      const labels = pool.map((c) => (q.gold.has(c.info.name) ? 1 : 0));
      if (labels.some((l) => l)) withPositive++;
      const rows = featureRows(q.text, pool).map((r) => Array.from(r, round));
      await write(out, JSON.stringify({ name: q.name, file: q.file, split: q.split, dev: isDevFile(q.file), context, nGold: q.gold.size, labels, features: rows }));
      if (dojo && q.split === 'val') {
        const premises = [...q.gold].map((n) => ({ full_name: n }));
        await write(dojo, JSON.stringify({ id: q.name, theorem: q.name, split: 'rerank-val', state_before: q.text, premises }));
      }
      const done = i + 1;
      if (done % 1024 === 0 || done === chosen.length) {
        const s = (Date.now() - started) / 1000;
        process.stderr.write(`rerank-data: ${done}/${chosen.length} queries, ${withPositive} with a positive in the top ${TOP}, ${s.toFixed(0)} s\n`);
      }
    }
  } finally {
    await close(out);
    if (dojo) await close(dojo);
    await engine.dispose();
  }
  return 0;
}
