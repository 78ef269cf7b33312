import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCrossEncoder } from '../../models/src/cross-encoder.js';
import { loadEncoder, loadOnnxEncoder, type Encoder } from '../../models/src/encoder.js';
import { ModelFileMissingError, ModelFormatError } from '../../models/src/errors.js';
import { loadTokenizer } from '../../models/src/tokenizer.js';

const FIXTURE = resolve(__dirname, '../fixtures/tiny-encoder');
const expected = JSON.parse(readFileSync(join(FIXTURE, 'expected.json'), 'utf8'));
const TEXTS: string[] = expected.texts;

function norm(v: Float32Array): number {
  return Math.sqrt(v.reduce((s, x) => s + x * x, 0));
}
function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}
/** A scratch model directory holding copies of the given fixture files. */
function scratch(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'enc-'));
  for (const [to, from] of Object.entries(files)) {
    mkdirSync(join(dir, to, '..'), { recursive: true });
    copyFileSync(join(FIXTURE, from), join(dir, to));
  }
  return dir;
}

describe('tiny encoder', () => {
  let enc: Encoder;
  beforeAll(async () => {
    enc = await loadEncoder(FIXTURE, { threads: 1, batchSize: 2 });
  });
  afterAll(() => enc.dispose());

  it('loads with dim 32 and a stable id', async () => {
    expect(enc.dim).toBe(32);
    expect(enc.id).toMatch(/^tiny-encoder-[0-9a-f]{12}$/);
    const again = await loadEncoder(FIXTURE, { threads: 1 });
    expect(again.id).toBe(enc.id);
    await again.dispose();
  });

  it('returns unit vectors', async () => {
    const vs = await enc.embed(TEXTS);
    expect(vs).toHaveLength(3);
    for (const v of vs) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(32);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    expect(await enc.embed([])).toEqual([]);
  });

  it('matches torch (expected.json, after L2 normalisation) within 1e-4', async () => {
    const vs = await enc.embed(TEXTS);
    vs.forEach((v, i) => expect(maxDiff(v, expected.normalized[i])).toBeLessThan(1e-4));
  });

  it('matches torch raw sentence_embedding (before normalisation) within 1e-4', async () => {
    const session = await ort.InferenceSession.create(join(FIXTURE, 'model.onnx'));
    const tok = await loadTokenizer(FIXTURE);
    const b = tok.encodeBatch(TEXTS);
    const dims = [b.batchSize, b.seqLength];
    const out = await session.run({
      input_ids: new ort.Tensor('int64', b.input_ids, dims),
      attention_mask: new ort.Tensor('int64', b.attention_mask, dims),
    });
    const data = out.sentence_embedding!.data as Float32Array;
    expected.raw.forEach((row: number[], i: number) =>
      expect(maxDiff(data.slice(i * 32, i * 32 + 32), row)).toBeLessThan(1e-4),
    );
    await session.release();
  });

  it('preserves batch order and gives the same vector alone or in a batch', async () => {
    const many = [TEXTS[2]!, 'x', TEXTS[0]!, 'a much longer text with many many words in it ' + TEXTS[1], TEXTS[1]!, 'x'];
    const batch = await enc.embed(many);
    for (let i = 0; i < many.length; i++) {
      const [alone] = await enc.embed([many[i]!]);
      expect(maxDiff(batch[i]!, alone!)).toBeLessThan(1e-5);
    }
    expect(maxDiff(batch[1]!, batch[5]!)).toBe(0);
  });

  it('serialises concurrent calls', async () => {
    const [a, b] = await Promise.all([enc.embed(TEXTS), enc.embed([...TEXTS].reverse())]);
    expect(maxDiff(a[0]!, b[2]!)).toBeLessThan(1e-6);
  });

  it("answers a short call before a long one that began first (the long one's tokenising and ONNX runs give way)", async () => {
    const long = Array.from({ length: 64 }, (_, i) => `${TEXTS[i % TEXTS.length]} ${'word '.repeat(1000)}`);
    const done: string[] = [];
    const a = enc.embed(long).then((v) => (done.push('long'), v));
    const b = enc.embed([TEXTS[0]!]).then((v) => (done.push('short'), v));
    const [va, vb] = await Promise.all([a, b]);
    expect(va).toHaveLength(64);
    expect(maxDiff(vb[0]!, (await enc.embed([TEXTS[0]!]))[0]!)).toBe(0);
    // before: all of the long call's texts were tokenised, then run, before the short call's
    expect(done).toEqual(['short', 'long']);
  });

  it('lets an embedding under way finish when disposed', async () => {
    const own = await loadEncoder(FIXTURE, { threads: 1, batchSize: 2 });
    const under = own.embed(Array.from({ length: 40 }, () => 'word '.repeat(1000)));
    await own.dispose();
    expect(await under).toHaveLength(40);
    await expect(own.embed(['x'])).rejects.toThrow(/disposed/);
  });

  it('applies query/document prefixes from premise_lsp.json', async () => {
    const dir = scratch({ 'model.onnx': 'model.onnx', 'tokenizer.json': 'tokenizer.json' });
    writeFileSync(join(dir, 'premise_lsp.json'), JSON.stringify({ query_prefix: 'query : ', document_prefix: '' }));
    const e = await loadEncoder(dir, { threads: 1 });
    const [q] = await e.embed(['a + b'], 'query');
    const [d] = await e.embed(['a + b'], 'document');
    const [manual] = await e.embed(['query : a + b'], 'document');
    expect(maxDiff(q!, manual!)).toBeLessThan(1e-6);
    expect(maxDiff(q!, d!)).toBeGreaterThan(1e-3);
    expect(e.id).not.toBe(enc.id);
    await e.dispose();
  });

  it('finds onnx/model.onnx and a model_file named in premise_lsp.json', async () => {
    const d1 = scratch({ 'onnx/model.onnx': 'model.onnx', 'tokenizer.json': 'tokenizer.json' });
    const e1 = await loadEncoder(d1, { threads: 1 });
    expect(e1.dim).toBe(32);
    await e1.dispose();
    const d2 = scratch({ 'weights/tiny.onnx': 'model.onnx', 'tokenizer.json': 'tokenizer.json' });
    writeFileSync(join(d2, 'premise_lsp.json'), JSON.stringify({ model_file: 'weights/tiny.onnx' }));
    const e2 = await loadEncoder(d2, { threads: 1 });
    const [v] = await e2.embed([TEXTS[0]!]);
    expect(maxDiff(v!, expected.normalized[0])).toBeLessThan(1e-4);
    await e2.dispose();
  });

  it('truncates to max_length', async () => {
    const e = await loadOnnxEncoder(FIXTURE, { threads: 1, maxLength: 6 });
    expect(e.maxLength).toBe(6);
    const [a, b] = await e.embed(['a b c d', 'a b c d e f g h']);
    expect(maxDiff(a!, b!)).toBeLessThan(1e-6);
    await e.dispose();
  });
});

describe('BERT-shaped encoder (last_hidden_state + pooling)', () => {
  const hidden = JSON.parse(readFileSync(join(FIXTURE, 'hidden/expected.json'), 'utf8'));

  it('mean-pools with the mask and feeds token_type_ids', async () => {
    const dir = scratch({ 'model.onnx': 'hidden/model.onnx', 'tokenizer.json': 'hidden/tokenizer.json' });
    const e = await loadOnnxEncoder(dir, { threads: 1 });
    expect(e.pooling).toBe('mean');
    expect(e.output).toBe('last_hidden_state');
    expect(e.dim).toBe(32);
    const vs = await e.embed([...TEXTS, 'padding makes this row much longer than the others']);
    TEXTS.forEach((_, i) => expect(maxDiff(vs[i]!, hidden.mean[i])).toBeLessThan(1e-4));
    await e.dispose();
  });

  it('takes CLS when pooling is "cls"', async () => {
    const dir = scratch({ 'model.onnx': 'hidden/model.onnx', 'tokenizer.json': 'hidden/tokenizer.json' });
    writeFileSync(join(dir, 'premise_lsp.json'), JSON.stringify({ pooling: 'cls' }));
    const e = await loadEncoder(dir, { threads: 1 });
    const vs = await e.embed(TEXTS);
    TEXTS.forEach((_, i) => expect(maxDiff(vs[i]!, hidden.cls[i])).toBeLessThan(1e-4));
    await e.dispose();
  });

  it('uses the fixture prefixes ("query: " / "passage: ")', async () => {
    const e = await loadOnnxEncoder(join(FIXTURE, 'hidden'), { threads: 1 });
    expect(e.prepare('x', 'query')).toBe('query: x');
    expect(e.prepare('x', 'document')).toBe('passage: x');
    expect(e.maxLength).toBe(64);
    const [q] = await e.embed([TEXTS[0]!], 'query');
    expect(maxDiff(q!, hidden.mean[0])).toBeGreaterThan(1e-3);
    await e.dispose();
  });
});

describe('cross-encoder', () => {
  const cross = JSON.parse(readFileSync(join(FIXTURE, 'cross/expected.json'), 'utf8'));

  it('scores pairs like torch, in order', async () => {
    const ce = await loadCrossEncoder(join(FIXTURE, 'cross'), { threads: 1, batchSize: 2 });
    const pairs: [string, string][] = cross.pairs;
    // pairs 0 and 1 share the query
    const s = await ce.score(pairs[0]![0], [pairs[1]![1], pairs[0]![1]]);
    expect(s).toBeInstanceOf(Float32Array);
    expect(Math.abs(s[0]! - cross.logits[1])).toBeLessThan(1e-4);
    expect(Math.abs(s[1]! - cross.logits[0])).toBeLessThan(1e-4);
    const s2 = await ce.score(pairs[2]![0], [pairs[2]![1]]);
    expect(Math.abs(s2[0]! - cross.logits[2])).toBeLessThan(1e-4);
    expect(await ce.score('q', [])).toHaveLength(0);
    await ce.dispose();
  });

  it('token ids match make_tiny.py', async () => {
    const tok = await loadTokenizer(join(FIXTURE, 'cross'));
    cross.pairs.forEach(([q, d]: [string, string], i: number) => {
      const e = tok.encode(q, d);
      expect(e.ids).toEqual(cross.input_ids[i]);
      expect(e.typeIds).toEqual(cross.token_type_ids[i]);
    });
  });
});

describe('errors name the file', () => {
  it('missing model.onnx', async () => {
    const dir = scratch({ 'tokenizer.json': 'tokenizer.json' });
    const p = loadEncoder(dir);
    await expect(p).rejects.toThrow(ModelFileMissingError);
    await expect(loadEncoder(dir)).rejects.toThrow(join(dir, 'model.onnx'));
  });

  it('missing model_file named in premise_lsp.json', async () => {
    const dir = scratch({ 'tokenizer.json': 'tokenizer.json' });
    writeFileSync(join(dir, 'premise_lsp.json'), JSON.stringify({ model_file: 'onnx/model_q.onnx' }));
    await expect(loadEncoder(dir)).rejects.toThrow(join(dir, 'onnx/model_q.onnx'));
  });

  it('corrupt model.onnx', async () => {
    const dir = scratch({ 'tokenizer.json': 'tokenizer.json' });
    writeFileSync(join(dir, 'model.onnx'), 'this is not a protobuf');
    await expect(loadEncoder(dir)).rejects.toThrow(ModelFormatError);
    await expect(loadEncoder(dir)).rejects.toThrow(`cannot load ONNX model ${join(dir, 'model.onnx')}`);
    // truncated real model
    writeFileSync(join(dir, 'model.onnx'), readFileSync(join(FIXTURE, 'model.onnx')).subarray(0, 5000));
    await expect(loadCrossEncoder(dir)).rejects.toThrow(join(dir, 'model.onnx'));
  });

  it('missing directory, missing tokenizer.json, bad premise_lsp.json', async () => {
    await expect(loadEncoder('/nonexistent/model-dir')).rejects.toThrow('/nonexistent/model-dir');
    const dir = scratch({ 'model.onnx': 'model.onnx' });
    await expect(loadEncoder(dir)).rejects.toThrow(join(dir, 'tokenizer.json'));
    copyFileSync(join(FIXTURE, 'tokenizer.json'), join(dir, 'tokenizer.json'));
    writeFileSync(join(dir, 'premise_lsp.json'), JSON.stringify({ pooling: 'max' }));
    await expect(loadEncoder(dir)).rejects.toThrow(/premise_lsp\.json: "pooling"/);
    writeFileSync(join(dir, 'premise_lsp.json'), JSON.stringify({ output: 'pooler_output' }));
    await expect(loadEncoder(dir)).rejects.toThrow(/no output "pooler_output"/);
  });

  it('pooling "none" on a [B,T,D] output', async () => {
    const dir = scratch({ 'model.onnx': 'hidden/model.onnx', 'tokenizer.json': 'tokenizer.json' });
    writeFileSync(join(dir, 'premise_lsp.json'), JSON.stringify({ pooling: 'none' }));
    await expect(loadEncoder(dir)).rejects.toThrow(/pooling is "none"/);
  });
});
