// Parity of the shipped default encoder: the JS tokenizer must reproduce the token ids the
// training recipe used, and the ONNX graph must reproduce torch's output vectors (1e-4).
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { Tokenizer } from '@huggingface/tokenizers';
import { loadEncoder } from '../../models/src/encoder.js';
import { loadBagSession } from '../../models/src/bag-session.js';
import { createSession } from '../../models/src/onnx-session.js';

const dir = path.resolve(__dirname, '../../models/default');
const read = (f: string) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));

interface ParityCase {
  text: string;
  ids: number[];
  embedding: number[];
}
const parity: { max_length: number; tolerance: number; cases: ParityCase[] } = read('parity.json');

function loadTokenizer(): Tokenizer {
  return new Tokenizer(read('tokenizer.json'), read('tokenizer_config.json'));
}

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

describe('models/default', () => {
  it('ships the expected files and settings', () => {
    for (const f of ['model.onnx', 'tokenizer.json', 'tokenizer_config.json', 'premise_lsp.json', 'config.json', 'parity.json', 'MODEL_CARD.md']) {
      expect(fs.existsSync(path.join(dir, f)), f).toBe(true);
    }
    const pl = read('premise_lsp.json');
    expect(pl).toMatchObject({ pooling: 'none', output: 'sentence_embedding', max_length: 256 });
    expect(pl.premise_text).toEqual({ args: 'name+args', goal: 'goal' });
    let total = 0;
    for (const f of fs.readdirSync(dir)) total += fs.statSync(path.join(dir, f)).size;
    expect(total).toBeLessThan(50 * 1024 * 1024);
  });

  it('JS tokenizer reproduces the training token ids', () => {
    const tok = loadTokenizer();
    for (const c of parity.cases) {
      expect(tok.encode(c.text).ids.slice(0, parity.max_length)).toEqual(c.ids);
    }
  });

  it('keeps Lean/Unicode math symbols as their own known tokens (no [UNK])', () => {
    const tok = loadTokenizer();
    const unk = read('tokenizer.json').model.vocab['[UNK]'];
    const text = 'ℕ ℝ ℤ ℚ ℂ ∀ ∃ ⊢ → ↔ ≤ ≥ ≠ ∑ ∏ ⁻¹ ⟹ ⟦ ⟧ ⟨ ⟩ ∘ ∈ ∉ ⊆ ∩ ∪ ‖ ⌊ ⌋ ≃ ≅ ⥤ ⟶ ≫ 𝓝 ∫ ∂ ∞ α β ε δ inst✝¹';
    const enc = tok.encode(text);
    expect(enc.ids).not.toContain(unk);
    expect(enc.tokens).toEqual(expect.arrayContaining(['ℕ', '⊢', '↔', '∑', '⁻', '¹', '⟦', '𝓝', '✝']));
    // identifiers split on `.`, `_`, camelCase and digits
    expect(tok.encode('Nat.add_comm').tokens).toEqual(['Nat', '.', 'add', '_', 'comm']);
    expect(tok.encode('continuousAt_id2').tokens).toEqual(['continuous', 'At', '_', 'id', '2']);
  });

  it('ONNX output equals the torch output (single and padded batch)', async () => {
    const session = await ort.InferenceSession.create(path.join(dir, 'model.onnx'));
    expect(session.inputNames).toEqual(expect.arrayContaining(['input_ids', 'attention_mask']));
    expect(session.outputNames).toContain('sentence_embedding');
    const tol = parity.tolerance ?? 1e-4;
    for (const c of parity.cases) {
      const n = c.ids.length;
      const ids = new ort.Tensor('int64', BigInt64Array.from(c.ids.map(BigInt)), [1, n]);
      const mask = new ort.Tensor('int64', new BigInt64Array(n).fill(1n), [1, n]);
      const out = await session.run({ input_ids: ids, attention_mask: mask });
      const v = out.sentence_embedding.data as Float32Array;
      expect(v.length).toBe(c.embedding.length);
      expect(maxAbsDiff(v, c.embedding)).toBeLessThan(tol);
    }
    // padded batch
    const L = Math.max(...parity.cases.map((c) => c.ids.length));
    const B = parity.cases.length;
    const ids = new BigInt64Array(B * L);
    const mask = new BigInt64Array(B * L);
    parity.cases.forEach((c, b) => c.ids.forEach((id, i) => { ids[b * L + i] = BigInt(id); mask[b * L + i] = 1n; }));
    const out = await session.run({
      input_ids: new ort.Tensor('int64', ids, [B, L]),
      attention_mask: new ort.Tensor('int64', mask, [B, L]),
    });
    const data = out.sentence_embedding.data as Float32Array;
    const D = parity.cases[0].embedding.length;
    expect(out.sentence_embedding.dims).toEqual([B, D]);
    parity.cases.forEach((c, b) => expect(maxAbsDiff(data.subarray(b * D, (b + 1) * D), c.embedding)).toBeLessThan(tol));
  });

  it('loadEncoder(models/default) gives the L2-normalised torch vectors', async () => {
    const enc = await loadEncoder(dir);
    try {
      const got = await enc.embed(parity.cases.map((c) => c.text), 'query');
      expect(enc.dim).toBe(parity.cases[0].embedding.length);
      parity.cases.forEach((c, i) => {
        const n = Math.hypot(...c.embedding);
        expect(maxAbsDiff(got[i], c.embedding.map((x) => x / n))).toBeLessThan(1e-4);
      });
    } finally {
      await enc.dispose();
    }
  });

  it('runs in plain TypeScript, equal to onnxruntime on the torch vectors and on a padded batch', async () => {
    const file = path.join(dir, 'model.onnx');
    const plain = loadBagSession(file);
    const ort = await createSession(file, { threads: 1 });
    const tol = parity.tolerance ?? 1e-4;
    try {
      const L = Math.max(...parity.cases.map((c) => c.ids.length));
      const B = parity.cases.length;
      const ids = new BigInt64Array(B * L);
      const mask = new BigInt64Array(B * L);
      parity.cases.forEach((c, b) => c.ids.forEach((id, i) => { ids[b * L + i] = BigInt(id); mask[b * L + i] = 1n; }));
      const batch = { input_ids: ids, attention_mask: mask, token_type_ids: new BigInt64Array(B * L), batchSize: B, seqLength: L };
      const mine = (await plain.run(batch, ['sentence_embedding'])).sentence_embedding!;
      const theirs = (await ort.run(batch, ['sentence_embedding'])).sentence_embedding!;
      expect(mine.dims).toEqual(theirs.dims);
      const D = parity.cases[0].embedding.length;
      const data = mine.data as Float32Array;
      parity.cases.forEach((c, b) => expect(maxAbsDiff(data.subarray(b * D, (b + 1) * D), c.embedding)).toBeLessThan(tol));
      expect(maxAbsDiff(data, theirs.data as Float32Array)).toBeLessThan(1e-5);
    } finally {
      await ort.release();
    }
  });

  it('the encoder of models/default runs without onnxruntime and keeps its content id', async () => {
    const enc = await loadEncoder(dir);
    try {
      expect((enc as unknown as { modelFile: string }).modelFile).toBe(path.join(dir, 'model.onnx'));
      expect(enc.id).toMatch(/^default-[0-9a-f]{12}$/);
    } finally {
      await enc.dispose();
    }
  });

  it('refuses a graph that is not the bag-of-tokens encoder, naming the file', () => {
    const other = path.resolve(__dirname, '../fixtures/tiny-encoder/model.onnx');
    expect(() => loadBagSession(other)).toThrow(`ONNX model ${other} is not a premise-lsp-bag-encoder graph`);
  });
});
