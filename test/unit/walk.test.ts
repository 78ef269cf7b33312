import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
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
