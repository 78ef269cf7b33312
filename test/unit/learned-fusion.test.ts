/**
 * The learned first-stage fusion (server/src/engine/learned-fusion.ts): with the
 * hand-set weights and nothing learned it is the hand fusion exactly; its query
 * weights and extra features; its file's checks; the engine's use of it (Lean
 * queries in hybrid mode only, hand weights when `weights` are set); openEngine's
 * refusal of a fusion trained on another encoder; the training data command.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractRecords } from '../../indexes/src/extract/extract.js';
import { DEFAULT_WEIGHTS, fuse, type Scored } from '../../server/src/engine/fusion.js';
import { BASE_FEATURES, EXTRA_FEATURES, fusionInputs, fusionQueryOf, LearnedFusion, QUERY_FEATURES } from '../../server/src/engine/learned-fusion.js';
import { Engine } from '../../server/src/engine/engine.js';
import { openEngine } from '../../server/src/engine/open.js';
import { fusionDataCommand } from '../../server/src/cli/fusion-data-cmd.js';
import { RANK_FEATURES, RANK_QUERY_FEATURES } from '../../server/src/engine/pipeline/rank-features.js';
import { segmentOf, RECORDS, tinyIndex } from './engine-helpers.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'premise-lsp-fusion-'));
const HAND = DEFAULT_WEIGHTS.formal;
const zeros = (n: number) => Array.from({ length: n }, () => 0);

/** Fields of fusion.json to set (possibly malformed). */
type Spec = Record<string, unknown>;

function writeFusion(dir: string, spec: Spec = {}): string {
  mkdirSync(dir, { recursive: true });
  const body = {
    format: 'premise-lsp-fusion',
    version: 1,
    encoder_id: 'enc-test',
    base: BASE_FEATURES,
    extra: EXTRA_FEATURES,
    query: QUERY_FEATURES,
    w: [HAND.dense, HAND.sparse, HAND.prior, HAND.graph, HAND.local],
    v: zeros(EXTRA_FEATURES.length),
    u: BASE_FEATURES.map(() => zeros(QUERY_FEATURES.length)),
    ...spec,
  };
  writeFileSync(join(dir, 'fusion.json'), JSON.stringify(body));
  return dir;
}

const POOL: Scored[] = [
  { dense: 0.61, sparse: 12.5, graph: 3, uses: 140 },
  { dense: 0.42, sparse: 3.1, uses: 2, local: 1 },
  { dense: 0.55, uses: 0, graph: 1 },
  { sparse: 7.7, uses: 25 },
  { dense: 0.3, sparse: 0.4, uses: 4, graph: 0.5, local: 1 },
];
const Q = { context: true, goalChars: 40, hyps: 3 };

describe('LearnedFusion', () => {
  it('is the hand-set fusion exactly when it learned nothing', () => {
    const f = LearnedFusion.load(writeFusion(tmp()));
    const learned = f.score(POOL, Q, 5000);
    const hand = fuse(POOL, 'hybrid', 5000, HAND);
    learned.forEach((s, i) => expect(s).toBeCloseTo(hand[i]!, 10));
  });

  it('weighs its inputs by the query: score = base · (w + U·q) + extra · v', () => {
    const u = BASE_FEATURES.map(() => zeros(QUERY_FEATURES.length));
    u[4]![QUERY_FEATURES.indexOf('context')] = 2; // locality counts only with a file context
    const v = zeros(EXTRA_FEATURES.length);
    v[EXTRA_FEATURES.indexOf('low_use_lexical')] = 0.5;
    const f = LearnedFusion.load(writeFusion(tmp(), { w: [0, 0, 0, 0, 0], u, v }));
    const { rows } = fusionInputs(POOL, Q, 5000);
    const ss = (i: number) => rows[i]![BASE_FEATURES.indexOf('sparse_share')]!;
    // candidate 1: local (2 × context) + new (2 uses) × its sparse share × 0.5
    expect(f.score(POOL, Q, 5000)[1]).toBeCloseTo(2 + 0.5 * ss(1), 10);
    expect(f.score(POOL, { ...Q, context: false }, 5000)[1]).toBeCloseTo(0.5 * ss(1), 10);
    // a popular premise is no new premise
    expect(f.score(POOL, Q, 5000)[0]).toBeCloseTo(0, 10);
  });

  it('computes the query features from the query text', () => {
    const q = fusionQueryOf('a b : ℕ\nh : a ≤ b\n⊢ a + 0 ≤ b', false);
    expect(q).toEqual({ context: false, goalChars: 'a + 0 ≤ b'.length, hyps: 2 });
    const { query, rows } = fusionInputs(POOL, q, 5000);
    expect(query).toHaveLength(QUERY_FEATURES.length);
    expect(query[QUERY_FEATURES.indexOf('pool_sparse_max')]).toBeCloseTo(Math.log1p(12.5) / 5, 10);
    expect(query[QUERY_FEATURES.indexOf('pool_dense_max')]).toBeCloseTo(0.61, 10);
    expect(rows.every((r) => r.length === BASE_FEATURES.length + EXTRA_FEATURES.length && r.every(Number.isFinite))).toBe(true);
    // an empty pool has no rows and finite query features
    expect(fusionInputs([], q, 0).query.every(Number.isFinite)).toBe(true);
  });

  it('names the file of a missing, malformed or outdated fusion', () => {
    expect(() => LearnedFusion.load(tmp())).toThrow(/learned fusion file missing: .*fusion\.json/);
    const bad = writeFusion(tmp());
    writeFileSync(join(bad, 'fusion.json'), '{"format": ');
    expect(() => LearnedFusion.load(bad)).toThrow(/fusion\.json is not valid JSON/);
    expect(() => LearnedFusion.load(writeFusion(tmp(), { format: 'other' }))).toThrow(/not a premise-lsp-fusion v1 file/);
    expect(() => LearnedFusion.load(writeFusion(tmp(), { encoder_id: '' }))).toThrow(/encoder_id missing/);
    expect(() => LearnedFusion.load(writeFusion(tmp(), { extra: ['dense'] }))).toThrow(/features are not the ones this version computes/);
    expect(() => LearnedFusion.load(writeFusion(tmp(), { w: [1, 2, 3] }))).toThrow(/w and v must be finite numbers/);
    expect(() => LearnedFusion.load(writeFusion(tmp(), { v: [...zeros(5), null] }))).toThrow(/w and v must be finite numbers/);
    expect(() => LearnedFusion.load(writeFusion(tmp(), { u: [[1]] }))).toThrow(/u must be 5 rows of 6 finite numbers/);
  });
});

describe('the engine with a learned fusion', () => {
  it('fuses Lean queries in hybrid mode with it, text queries and set weights by hand', async () => {
    // a fusion that only counts the popularity prior: the most used premise comes first
    const priorOnly = LearnedFusion.load(writeFusion(tmp(), { w: [0, 0, 1, 0, 0] }));
    // the fusion's order alone: the goal match (goal-match.test.ts) would put add_comm, the goal itself, first
    const engine = (opts = {}) => new Engine([segmentOf(RECORDS)], { fusion: priorOnly, goalMatch: false, ...opts });
    const plain = new Engine([segmentOf(RECORDS)], { goalMatch: false });
    const state = 'a b : α\n⊢ a + b = b + a';
    const learned = await engine().search(state, { mode: 'hybrid', k: 7 });
    const hand = await plain.search(state, { mode: 'hybrid', k: 7 });
    expect(learned.map((h) => h.name)).not.toEqual(hand.map((h) => h.name));
    const uses = learned.map((h) => h.uses);
    expect(uses).toEqual([...uses].sort((a, b) => b - a));
    // text, BM25 mode and hand-set weights: the hand fusion
    expect(await engine().search('addition is commutative', { mode: 'hybrid', k: 7 })).toEqual(await plain.search('addition is commutative', { mode: 'hybrid', k: 7 }));
    expect(await engine().search(state, { mode: 'bm25', k: 7 })).toEqual(await plain.search(state, { mode: 'bm25', k: 7 }));
    const set = { weights: DEFAULT_WEIGHTS, goalMatch: false };
    expect(await engine(set).search(state, { mode: 'hybrid', k: 7 })).toEqual(await new Engine([segmentOf(RECORDS)], set).search(state, { mode: 'hybrid', k: 7 }));
  });
});

describe('the engine of a Lake project\'s automatic index', () => {
  it('fuses Lean queries with the project weights, not a learned fusion; text as any engine', async () => {
    const priorOnly = LearnedFusion.load(writeFusion(tmp(), { w: [0, 0, 1, 0, 0] }));
    const state = 'a b : α\n⊢ a + b = b + a';
    const project = new Engine([segmentOf(RECORDS)], { fusion: priorOnly, project: true });
    // the same as hand-set weights whose Lean-state weights are the project's
    const asSet = new Engine([segmentOf(RECORDS)], { weights: { ...DEFAULT_WEIGHTS, formal: DEFAULT_WEIGHTS.project } });
    const got = await project.search(state, { mode: 'hybrid', k: 7 });
    expect(got).toEqual(await asSet.search(state, { mode: 'hybrid', k: 7 }));
    expect(got.map((h) => h.score)).not.toEqual((await new Engine([segmentOf(RECORDS)], {}).search(state, { mode: 'hybrid', k: 7 })).map((h) => h.score));
    const plain = new Engine([segmentOf(RECORDS)], {});
    expect(await project.search('addition is commutative', { mode: 'hybrid', k: 7 })).toEqual(await plain.search('addition is commutative', { mode: 'hybrid', k: 7 }));
  });
});

describe('openEngine and fusion-data', () => {
  it('refuses a fusion trained on another encoder, and writes training pools', async () => {
    const dir = tmp();
    const source = 'theorem base (n : Nat) : n + 0 = n := rfl\n\ntheorem uses_base (n : Nat) : n + 0 + 0 = n := by rw [base, base]\n';
    const { idx, id } = await tinyIndex(dir, source);
    const opts = { defaultReranker: false, noTextTower: true };

    const own = await openEngine(idx, { ...opts, fusionDir: writeFusion(join(dir, 'own'), { encoder_id: id, w: [0, 0, 1, 0, 0] }) });
    expect((await own.search('n : Nat\n⊢ n + 0 = n', { k: 2 })).map((h) => h.name)).toEqual(['base', 'uses_base']);
    await own.dispose();
    const foreign = writeFusion(join(dir, 'foreign'), { encoder_id: 'some-other-encoder' });
    await expect(openEngine(idx, { ...opts, fusionDir: foreign })).rejects.toThrow(/trained on encoder some-other-encoder, but the index's vectors are from/);

    const records = join(dir, 'records.jsonl');
    writeFileSync(records, extractRecords(source, { lang: 'lean', rel: 'A.lean', module: 'A' }).map((r) => JSON.stringify(r)).join('\n') + '\n');
    const holdout = join(dir, 'holdout.txt');
    writeFileSync(holdout, '\n');
    const out = join(dir, 'pools.jsonl');
    expect(await fusionDataCommand(['--index', idx, '--records', records, '--out', out, '--holdout', holdout])).toBe(0);
    const [header, ...searches] = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(header).toMatchObject({ header: true, base: [...BASE_FEATURES], extra: [...EXTRA_FEATURES], query: [...QUERY_FEATURES] });
    expect(searches.length).toBeGreaterThanOrEqual(1);
    const s = searches[0];
    expect(s.name).toBe('uses_base');
    expect(s.query).toHaveLength(QUERY_FEATURES.length);
    // per candidate: the features, its uses, its label; the theorem itself is never a candidate
    expect(s.rows).toHaveLength(1);
    expect(s.rows[0]).toHaveLength(BASE_FEATURES.length + EXTRA_FEATURES.length + 2);
    expect(s.rows[0].at(-1)).toBe(1);

    // --ranker: the learned ranker's rows, as its stage computes them, each with its label
    const ranked = join(dir, 'ranker.jsonl');
    expect(await fusionDataCommand(['--index', idx, '--records', records, '--out', ranked, '--holdout', holdout, '--ranker'])).toBe(0);
    const [rh, ...rs] = readFileSync(ranked, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(rh).toMatchObject({ header: true, ranker: true, features: [...RANK_FEATURES], query: [...RANK_QUERY_FEATURES] });
    expect(rs[0]).toMatchObject({ name: 'uses_base', split: 'train' });
    expect(rs[0].rows).toHaveLength(1);
    expect(rs[0].rows[0]).toHaveLength(RANK_FEATURES.length + RANK_QUERY_FEATURES.length + 1);
    expect(rs[0].rows[0][RANK_FEATURES.indexOf('fused_rank')]).toBe(1);
    expect(rs[0].rows[0].at(-1)).toBe(1);
    await expect(fusionDataCommand(['--project', dir, '--out', ranked])).rejects.toThrow(/add --ranker/);
  }, 60_000);
});
