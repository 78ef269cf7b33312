import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverSources, lakeLibraries, sourceOf } from '../../indexes/src/extract/walk.js';

const SAMPLE = resolve(__dirname, '../fixtures/sample');

describe('discoverSources', () => {
  it('finds Lean modules relative to the Lake package and Isabelle theories by name', () => {
    const { files, warnings } = discoverSources([SAMPLE]);
    expect(warnings).toEqual([]);
    const mods = files.map((f) => `${f.lang}:${f.module}`).sort();
    expect(mods).toEqual(['isabelle:Sample_Isa', 'lean:Sample.Algebra', 'lean:Sample.Lists', 'lean:Sample.Order']);
    expect(files.find((f) => f.module === 'Sample.Order')!.rel).toBe('Sample/Order.lean');
  });

  it('reads the libraries a lakefile builds', () => {
    expect(lakeLibraries(join(SAMPLE, 'lean'))).toEqual(['Sample']);
    expect(lakeLibraries(join(SAMPLE, 'isabelle'))).toBeUndefined();
  });

  it('warns about missing inputs and non-source files instead of failing', () => {
    const { files, warnings } = discoverSources([join(SAMPLE, 'nope'), join(SAMPLE, 'lean', 'lakefile.lean', 'x')]);
    expect(files).toEqual([]);
    expect(warnings).toHaveLength(2);
  });
});

describe('sourceOf (one edited file)', () => {
  it('names a Lean file from its Lake package root, as a tree walk does', () => {
    const file = join(SAMPLE, 'lean', 'Sample', 'Algebra.lean');
    expect(sourceOf(file)).toMatchObject({ lang: 'lean', root: join(SAMPLE, 'lean'), rel: 'Sample/Algebra.lean', module: 'Sample.Algebra' });
    const walked = discoverSources([join(SAMPLE, 'lean')]).files.find((f) => f.path.endsWith('Algebra.lean'));
    expect(walked?.module).toBe('Sample.Algebra');
  });
  it('names an Isabelle theory by its file, and ignores other files', () => {
    expect(sourceOf(join(SAMPLE, 'isabelle', 'Sample_Isa.thy'))).toMatchObject({ lang: 'isabelle', module: 'Sample_Isa' });
    expect(sourceOf(join(SAMPLE, 'README.md'))).toBeUndefined();
  });
});

describe('a directory inside a package: module names as Lean derives them (issue 35)', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'premise-walk-root-'));
  const write = (rel: string, text = 'theorem t : True := trivial\n') => {
    mkdirSync(dirname(join(tmp, rel)), { recursive: true });
    writeFileSync(join(tmp, rel), text);
  };
  write('proj/lakefile.lean', 'import Lake\nopen Lake DSL\npackage proj\n@[default_target] lean_lib Pkg\n');
  write('proj/Pkg.lean', 'import Pkg.Sub.File\n');
  write('proj/Pkg/Sub/File.lean');
  write('proj/Pkg/Top.lean');
  write('proj/Other/Outside.lean'); // beside the directory indexed: never walked
  write('toolchain/src/lean/Init.lean', 'prelude\n');
  write('toolchain/src/lean/Init/Core.lean');
  write('loose/Dir/File.lean');
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('names the modules of a subdirectory from the nearest Lake package above it, and says so', () => {
    const d = discoverSources([join(tmp, 'proj', 'Pkg')]);
    expect(d.files.map((f) => f.module).sort()).toEqual(['Pkg.Sub.File', 'Pkg.Top']);
    // paths stay relative to the directory walked (where the index finds the sources again)
    expect(d.files.find((f) => f.module === 'Pkg.Sub.File')).toMatchObject({ rel: 'Sub/File.lean', root: join(tmp, 'proj', 'Pkg') });
    expect(d.moduleRoots).toEqual([{ input: join(tmp, 'proj', 'Pkg'), root: join(tmp, 'proj'), prefix: 'Pkg', why: 'the nearest Lake package above it' }]);
    expect(discoverSources([join(tmp, 'proj', 'Pkg', 'Sub')]).files.map((f) => f.module)).toEqual(['Pkg.Sub.File']);
    // the same name a document of the package gets (the language server's live index)
    expect(sourceOf(join(tmp, 'proj', 'Pkg', 'Sub', 'File.lean'))?.module).toBe('Pkg.Sub.File');
  });

  it('keeps the package itself as it was, and walks nothing outside the directory given', () => {
    const whole = discoverSources([join(tmp, 'proj')]);
    expect(whole.moduleRoots).toEqual([]);
    expect(whole.files.map((f) => f.module).sort()).toEqual(['Pkg', 'Pkg.Sub.File', 'Pkg.Top']);
    // a link from the directory to its package beside it leaves the root walked: not followed (walk-links.test.ts)
    symlinkSync(join(tmp, 'proj', 'Other'), join(tmp, 'proj', 'Pkg', 'Link'));
    try {
      const sub = discoverSources([join(tmp, 'proj', 'Pkg')]);
      expect(sub.files.every((f) => f.path.startsWith(join(tmp, 'proj', 'Pkg') + sep))).toBe(true);
      expect(sub.files.map((f) => f.module)).not.toContain('Pkg.Link.Outside');
      expect(sub.links).toEqual([expect.stringMatching(/Link: link to .*Other, outside .*Pkg, not followed/)]);
    } finally {
      rmSync(join(tmp, 'proj', 'Pkg', 'Link'));
    }
  });

  it("outside any package, counts from the source root a library's root file names (a toolchain's src/lean/Init)", () => {
    const d = discoverSources([join(tmp, 'toolchain', 'src', 'lean', 'Init')]);
    expect(d.files.map((f) => f.module)).toEqual(['Init.Core']);
    expect(d.moduleRoots[0]).toMatchObject({ root: join(tmp, 'toolchain', 'src', 'lean'), prefix: 'Init' });
    // nothing says where a loose directory's modules start: from the directory, as before
    expect(discoverSources([join(tmp, 'loose', 'Dir')]).files.map((f) => f.module)).toEqual(['File']);
  });
});
