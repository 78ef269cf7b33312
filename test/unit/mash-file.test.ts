/**
 * mash.bin, the usage model fitted at index time (indexes/src/store/mash-file.ts): written by
 * a build of the sample, listed in the manifest, read back into the segment and used by the
 * `mash` generator when its weight is set; a corrupt or inconsistent one is an error naming it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexes/src/build.js';
import { readIndexDir, readManifest } from '../../indexes/src/store/index-dir.js';
import { MASH_FILE, writeMashFile } from '../../indexes/src/store/mash-file.js';
import { Engine } from '../../server/src/engine/engine.js';
import { DEFAULT_WEIGHTS, type StyleWeights } from '../../server/src/engine/fusion.js';
import { Segment } from '../../server/src/engine/segment.js';
import type { PoolEntry } from '../../server/src/engine/types.js';

const SAMPLE = join(__dirname, '..', 'fixtures', 'sample');

async function sampleIndex(): Promise<string> {
  const out = join(mkdtempSync(join(tmpdir(), 'premise-mash-')), 'idx');
  await buildIndex({ sources: [SAMPLE], out });
  return out;
}

const withMash = (mash: number): StyleWeights => ({ ...DEFAULT_WEIGHTS, formal: { ...DEFAULT_WEIGHTS.formal, mash } });

describe('mash.bin', () => {
  it('is written by a build, listed in the manifest, and read into the segment', async () => {
    const dir = await sampleIndex();
    expect(readManifest(dir).files[MASH_FILE]).toMatchObject({ bytes: readFileSync(join(dir, MASH_FILE)).length, crc32: expect.any(Number) });
    const parts = readIndexDir(dir);
    expect(parts.mash!.t.length).toBe(parts.premises.size);
    expect(parts.mash!.offsets.length).toBe(parts.sparse.arrays.vocab.size + 1);
    // mul_assoc is used by proofs in the sample: t > 1
    expect(parts.mash!.t[parts.premises.id('Sample.mul_assoc')!]).toBeGreaterThan(1);
    const seg = Segment.fromIndex(parts);
    expect(seg.mash).toBe(parts.mash);
    // the generator runs only with its weight set, and proposes what the proofs use
    const e = new Engine([seg], { weights: withMash(1) });
    const pool: PoolEntry[] = [];
    const hits = await e.search('(a b c : M) ⊢ a * b * c = a * c * b', { k: 20, mode: 'hybrid', onPool: (p) => pool.push(...p) });
    const assoc = hits.find((h) => h.name === 'Sample.mul_assoc');
    expect(assoc?.parts.mash).toBeDefined();
    expect(pool.some((c) => c.via.includes('mash'))).toBe(true);
    const offPool: PoolEntry[] = [];
    const off = await new Engine([Segment.fromIndex(readIndexDir(dir))]).search('(a b c : M) ⊢ a * b * c = a * c * b', { k: 20, mode: 'hybrid', onPool: (p) => offPool.push(...p) });
    expect(off.every((h) => h.parts.mash === undefined)).toBe(true);
    expect(offPool.length).toBeGreaterThan(0);
    expect(offPool.some((c) => c.via.includes('mash'))).toBe(false);
    // the theorem being proved is no evidence: excluding mul_right_comm (whose proof uses mul_assoc) lowers mul_assoc's score
    const ex = await e.search('(a b c : M) ⊢ a * b * c = a * c * b', { k: 20, mode: 'hybrid', exclude: ['Sample.mul_right_comm'] });
    expect(ex.find((h) => h.name === 'Sample.mul_assoc')!.parts.mash!).toBeLessThan(assoc!.parts.mash!);
  });

  it('a corrupt or inconsistent one is an error naming it', async () => {
    const dir = await sampleIndex();
    const path = join(dir, MASH_FILE);
    const buf = readFileSync(path);
    buf[buf.length >> 1] ^= 0xff;
    writeFileSync(path, buf);
    expect(() => readIndexDir(dir)).toThrow(/mash\.bin.*checksum/);
    // a well-formed file for another index: listed size and CRC made to match, structure checked
    const other = await sampleIndex();
    const m = readIndexDir(other).mash!;
    writeMashFile(other, { ...m, t: m.t.subarray(1) });
    const manifest = JSON.parse(readFileSync(join(other, 'manifest.json'), 'utf8'));
    const { fileCrc32 } = await import('../../indexes/src/store/container.js');
    manifest.files[MASH_FILE] = { bytes: readFileSync(path.replace(dir, other)).length, crc32: fileCrc32(join(other, MASH_FILE)) };
    writeFileSync(join(other, 'manifest.json'), JSON.stringify(manifest));
    expect(() => readIndexDir(other)).toThrow(/mash\.bin: use counts for \d+ premises, the index has \d+/);
  });
});
