/** SourcePaths: an indexed premise's `file` → its absolute path under the index's source roots; the engine's `sourcePath`. */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SourcePaths } from '../../indexes/src/source-paths.js';
import { entryRoots } from '../../indexes/src/packages.js';
import { buildIndex } from '../../indexes/src/build.js';
import { openEngine } from '../../server/src/engine/open.js';
import { DEP_THEOREM, lakeFixture, WS_THEOREM } from './lake-project.js';

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'premise-lsp-paths-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

describe('SourcePaths', () => {
  it('finds a file under the second root, and the first root wins when both have it', () => {
    const a = tree({ 'A/One.lean': '' });
    const b = tree({ 'B/Two.lean': '', 'A/One.lean': '' });
    const paths = new SourcePaths([a, b]);
    expect(paths.resolve('B/Two.lean')).toBe(join(b, 'B/Two.lean'));
    expect(paths.resolve('A/One.lean')).toBe(join(a, 'A/One.lean'));
  });

  it("a source's .lake/packages/* are roots too (a Lake project's dependencies), and a single-file source is its own file", () => {
    const proj = tree({ 'Proj/Main.lean': '', '.lake/packages/mathlib/Mathlib/Basic.lean': '' });
    const single = tree({ 'Lone.lean': '' });
    const paths = new SourcePaths([proj, join(single, 'Lone.lean')]);
    expect(paths.resolve('Mathlib/Basic.lean')).toBe(join(proj, '.lake/packages/mathlib/Mathlib/Basic.lean'));
    expect(paths.resolve('Proj/Main.lean')).toBe(join(proj, 'Proj/Main.lean'));
    expect(paths.resolve('Lone.lean')).toBe(join(single, 'Lone.lean'));
  });

  it('a Lake package nested in a source directory is a root of its own (as the walk reads it)', () => {
    const dir = tree({ 'lean/lakefile.lean': '', 'lean/Sample/Lists.lean': '', 'isabelle/Sample_Isa.thy': '' });
    const paths = new SourcePaths([dir]);
    expect(paths.resolve('isabelle/Sample_Isa.thy')).toBe(join(dir, 'isabelle/Sample_Isa.thy'));
    expect(paths.resolve('Sample/Lists.lean')).toBe(join(dir, 'lean/Sample/Lists.lean'));
    expect(paths.resolve('lakefile.lean')).toBe(join(dir, 'lean/lakefile.lean'));
  });

  it('a file under no root, or a directory, has no path', () => {
    const a = tree({ 'A/One.lean': '' });
    const paths = new SourcePaths([a, join(a, 'missing-root')]);
    expect(paths.resolve('A/Nope.lean')).toBeUndefined();
    expect(paths.resolve('A')).toBeUndefined();
    expect(new SourcePaths([]).resolve('A/One.lean')).toBeUndefined();
    expect(new SourcePaths(['relative/root']).resolve('A/One.lean')).toBeUndefined();
  });

  it('refuses `..` traversal and absolute files, even when the target exists', () => {
    const outside = tree({ 'secret.lean': '' });
    const root = tree({ 'A/One.lean': '' });
    const inner = join(root, 'inner');
    mkdirSync(inner);
    const paths = new SourcePaths([inner]);
    const rel = `../../${outside.split('/').slice(-1)[0]}/secret.lean`;
    for (const file of [
      '../A/One.lean',
      'A/../../A/One.lean',
      `../../..${join(outside, 'secret.lean')}`,
      join(outside, 'secret.lean'),
      join(root, 'A/One.lean'),
      rel,
      '..',
      '',
      './A/One.lean',
      'A\\..\\..\\A\\One.lean',
      'A/One.lean\0',
    ]) {
      expect(paths.resolve(file), file).toBeUndefined();
    }
    // through a single-file root too
    expect(new SourcePaths([join(root, 'A/One.lean')]).resolve('../One.lean')).toBeUndefined();
  });

  it('answers are cached per resolver: a resolver for other roots gives its own answer, never the first one', () => {
    const a = tree({ 'X/F.lean': '' });
    const b = tree({ 'X/F.lean': '' });
    const first = new SourcePaths([a]);
    expect(first.resolve('X/F.lean')).toBe(join(a, 'X/F.lean'));
    expect(new SourcePaths([b]).resolve('X/F.lean')).toBe(join(b, 'X/F.lean'));
    expect(new SourcePaths([join(b, 'none'), b]).resolve('X/F.lean')).toBe(join(b, 'X/F.lean'));
    expect(new SourcePaths([join(a, 'none')]).resolve('X/F.lean')).toBeUndefined();
    // the same resolver keeps its answer (cached), even once the file is gone
    rmSync(join(a, 'X/F.lean'));
    expect(first.resolve('X/F.lean')).toBe(join(a, 'X/F.lean'));
  });
});

describe('entryRoots', () => {
  it("a toolchain entry's roots are where its links point (its link directory is gone once built); others, their sources", () => {
    expect(entryRoots({ sources: [], links: { Init: '/tc/src/lean/Init', 'Init.lean': '/tc/src/lean/Init.lean', Std: '/tc/src/lean/Std' } })).toEqual(['/tc/src/lean']);
    expect(entryRoots({ sources: ['/p/a', '/p/b'] })).toEqual(['/p/a', '/p/b']);
  });
});

describe('engine sourcePath', () => {
  it("resolves each premise under its own index's roots; sourceRoots replace a manifest's sources", async () => {
    const f = lakeFixture();
    const tmp = mkdtempSync(join(tmpdir(), 'premise-lsp-paths-idx-'));
    await buildIndex({ sources: [f.depDir], out: join(tmp, 'dep') });
    await buildIndex({ sources: [f.root], out: join(tmp, 'ws'), packages: false });
    const engine = await openEngine([join(tmp, 'dep'), join(tmp, 'ws')], { defaultReranker: false, sparseOnly: true });
    const dep = engine.lookup(DEP_THEOREM)!;
    const ws = engine.lookup(WS_THEOREM)!;
    expect(engine.sourcePath(dep)).toBe(join(f.depDir, dep.file));
    expect(engine.sourcePath(ws)).toBe(join(f.root, ws.file));
    // a name no index has, and a file that would climb out of the roots, have none
    expect(engine.sourcePath({ name: 'No.such', file: ws.file })).toBeUndefined();
    expect(engine.sourcePath({ name: ws.name, file: `../proj/${ws.file}` })).toBeUndefined();
    // the sources moved: roots given by the caller are used instead of the manifest's
    const moved = join(tmp, 'moved');
    symlinkSync(f.root, moved);
    const other = await openEngine([join(tmp, 'ws')], { defaultReranker: false, sparseOnly: true, sourceRoots: { [join(tmp, 'ws')]: [moved] } });
    expect(other.sourcePath(ws)).toBe(join(moved, ws.file));
    // upserted (edited) premises come from no index
    await engine.upsert([{ ...ws, name: 'Fresh.thm', refs: [] } as never]);
    expect(engine.sourcePath({ name: 'Fresh.thm', file: ws.file })).toBeUndefined();
  });
});
