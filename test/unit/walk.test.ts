import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverSources, lakeLibraries } from '../../indexes/src/extract/walk.js';

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
