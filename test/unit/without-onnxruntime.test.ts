/**
 * onnxruntime-node is optional: with it missing (as after a global install where its
 * install script failed and npm dropped it), the shipped encoder and reranker still
 * load and run, and a model that does need it fails with one error that names the
 * model and says how to install the runtime.
 */
import { join, resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { loadEncoder } from '../../models/src/encoder.js';
import { loadCrossEncoder } from '../../models/src/cross-encoder.js';
import { FeatureReranker, defaultRerankerDir } from '../../server/src/engine/rerank-model.js';
import { parseQuery } from '../../server/src/engine/query.js';
import { toInfos } from '../../indexes/src/graph.js';
import { rec } from './engine-helpers.js';

vi.mock('onnxruntime-node', () => {
  throw new Error("Cannot find package 'onnxruntime-node' imported from dist/cli.js");
});

const ROOT = resolve(__dirname, '../..');
const TINY = join(ROOT, 'test/fixtures/tiny-encoder');

describe('without onnxruntime-node', () => {
  it('the shipped encoder embeds', async () => {
    const enc = await loadEncoder(join(ROOT, 'models/default'));
    try {
      const [v] = await enc.embed(['a b : ℕ\n⊢ a + b = b + a'], 'query');
      expect(v).toHaveLength(256);
      expect(Math.hypot(...v!)).toBeCloseTo(1, 5);
    } finally {
      await enc.dispose();
    }
  });

  it('the shipped reranker scores', async () => {
    const r = await FeatureReranker.load(defaultRerankerDir());
    const info = toInfos([rec('add_comm', ['(a b : α)'], 'a + b = b + a')])[0]!;
    const s = await r.score(parseQuery('a b : ℕ\n⊢ a + b = b + a'), [{ info, parts: { sparse: 1, prior: 0 }, score: 1 }]);
    expect(s).toHaveLength(1);
    expect(Number.isFinite(s[0])).toBe(true);
  });

  it('another ONNX encoder or a cross-encoder fails with one error naming the model and the install command', async () => {
    const want = /the ONNX model .*model\.onnx needs onnxruntime-node, which is not installed .*npm install -g onnxruntime-node --onnxruntime-node-install=skip/;
    await expect(loadEncoder(TINY)).rejects.toThrow(want);
    await expect(loadCrossEncoder(join(TINY, 'cross'))).rejects.toThrow(want);
  });
});
