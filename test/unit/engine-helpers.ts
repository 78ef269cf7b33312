/** Helpers for engine tests: hand-made premises (no extractor involved), a stand-in encoder, a tiny built index. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIndex } from '../../indexes/src/build.js';
import type { PremiseRecord } from '../../indexes/src/extract/record.js';
import { loadEncoder, type Encoder } from '../../models/src/encoder.js';
import { toInfos } from '../../indexes/src/graph.js';
import { Segment } from '../../server/src/engine/segment.js';

const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };

export function rec(name: string, args: string[], goal: string, refs: string[] = [], doc?: string): PremiseRecord {
  return {
    name,
    kind: 'theorem',
    lang: 'lean',
    module: 'Test',
    file: 'Test.lean',
    range,
    args,
    goal,
    statement: `theorem ${name} ${args.join(' ')} : ${goal}`,
    refs,
    ...(doc ? { doc } : {}),
  };
}

export const RECORDS: PremiseRecord[] = [
  rec('add_comm', ['(a b : α)'], 'a + b = b + a', [], 'Addition is commutative.'),
  rec('mul_comm', ['(a b : α)'], 'a * b = b * a'),
  rec('le_refl', ['(a : α)'], 'a ≤ a'),
  rec('le_trans', ['(h₁ : a ≤ b)', '(h₂ : b ≤ c)'], 'a ≤ c', ['le_refl']),
  rec('abs_add', ['(a b : α)'], '|a + b| ≤ |a| + |b|', ['le_trans'], 'The triangle inequality.'),
  rec('Nat.succ_le_iff', ['{m n : ℕ}'], 'succ m ≤ n ↔ m < n', ['le_trans', 'le_refl']),
  rec('two_mul', ['(a : α)'], '2 * a = a + a', ['add_comm']),
];

/** An in-memory segment of records, with their proof references. */
export const segmentOf = (records: PremiseRecord[]) => Segment.fromInfos(toInfos(records), undefined, undefined, records.map((r) => r.refs));

/** A deterministic stand-in encoder (never loaded from disk): character codes folded into `dim` buckets, L2-normalised. */
export function fakeEncoder(id: string, dim = 4): Encoder {
  return {
    id,
    dim,
    embed: async (texts) =>
      texts.map((t) => {
        const v = new Float32Array(dim);
        for (let i = 0; i < t.length; i++) v[t.charCodeAt(i) % dim]! += 1;
        const n = Math.hypot(...v) || 1;
        return v.map((x) => x / n);
      }),
    dispose: async () => {},
  };
}

/** The tiny ONNX encoder of the test fixtures. */
export const TINY_ENCODER = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/tiny-encoder');

/** An index of one Lean file `src/A.lean` (`source`) under `dir`, built with the tiny encoder; its directory and encoder id and dimension. */
export async function tinyIndex(dir: string, source: string): Promise<{ src: string; idx: string; id: string; dim: number }> {
  const src = join(dir, 'src');
  mkdirSync(src, { recursive: true });
  writeFileSync(join(src, 'A.lean'), source);
  const idx = join(dir, 'idx');
  const enc = await loadEncoder(TINY_ENCODER);
  try {
    await buildIndex({ sources: [src], out: idx, encoder: enc, encoderDir: TINY_ENCODER, packages: false });
  } finally {
    await enc.dispose();
  }
  const { id, dim } = JSON.parse(readFileSync(join(idx, 'manifest.json'), 'utf8')).encoder;
  return { src, idx, id, dim };
}
