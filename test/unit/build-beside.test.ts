/**
 * A build into a directory that already holds an index writes beside it and
 * moves in only when complete: a failed or interrupted build leaves the previous
 * index usable, and nothing of the previous build is read with the new one.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexes/src/build.js';
import { readIndexDir } from '../../indexes/src/store/index-dir.js';
import { buildBeside, type MoveStep } from '../../indexes/src/store/staging.js';
import { openEngine } from '../../server/src/engine/open.js';
import type { Encoder } from '../../models/src/encoder.js';
import { fakeEncoder } from './engine-helpers.js';
import { lakeFixture } from './lake-project.js';

const FIXTURES = join(__dirname, '..', 'fixtures');
const root = mkdtempSync(join(tmpdir(), 'premise-beside-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const names = (dir: string) => {
  const p = readIndexDir(dir, { dense: false }).premises;
  return Array.from({ length: p.size }, (_, i) => p.get(i).name).sort();
};

describe('a build into an existing index', () => {
  it('that fails after writing leaves the previous index as it was', async () => {
    const out = join(root, 'failing');
    await buildIndex({ sources: [join(FIXTURES, 'lean')], out });
    const before = names(out);
    // the premises are written before the vectors: this build fails half-way through its output
    const broken: Encoder = { ...fakeEncoder('broken'), embed: async () => Promise.reject(new Error('encoder failed')) };
    await expect(buildIndex({ sources: [join(FIXTURES, 'sample')], out, encoder: broken })).rejects.toThrow(/encoder failed/);
    expect(names(out)).toEqual(before);
    expect(readdirSync(out).filter((f) => f.startsWith('.tmp-'))).toEqual([]);
  });

  it('that was killed leaves the previous index as it was; the next build removes what it wrote', async () => {
    const out = join(root, 'killed');
    await buildIndex({ sources: [join(FIXTURES, 'lean')], out });
    const before = names(out);
    // what a build killed mid-way leaves: its staging directory, named after its (gone) process
    const child = spawn(process.execPath, ['-e', '']);
    const gone = await new Promise<number>((res) => child.on('exit', () => res(child.pid!)));
    mkdirSync(join(out, `.tmp-${gone}`));
    writeFileSync(join(out, `.tmp-${gone}`, 'premises.bin'), 'half');
    expect(names(out)).toEqual(before);
    await buildIndex({ sources: [join(FIXTURES, 'sample')], out });
    expect(names(out)).not.toEqual(before);
    expect(readdirSync(out).filter((f) => f.startsWith('.tmp-'))).toEqual([]);
  });

  it('drops the previous build’s sidecars (external references of another corpus)', async () => {
    const f = lakeFixture();
    f.write('.lake/packages/deplib/DepLib/A.lean', 'namespace DepLib\ntheorem t1 : True := trivial\ntheorem t2 : True := trivial\nend DepLib\n');
    f.write('Proj/A.lean', Array.from({ length: 5 }, (_, i) => `theorem p${i} : True := DepLib.t1`).join('\n') + '\n');
    const dep = join(root, 'dep');
    const out = join(root, 'ws');
    await buildIndex({ sources: [f.depDir], out: dep });
    await buildIndex({ sources: [f.root], out, packages: false, resolveAgainst: [dep] });
    expect(existsSync(join(out, 'external-refs.json'))).toBe(true);
    // rebuilt from a smaller corpus, without dependencies: no external references, and it opens
    await buildIndex({ sources: [join(FIXTURES, 'lean', 'Binders.lean')], out });
    expect(existsSync(join(out, 'external-refs.json'))).toBe(false);
    await expect(openEngine([dep, out], { defaultReranker: false })).resolves.toBeDefined();
  });

  it('leaves files in the output directory that are not an index’s', async () => {
    const out = join(root, 'shared');
    mkdirSync(out);
    writeFileSync(join(out, 'notes.txt'), 'mine');
    await buildIndex({ sources: [join(FIXTURES, 'lean')], out });
    await buildIndex({ sources: [join(FIXTURES, 'sample')], out });
    expect(readdirSync(out).sort()).toEqual(['imports.json', 'informal.bin', 'manifest.json', 'mash.bin', 'notes.txt', 'premises.bin', 'sparse.bin', 'symbols.bin']);
  });
});

describe('moving a finished build in', () => {
  it("removes every index file the new build did not write, symbols.bin and mash.bin among them", async () => {
    const full = join(root, 'full');
    await buildIndex({ sources: [join(FIXTURES, 'sample')], out: full });
    const out = join(root, 'stale-sides');
    cpSync(full, out, { recursive: true });
    // a build that writes no symbol sets and no usage model (as an index built before them)
    await buildBeside(out, async (tmp) => {
      cpSync(full, tmp, { recursive: true });
      for (const f of ['symbols.bin', 'mash.bin']) rmSync(join(tmp, f));
    });
    expect(existsSync(join(out, 'symbols.bin'))).toBe(false);
    expect(existsSync(join(out, 'mash.bin'))).toBe(false);
  });

  it('cut short after any step (a kill, a power loss) leaves the old or the new index openable; the next build completes', async () => {
    const oldIndex = join(root, 'move-old');
    const newIndex = join(root, 'move-new');
    await buildIndex({ sources: [join(FIXTURES, 'lean')], out: oldIndex });
    await buildIndex({ sources: [join(FIXTURES, 'sample')], out: newIndex });
    const oldNames = names(oldIndex);
    const newNames = names(newIndex);
    expect(newNames).not.toEqual(oldNames);
    const steps: MoveStep[] = [];
    const copyNew = async (tmp: string) => cpSync(newIndex, tmp, { recursive: true });
    await buildBeside(join(root, 'move-count'), copyNew, (s) => steps.push(s));
    expect(steps.filter((s) => s !== 'file')).toEqual(['staged', 'pointed', 'removed', 'manifest']);
    for (let k = 0; k < steps.length; k++) {
      const out = join(root, `move-${k}`);
      cpSync(oldIndex, out, { recursive: true });
      let n = 0;
      await expect(buildBeside(out, copyNew, () => {
        if (n++ === k) throw new Error(`killed after step ${k}`);
      })).rejects.toThrow(/killed/);
      const seen = names(out); // opens, as one index or the other, never a mix
      expect([oldNames, newNames], `after step ${k} (${steps[k]})`).toContainEqual(seen);
      if (k >= 1) expect(seen).toEqual(newNames); // from the moment the manifest names the new build
      // the next build moves in and leaves nothing behind
      await buildBeside(out, copyNew);
      expect(names(out)).toEqual(newNames);
      expect(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).data).toBeUndefined();
      expect(readdirSync(out).filter((f) => f.startsWith('.'))).toEqual([]);
    }
  });

  it('never follows a manifest "data" that is not a build directory beside it', async () => {
    const out = join(root, 'move-crafted');
    await buildIndex({ sources: [join(FIXTURES, 'lean')], out });
    const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    writeFileSync(join(out, 'manifest.json'), JSON.stringify({ ...m, data: '../move-old' }));
    expect(() => readIndexDir(out, { dense: false })).toThrow(/corrupt or unreadable index file .*"data"/);
  });
});
