import { buildSparseFields } from '../../indexes/src/sparse/fields.js';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proofGraph, toInfos } from '../../indexes/src/graph.js';
import { Bm25Index } from '../../indexes/src/sparse/bm25.js';
import { terms } from '../../indexes/src/sparse/terms.js';
import { sparseText } from '../../indexes/src/premise-text.js';
import { writeIndexDir } from '../../indexes/src/store/index-dir.js';
import { Engine } from '../../server/src/engine/engine.js';
import type { RerankInput } from '../../server/src/engine/rerank.js';
import { openEngine } from '../../server/src/engine/open.js';
import { parseQuery } from '../../server/src/engine/query.js';
import { FEATURE_COUNT } from '../../server/src/engine/rerank-features.js';
import { defaultRerankerDir, FeatureReranker, type RerankerSpec } from '../../server/src/engine/rerank-model.js';
import { Segment } from '../../server/src/engine/segment.js';
import { rec, RECORDS } from './engine-helpers.js';
import * as ort from 'onnxruntime-node';
import { loadMlp } from '../../models/src/onnx-mlp.js';

const root = mkdtempSync(join(tmpdir(), 'premise-rerank-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const shipped = defaultRerankerDir();
let reranker: FeatureReranker;
beforeAll(async () => {
  reranker = await FeatureReranker.load(shipped);
});

function cand(name: string, args: string[], goal: string, score: number, kind = 'theorem', dense?: number): RerankInput {
  const info = { ...toInfos([rec(name, args, goal)])[0]!, kind } as RerankInput['info'];
  return { info, parts: { sparse: score, prior: 0, ...(dense === undefined ? {} : { dense }) }, score };
}

/** A copy of the shipped reranker directory with one file replaced. */
function variant(name: string, file: string, content: string | Buffer): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  for (const f of ['reranker.json', 'model.onnx']) copyFileSync(join(shipped, f), join(dir, f));
  writeFileSync(join(dir, file), content);
  return dir;
}

describe('FeatureReranker (shipped model)', () => {
  it('lists the features this version computes', () => {
    const spec = JSON.parse(readFileSync(join(shipped, 'reranker.json'), 'utf8')) as RerankerSpec;
    expect(spec.features).toHaveLength(FEATURE_COUNT);
    expect(typeof spec.default).toBe('boolean');
    expect(reranker.byDefault).toBe(spec.default);
  });

  it('scores deterministically, one score per candidate', async () => {
    const q = parseQuery('a b : ℕ\n⊢ a + b = b + a');
    const pool = [cand('le_trans', ['(h₁ : a ≤ b)', '(h₂ : b ≤ c)'], 'a ≤ c', 3), cand('add_comm', ['(a b : α)'], 'a + b = b + a', 2)];
    const a = await reranker.score(q, pool);
    const b = await reranker.score(q, pool);
    expect(a).toHaveLength(2);
    expect(Array.from(a)).toEqual(Array.from(b));
    expect(Array.from(a).every(Number.isFinite)).toBe(true);
    expect((await reranker.score(q, [])).length).toBe(0);
  });

  it('promotes the premise that matches the goal over a higher-scored unrelated one', async () => {
    const q = parseQuery('α : Type u_1\ninst✝ : AddCommMonoid α\na b : α\n⊢ a + b = b + a');
    const pool = [
      // the reranker was trained on a hybrid first stage: both candidates carry dense scores
      cand('Set.Finite.instFintype', ['(s : Set α)', '(hs : s.Finite)'], 'Fintype s', 1.0, 'instance', 0.2),
      cand('add_comm', ['{G : Type*}', '[AddCommMonoid G]', '(a b : G)'], 'a + b = b + a', 0.97, 'theorem', 0.9),
    ];
    const s = await reranker.score(q, pool);
    expect(s[1]).toBeGreaterThan(s[0]!);
  });

  it('keeps the first-stage order for query styles it was not trained for', async () => {
    const spec = JSON.parse(readFileSync(join(shipped, 'reranker.json'), 'utf8')) as RerankerSpec;
    const dir = variant('styles', 'reranker.json', JSON.stringify({ ...spec, styles: ['lean-state'] }));
    const r = await FeatureReranker.load(dir);
    const pool = [cand('le_trans', ['(h₁ : a ≤ b)', '(h₂ : b ≤ c)'], 'a ≤ c', 3), cand('add_comm', ['(a b : α)'], 'a + b = b + a', 2)];
    const text = parseQuery('addition is commutative');
    expect(text.style).toBe('text');
    expect(Array.from(await r.score(text, pool))).toEqual([3, 2]);
    const state = parseQuery('a b : ℕ\n⊢ a + b = b + a');
    expect(Array.from(await r.score(state, pool))).toEqual(Array.from(await reranker.score(state, pool)));
    expect(Array.from(await r.score(state, pool))).not.toEqual([3, 2]);
  });

  it('reorders the engine top by its scores', async () => {
    const plain = new Engine([Segment.fromInfos(toInfos(RECORDS))]);
    const engine = new Engine([Segment.fromInfos(toInfos(RECORDS))], { reranker });
    const query = 'x y : ℕ\n⊢ x ≤ y → y ≤ z → x ≤ z';
    const first = await plain.search(query, { k: 10 });
    const hits = await engine.search(query, { k: 10, rerank: true });
    expect(new Set(hits.map((h) => h.name))).toEqual(new Set(first.map((h) => h.name)));
    for (const h of hits) expect(h.parts.rerank).toBe(h.score);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
    const again = await new Engine([Segment.fromInfos(toInfos(RECORDS))], { reranker }).search(query, { k: 10, rerank: true });
    expect(again.map((h) => h.name)).toEqual(hits.map((h) => h.name));
  });

  it('reranks when a search does not say only if the reranker is on by default', async () => {
    const query = 'x y : ℕ\n⊢ x ≤ y → y ≤ z → x ≤ z';
    const on = new Engine([Segment.fromInfos(toInfos(RECORDS))], { reranker, rerankByDefault: true });
    expect((await on.search(query))[0]!.parts.rerank).toBeDefined();
    expect((await on.search(query, { rerank: false }))[0]!.parts.rerank).toBeUndefined();
    const off = new Engine([Segment.fromInfos(toInfos(RECORDS))], { reranker });
    expect((await off.search(query))[0]!.parts.rerank).toBeUndefined();
  });
});

describe('the shipped reranker without onnxruntime', () => {
  it('scores as onnxruntime does, to 1e-5', async () => {
    const file = join(shipped, 'model.onnx');
    const n = 50;
    // standardised features: a fixed pseudo-random spread around 0
    const x = Float32Array.from({ length: n * FEATURE_COUNT }, (_, i) => Math.sin(i * 12.9898) * 2.5);
    const mine = loadMlp(file).run(x, n);
    const session = await ort.InferenceSession.create(file);
    try {
      const out = await session.run({ features: new ort.Tensor('float32', x, [n, FEATURE_COUNT]) });
      const theirs = out.scores!.data as Float32Array;
      expect(mine).toHaveLength(n);
      for (let i = 0; i < n; i++) expect(Math.abs(mine[i]! - theirs[i]!)).toBeLessThan(1e-5);
    } finally {
      await session.release();
    }
  });

  it('refuses a graph it does not evaluate, naming the file', () => {
    const tiny = join(__dirname, '../fixtures/tiny-encoder/model.onnx');
    expect(() => loadMlp(tiny)).toThrow(`ONNX model ${tiny}: expected one input and one output`);
  });
});

describe('FeatureReranker errors name the file', () => {
  it('missing reranker.json', async () => {
    const dir = join(root, 'empty');
    mkdirSync(dir, { recursive: true });
    await expect(FeatureReranker.load(dir)).rejects.toThrow(`reranker file missing: ${join(dir, 'reranker.json')}`);
  });

  it('corrupt reranker.json', async () => {
    const dir = variant('badjson', 'reranker.json', '{"format": "premise-lsp-reranker", ');
    await expect(FeatureReranker.load(dir)).rejects.toThrow(`corrupt reranker file ${join(dir, 'reranker.json')}`);
  });

  it('a feature list this version does not compute', async () => {
    const spec = JSON.parse(readFileSync(join(shipped, 'reranker.json'), 'utf8')) as RerankerSpec;
    const dir = variant('features', 'reranker.json', JSON.stringify({ ...spec, features: [...spec.features].reverse() }));
    await expect(FeatureReranker.load(dir)).rejects.toThrow(/reranker\.json.*feature list does not match/);
  });

  it('missing model.onnx', async () => {
    const dir = variant('noonnx', 'model.onnx', '');
    rmSync(join(dir, 'model.onnx'));
    await expect(FeatureReranker.load(dir)).rejects.toThrow(`reranker file missing: ${join(dir, 'model.onnx')}`);
  });

  it('corrupt model.onnx', async () => {
    const dir = variant('badonnx', 'model.onnx', Buffer.from('not an onnx graph at all'));
    await expect(FeatureReranker.load(dir)).rejects.toThrow(`corrupt reranker file ${join(dir, 'model.onnx')}`);
  });
});

describe('openEngine', () => {
  it('loads the shipped reranker and says whether it reranks by default', async () => {
    const dir = join(root, 'index');
    const infos = toInfos(RECORDS);
    await writeIndexDir(dir, { infos, graph: proofGraph(RECORDS), ...buildSparseFields(infos), sources: ['test'], stats: {} });
    const engine = await openEngine(dir);
    expect(engine.hasReranker).toBe(true);
    expect(engine.rerankByDefault).toBe(reranker.byDefault);
    expect((await engine.search('⊢ a ≤ c', { rerank: true }))[0]!.parts.rerank).toBeDefined();
    const without = await openEngine(dir, { defaultReranker: false });
    expect(without.hasReranker).toBe(false);
    expect(without.rerankByDefault).toBe(false);
    // an explicit feature-reranker directory is loaded as one, not as a cross-encoder
    const broken = variant('explicit', 'model.onnx', Buffer.from('junk'));
    await expect(openEngine(dir, { rerankerDir: broken })).rejects.toThrow(join(broken, 'model.onnx'));
  });
});
