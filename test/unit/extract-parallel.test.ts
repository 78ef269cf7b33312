import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractCorpus } from '../../indexes/src/build.js';
import { extractionThreads } from '../../indexes/src/extract/parallel.js';
import { sparseText } from '../../indexes/src/premise-text.js';
import { terms } from '../../indexes/src/sparse/terms.js';

// the worker script is the bundled one: `npm test` builds dist/ first
const script = join(__dirname, '..', '..', 'dist', 'extract-worker.js');
const root = mkdtempSync(join(tmpdir(), 'premise-parallel-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('parallel extraction', () => {
  // fixtures of both languages and a binary file: records, warnings and skips in file order
  const src = join(root, 'src');
  cpSync(join(__dirname, '..', 'fixtures'), src, { recursive: true });
  writeFileSync(join(src, 'lean', 'Binary.lean'), 'theorem x : True := trivial\u0000');

  it('gives the serial result whatever the threads and batches', async () => {
    const serial = await extractCorpus([src], undefined, {}, [], { threads: 1 });
    expect(serial.records.length).toBeGreaterThan(20);
    expect(serial.skippedFiles).toBeGreaterThan(0);
    // the formal terms made with the extraction are those of the records, which do not carry them
    const runTerms = (c: typeof serial) => c.formalTerms.map((r) => [...r.table.ids.subarray(r.start, r.end)].map((id) => r.table.terms[id]));
    expect(runTerms(serial)).toEqual(serial.records.map((r) => terms(sparseText(r))));
    expect(serial.records.some((r) => JSON.stringify(r).includes('formalTerms'))).toBe(false);
    for (const [threads, batch] of [[2, 1], [3, 2], [2, 16]] as const) {
      const parallel = await extractCorpus([src], undefined, {}, [], { threads, batch, script, always: true });
      expect(runTerms(parallel)).toEqual(runTerms(serial));
      expect({ ...parallel, own: [...parallel.own], formalTerms: [] }).toEqual({ ...serial, own: [...serial.own], formalTerms: [] });
    }
  });

  it("skips a file that exhausts a worker's heap, with a warning naming it; the other files' records stay, in order", async () => {
    const withHostile = join(root, 'hostile');
    cpSync(src, withHostile, { recursive: true });
    // one structure of 60,000 fields: about 100 MB of heap to extract, over the test's 32 MB limit
    const hostile = join(withHostile, 'lean', 'Hostile.lean');
    writeFileSync(hostile, 'structure S where\n' + '  f : Nat\n'.repeat(60_000));
    const serial = await extractCorpus([src], undefined, {}, [], { threads: 1 });
    const limited = await extractCorpus([withHostile], undefined, {}, [], { threads: 2, batch: 4, script, always: true, heapMb: 32 });
    const warning = `${hostile}: skipped, its extraction needs more than 32 MB (an extraction worker's memory limit)`;
    expect(limited.warnings).toContain(warning);
    expect(limited.skippedFiles).toBe(serial.skippedFiles + 1);
    const rel = (w: string) => w.replace(withHostile, src);
    expect(limited.warnings.filter((w) => w !== warning).map(rel)).toEqual(serial.warnings);
    expect(limited.records).toEqual(serial.records);
  });

  it('gives a file over 1 MiB to a worker, under its memory limit, even among few files', async () => {
    const few = join(root, 'few');
    mkdirSync(few);
    writeFileSync(join(few, 'Small.lean'), 'theorem small : True := trivial\n');
    const big = join(few, 'Big.lean');
    writeFileSync(big, 'structure S where\n' + '  f : Nat\n'.repeat(110_000));
    const c = await extractCorpus([few], undefined, {}, [], { threads: 2, script, heapMb: 32 });
    expect(c.warnings).toEqual([`${big}: skipped, its extraction needs more than 32 MB (an extraction worker's memory limit)`]);
    expect(c.records.map((r) => r.name)).toEqual(['small']);
  });

  it('reads the thread count from PREMISE_LSP_INDEX_THREADS', () => {
    expect(extractionThreads({ PREMISE_LSP_INDEX_THREADS: '1' })).toBe(1);
    expect(extractionThreads({ PREMISE_LSP_INDEX_THREADS: '3' })).toBe(3);
    expect(extractionThreads({ PREMISE_LSP_INDEX_THREADS: 'x' })).toBeGreaterThanOrEqual(1);
  });
});
