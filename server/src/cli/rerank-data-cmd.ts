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
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import type { PremiseRecord } from '../../../indexes/src/extract/record.js';
import { FEATURE_NAMES, featureRows, openEngine } from '../engine/open.js';
import { fileDeclarations, provingIn } from '../eval/run.js';
import { binderToHyp } from '../../../indexes/src/extract/lean/signature.js';
import { choice, intOption, MODES, parse, percentOption, UsageError } from './args.js';
import { close, readHoldout, readLines, round, write } from './training-files.js';

/** Candidates per query (the engine's RERANK_TOP). */
const TOP = 50;
const VAL_MOD = 20;
const STATEMENT_KINDS = new Set(['theorem', 'lemma']);

/** A stable 32-bit hash (first 4 bytes of SHA-1), for splits and sampling. */
export function stableHash(s: string): number {
  return createHash('sha1').update(s).digest().readUInt32BE(0);
}

export const isValidationFile = (file: string) => stableHash(file) % VAL_MOD === 0;

/** Whether a training query is searched without its file context (`pct` percent of them, by a stable hash; never validation queries). */
export function withoutContext(q: { name: string; split: 'train' | 'val' }, pct: number): boolean {
  return q.split === 'train' && stableHash(`context:${q.name}`) % 100 < pct;
}

/** A theorem statement as the proof state at its start. */
export function statementState(r: Pick<PremiseRecord, 'args' | 'goal'>): string {
  const hyps = r.args.map(binderToHyp).join('\n');
  return `${hyps ? hyps + '\n' : ''}⊢ ${r.goal}`;
}

export interface TrainQuery {
  name: string;
  file: string;
  split: 'train' | 'val';
  text: string;
  gold: Set<string>;
}

/**
 * Training queries: Lean theorems and lemmas whose proofs use premises the index
 * has (`has`), their statements as proof states; none on the holdout list, no alias.
 * Files whose stable hash is 0 mod 20 are the validation split. Ordered by a
 * stable hash of the name, so that any prefix is a fixed sample.
 */
export function statementQueries(recordsFile: string, holdout: Set<string>, has: (name: string) => boolean): { queries: TrainQuery[]; skippedHoldout: number } {
  const queries: TrainQuery[] = [];
  let skippedHoldout = 0;
  for (const line of readLines(recordsFile)) {
    const r = JSON.parse(line) as PremiseRecord;
    // an alias restates its target (alias-types.ts): its only premise would be a copy of itself
    if (r.lang !== 'lean' || !STATEMENT_KINDS.has(r.kind) || !r.goal.trim() || isAliasRecord(r)) continue;
    if (holdout.has(r.name)) {
      skippedHoldout++;
      continue;
    }
    const gold = new Set(r.refs.filter((n) => n !== r.name && has(n)));
    if (!gold.size) continue;
    queries.push({ name: r.name, file: r.file, split: isValidationFile(r.file) ? 'val' : 'train', text: statementState(r), gold });
  }
  queries.sort((a, b) => stableHash(a.name) - stableHash(b.name) || a.name.localeCompare(b.name));
  return { queries, skippedHoldout };
}

const isAliasRecord = (r: PremiseRecord) => r.origin !== undefined && r.statement.startsWith('alias ');

/** The dev split of the training files (stable hash 1 mod 20), for choices made while training. */
export const isDevFile = (file: string) => stableHash(file) % VAL_MOD === 1;

export async function rerankDataCommand(argv: string[]): Promise<number> {
  const { values } = parse(argv, {
    index: { type: 'string', short: 'i' },
    records: { type: 'string' },
    out: { type: 'string', short: 'o' },
    limit: { type: 'string' },
    'val-limit': { type: 'string' },
    mode: { type: 'string' },
    holdout: { type: 'string' },
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

  const engine = await openEngine(values.index, { encoderDir: values.encoder, sparseOnly: mode === 'bm25', defaultReranker: false });
  const firstStage = mode ?? (engine.hasDense ? 'hybrid' : 'bm25');

  const { queries, skippedHoldout } = statementQueries(values.records, holdout, (n) => !!engine.lookup(n));
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
      const hits = await engine.search(q.text, { k: TOP, mode: firstStage, ...where, ...(context ? {} : { nearby: undefined }) });
      // the query theorem is excluded, so its own proof is not counted among its premises' uses
      // (a user proving a new theorem has no such use; else every positive would have ≥ 1)
      const pool = hits.map((h) => ({ info: h, parts: h.parts, score: h.score }));
      const labels = pool.map((c) => (q.gold.has(c.info.name) ? 1 : 0));
      if (labels.some((l) => l)) withPositive++;
      const rows = featureRows(q.text, pool).map((r) => Array.from(r, round));
      await write(out, JSON.stringify({ name: q.name, file: q.file, split: q.split, context, nGold: q.gold.size, labels, features: rows }));
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
