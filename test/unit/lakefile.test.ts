/**
 * Lakefiles read in linear time, and not at all beyond 1 MiB (issue 31 item 13). The crafted
 * lakefiles that took minutes are in test/cli/lakefile-crafted.test.ts (in a child process, so
 * that a stall fails on its time limit instead of holding this test's thread).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { leanLakefileLibraries, MAX_LIBRARIES, tomlLakefileLibraries } from '../../indexes/src/extract/lakefile.js';
import { discoverSources, discoverSourcesAsync, lakeLibraries } from '../../indexes/src/extract/walk.js';

describe('lakefile.lean', () => {
  it('reads lean_lib names, quoted or not, and the default targets', () => {
    const text = 'import Lake\nopen Lake DSL\n\npackage foo\n\nlean_lib Aux\n\n@[default_target]\nlean_lib «My Lib» where\n  roots := #[`A]\n\n@[default_target] lean_lib Foo.Bar\n';
    expect(leanLakefileLibraries(text)).toEqual({ all: ['Aux', 'My Lib', 'Foo.Bar'], defaults: ['My Lib', 'Foo.Bar'] });
  });

  it('an unclosed « or an over-long name is no library', () => {
    expect(leanLakefileLibraries('lean_lib «'.repeat(50) + '\nlean_lib Ok\n')).toEqual({ all: ['Ok'], defaults: [] });
    expect(leanLakefileLibraries(`lean_lib «${'x'.repeat(300)}»\nlean_lib «Fine»`).all).toEqual(['Fine']);
  });
});

describe('lakefile.toml', () => {
  it('reads each [[lean_lib]] table\'s name (wherever in the table) and defaultTargets', () => {
    const text = [
      'name = "pkg"',
      'defaultTargets = [',
      '  "B", # the one',
      "  'C'",
      ']',
      '',
      '[[lean_lib]]',
      'name = "A"',
      '',
      '[[lean_lib]]  # second',
      'roots = ["B"]',
      "name = 'B'",
      '',
      '[[require]]',
      'name = "mathlib"',
      '',
      '[[ lean_lib ]]',
      'name = "C"',
    ].join('\n');
    expect(tomlLakefileLibraries(text)).toEqual({ all: ['A', 'B', 'C'], defaults: ['B', 'C'] });
  });

  it('headers followed by nothing, unclosed strings and arrays are no libraries', () => {
    expect(tomlLakefileLibraries('[[lean_lib]]' + '\n'.repeat(1000))).toEqual({ all: [], defaults: [] });
    expect(tomlLakefileLibraries('[[lean_lib]]\nname = "'.repeat(100))).toEqual({ all: [], defaults: [] });
    expect(tomlLakefileLibraries('defaultTargets = ['.repeat(100) + '\n[[lean_lib]]\nname = "X"\n')).toEqual({ all: ['X'], defaults: [] });
  });
});

describe('the size limit', () => {
  it('a lakefile over 1 MiB is not read: a warning, and the package walked as a plain directory', () => {
    const root = mkdtempSync(join(tmpdir(), 'premise-lakefile-'));
    writeFileSync(join(root, 'lakefile.lean'), `${'-- padding\n'.repeat(110_000)}@[default_target]\nlean_lib Only\n`);
    mkdirSync(join(root, 'Only'));
    writeFileSync(join(root, 'Only', 'A.lean'), 'theorem a : True := trivial\n');
    writeFileSync(join(root, 'Other.lean'), 'theorem b : True := trivial\n');
    const warnings: string[] = [];
    expect(lakeLibraries(root, warnings)).toBeUndefined();
    expect(warnings).toEqual([`${join(root, 'lakefile.lean')}: not read (larger than 1 MiB, the limit for this file); ${root} walked as a plain directory`]);
    const found = discoverSources([root]);
    expect(found.files.map((f) => f.module).sort()).toEqual(['Only.A', 'Other']);
    expect(found.warnings).toHaveLength(1);
  });
});

describe('many libraries (issue 36 item 5)', () => {
  it('a library declared many times counts once', () => {
    expect(leanLakefileLibraries('lean_lib P\n'.repeat(1000) + '@[default_target] lean_lib P\n')).toEqual({ all: ['P'], defaults: ['P'] });
    expect(tomlLakefileLibraries('defaultTargets = ["P", "P"]\n' + '[[lean_lib]]\nname = "P"\n'.repeat(1000))).toEqual({ all: ['P'], defaults: ['P'] });
  });

  it(`at most MAX_LIBRARIES are kept, the rest counted`, () => {
    const n = MAX_LIBRARIES + 500;
    const lean = leanLakefileLibraries(Array.from({ length: n }, (_, i) => `@[default_target] lean_lib L${i}\n`).join(''));
    expect(lean.all).toHaveLength(MAX_LIBRARIES);
    expect(lean.defaults).toHaveLength(MAX_LIBRARIES);
    expect(lean.omitted).toBe(500);
    const names = Array.from({ length: n }, (_, i) => `"L${i}"`);
    const toml = tomlLakefileLibraries(`defaultTargets = [${names.join(', ')}]\n` + names.map((x) => `[[lean_lib]]\nname = ${x}\n`).join(''));
    expect(toml.all).toHaveLength(MAX_LIBRARIES);
    expect(toml.defaults).toHaveLength(MAX_LIBRARIES);
    expect(toml.omitted).toBe(500);
    // the walk says so
    const root = mkdtempSync(join(tmpdir(), 'premise-lakefile-many-'));
    writeFileSync(join(root, 'lakefile.lean'), Array.from({ length: n }, (_, i) => `lean_lib L${i}\n`).join(''));
    const warnings: string[] = [];
    expect(lakeLibraries(root, warnings)).toHaveLength(MAX_LIBRARIES);
    expect(warnings.join('\n')).toContain(`declares ${n} libraries; the first ${MAX_LIBRARIES} are indexed`);
  });
});

describe('the walk gives the server\'s thread back (issue 36 item 5)', () => {
  /** Turns the event loop gave other work while `walk` ran (a setImmediate chain started with it). */
  async function turnsDuring<T>(walk: () => Promise<T>): Promise<{ turns: number; value: T }> {
    let turns = 0;
    let walking = true;
    const tick = () => {
      if (!walking) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const value = await walk();
    walking = false;
    return { turns, value };
  }

  it('between the libraries of a lakefile declaring many, and finds what the walk in one piece finds', async () => {
    const root = mkdtempSync(join(tmpdir(), 'lakefile-turns-'));
    writeFileSync(join(root, 'lakefile.lean'), ['package P', ...Array.from({ length: 3000 }, (_, i) => `lean_lib L${i}`)].join('\n'));
    mkdirSync(join(root, 'L7'));
    writeFileSync(join(root, 'L7.lean'), 'theorem l7 : True := trivial\n');
    writeFileSync(join(root, 'L7', 'A.lean'), 'theorem l7a : True := trivial\n');
    const { turns, value } = await turnsDuring(() => discoverSourcesAsync([root], { packages: false }, 0));
    expect(turns).toBeGreaterThan(100);
    expect(value).toEqual(discoverSources([root], { packages: false }));
    expect(value.files.map((f) => f.module).sort()).toEqual(['L7', 'L7.A']);
  });

  it('while it reads the lakefile itself (one library declared 95,000 times)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'lakefile-turns-'));
    writeFileSync(join(root, 'lakefile.lean'), ['package P', ...Array.from({ length: 95_000 }, () => 'lean_lib P')].join('\n'));
    writeFileSync(join(root, 'P.lean'), 'theorem p : True := trivial\n');
    const { turns, value } = await turnsDuring(() => discoverSourcesAsync([root], { packages: false }, 0));
    // one library and one file: the turns come from reading the declarations
    expect(turns).toBeGreaterThan(10);
    expect(value.files.map((f) => f.module)).toEqual(['P']);
  });
});
