import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { addDense, buildIndex } from '../../indexes/src/build.js';
import { DEFERRED_INFORMAL_FILE } from '../../indexes/src/deferred-informal.js';
import { readIndexDir } from '../../indexes/src/store/index-dir.js';
import { loadEncoder } from '../../models/src/encoder.js';

const FIXTURES = join(__dirname, '..', 'fixtures');
const TINY_ENCODER = join(FIXTURES, 'tiny-encoder');
const root = mkdtempSync(join(tmpdir(), 'premise-deferred-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// dense.usearch is left out: usearch builds its graph on several threads, not the same bytes twice
const FILES = ['premises.bin', 'sparse.bin', 'informal.bin', 'dense.bin'];
const bytes = (dir: string, files = FILES) => Object.fromEntries(files.map((f) => [f, createHash('sha1').update(readFileSync(join(dir, f))).digest('hex')]));

describe('the informal field deferred to the dense step', () => {
  const sources = [join(FIXTURES, 'lean'), join(FIXTURES, 'sample')];

  it('serves formal BM25 first, and the upgrade is the index of a plain sparse build upgraded', async () => {
    const plain = join(root, 'plain');
    const staged = join(root, 'staged');
    await buildIndex({ sources, out: plain });
    await buildIndex({ sources, out: staged, deferInformal: true });
    // the first index: the same premises and formal postings, an informal field with no terms
    expect(bytes(staged, ['premises.bin', 'sparse.bin'])).toEqual(bytes(plain, ['premises.bin', 'sparse.bin']));
    const first = readIndexDir(staged);
    expect(first.informal.arrays.vocab.size).toBe(0);
    expect(first.informal.docCount).toBe(first.premises.size);
    expect(readIndexDir(plain).informal.arrays.vocab.size).toBeGreaterThan(10);

    const encoder = await loadEncoder(TINY_ENCODER);
    try {
      const phases = new Set<string>();
      await addDense({ from: plain, out: join(root, 'plain-full'), encoder, encoderDir: TINY_ENCODER });
      await addDense({ from: staged, out: join(root, 'staged-full'), encoder, encoderDir: TINY_ENCODER, onProgress: (p) => phases.add(p.phase) });
      expect(bytes(join(root, 'staged-full'))).toEqual(bytes(join(root, 'plain-full')));
      expect(phases).toContain('informal');
      expect(readIndexDir(join(root, 'staged-full')).informal.arrays.vocab.size).toBeGreaterThan(10);
    } finally {
      await encoder.dispose();
    }
  });

  it('refuses a sidecar that does not fit the index', async () => {
    const staged = join(root, 'bad');
    await buildIndex({ sources, out: staged, deferInformal: true });
    const bad = Buffer.from(JSON.stringify({ format: 'premise-lsp-deferred-informal', version: 1, contexts: [], ids: [0] }));
    writeFileSync(join(staged, DEFERRED_INFORMAL_FILE), bad);
    const encoder = await loadEncoder(TINY_ENCODER);
    try {
      // replaced without the manifest: refused on its size
      await expect(addDense({ from: staged, out: join(root, 'bad-full'), encoder })).rejects.toThrow(/deferred-informal\.json: size \d+ bytes, manifest says/);
      // with the manifest made to list it: refused on what it says
      const m = JSON.parse(readFileSync(join(staged, 'manifest.json'), 'utf8'));
      m.files[DEFERRED_INFORMAL_FILE] = { bytes: bad.length, crc32: crc32(bad) };
      writeFileSync(join(staged, 'manifest.json'), JSON.stringify(m));
      await expect(addDense({ from: staged, out: join(root, 'bad-full'), encoder })).rejects.toThrow(/deferred-informal\.json: not the deferred informal field/);
    } finally {
      await encoder.dispose();
    }
  });
});
