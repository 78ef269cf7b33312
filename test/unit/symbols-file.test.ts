/**
 * The symbol sets stored at index time (indexes/src/store/symbols-file.ts; issue 30 item 3):
 * listed in the manifest and checked like every index file, equal to the sets built from the
 * premises, an index without them still opened (built on first use), and the overlay's built on upsert.
 */
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { proofGraph, toInfos } from '../../indexes/src/graph.js';
import { buildSparseFields } from '../../indexes/src/sparse/fields.js';
import { readIndexDir, readManifest, writeIndexDir } from '../../indexes/src/store/index-dir.js';
import { SymbolSets } from '../../indexes/src/symbol-sets.js';
import { Engine } from '../../server/src/engine/engine.js';
import { Segment } from '../../server/src/engine/segment.js';
import { rec, RECORDS } from './engine-helpers.js';

const root = mkdtempSync(join(tmpdir(), 'premise-symbols-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const CORPUS = [...RECORDS, rec('Real.sqrt_mul_self', ['(x : ℝ)', '(h : 0 ≤ x)'], '√x * √x = x'), rec('Nat.succ_le', ['(n m : ℕ)'], 'n.succ ≤ m ↔ n < m')];

async function build(name: string): Promise<string> {
  const dir = join(root, name);
  const infos = toInfos(CORPUS);
  await writeIndexDir(dir, { infos, graph: proofGraph(CORPUS), ...buildSparseFields(infos), sources: ['test'], stats: {} });
  return dir;
}

/** Each premise's symbols as strings, sorted. */
const bySymbol = (s: SymbolSets, n: number) => Array.from({ length: n }, (_, d) => Array.from(s.symbols(d), (t) => s.symbol(t)).sort());

describe('stored symbol sets', () => {
  it('are written at index time, listed in the manifest with size and CRC, and read back as built', async () => {
    const dir = await build('ok');
    const m = readManifest(dir);
    expect(m.files['symbols.bin']).toMatchObject({ bytes: expect.any(Number), crc32: expect.any(Number) });
    const parts = readIndexDir(dir);
    expect(parts.symbols).toBeDefined();
    const infos = toInfos(CORPUS);
    const built = SymbolSets.build({ size: infos.length, scan: () => infos });
    expect(bySymbol(parts.symbols!, CORPUS.length)).toEqual(bySymbol(built, CORPUS.length));
    const sqrt = parts.symbols!.ids(['√'])[0]!;
    expect(Array.from(parts.symbols!.postings(sqrt), (d) => parts.premises.name(d))).toEqual(['Real.sqrt_mul_self']);
    // the segment uses the stored sets: the same object, nothing built
    expect(Segment.fromIndex(parts).symbols).toBe(parts.symbols);
  });

  it('are checked like every index file: a corrupt or truncated one is named', async () => {
    const flip = await build('flip');
    const path = join(flip, 'symbols.bin');
    const buf = readFileSync(path);
    buf[buf.length >> 1] ^= 0xff;
    writeFileSync(path, buf);
    expect(() => readIndexDir(flip)).toThrow(/symbols\.bin.*checksum/);
    const trunc = await build('trunc');
    truncateSync(join(trunc, 'symbols.bin'), 10);
    expect(() => readIndexDir(trunc)).toThrow(/symbols\.bin/);
  });

  it('are optional: an index built before them opens, and builds them on first use', async () => {
    const dir = await build('old');
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    delete m.files['symbols.bin'];
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m));
    rmSync(join(dir, 'symbols.bin'));
    const parts = readIndexDir(dir);
    expect(parts.symbols).toBeUndefined();
    const e = new Engine([Segment.fromIndex(parts)]);
    const hits = await e.search('Real.sqrt ?a * Real.sqrt ?a', { k: 3, mode: 'bm25' });
    expect(hits[0]!.name).toBe('Real.sqrt_mul_self');
  });

  it('answer pattern searches from the stored sets', async () => {
    const e = new Engine([Segment.fromIndex(readIndexDir(await build('search')))]);
    expect((await e.search('Real.sqrt ?a * Real.sqrt ?a', { k: 3, mode: 'bm25' }))[0]!.name).toBe('Real.sqrt_mul_self');
    expect((await e.search('_.succ ≤ _', { k: 3, mode: 'bm25' }))[0]!.name).toBe('Nat.succ_le');
  });

  it('are built for the overlay on upsert, before any search asks', async () => {
    const e = new Engine([Segment.fromIndex(readIndexDir(await build('overlay')))]);
    await e.upsert([rec('Mine.sqrt_twice', ['(y : ℝ)'], '√y * √y = |y|')]);
    const overlay = (e as unknown as { overlay: Segment }).overlay;
    expect((overlay as unknown as { symbolSets?: SymbolSets }).symbolSets).toBeDefined();
    const hits = await e.search('Real.sqrt ?a * Real.sqrt ?a', { k: 5, mode: 'bm25' });
    expect(hits.filter((h) => h.parts.pattern).map((h) => h.name).sort()).toEqual(['Mine.sqrt_twice', 'Real.sqrt_mul_self']);
  });
});
