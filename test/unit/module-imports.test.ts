/**
 * Imports: a source's header read (Lean `import` lines, Isabelle `imports`) and
 * where an added import goes; the index's `imports.json`; the import closure and
 * what a file can use; the `imports` policies' order.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addDense, buildIndex } from '../../indexes/src/build.js';
import { loadEncoder } from '../../models/src/encoder.js';
import { headerImports } from '../../indexes/src/extract/imports.js';
import {
  IMPORTS_FILE,
  importClosure,
  importScope,
  mergeModuleImports,
  orderByImports,
  readModuleImports,
  textScope,
  type ModuleImports,
} from '../../indexes/src/module-imports.js';
import { openEngine } from '../../server/src/engine/open.js';

const FIXTURE = join(__dirname, '..', 'fixtures', 'imports');
const apply = (text: string, ins: { offset: number; text: string } | undefined) => text.slice(0, ins!.offset) + ins!.text + text.slice(ins!.offset);

describe('a Lean header', () => {
  it('lists its imports, after comments, with `public`/`meta` prefixes and `all`', () => {
    const text = '/- Copyright\n  /- nested -/ -/\n-- a line comment\nmodule\n\npublic import Mathlib.Order.Basic\nimport all Std.Data\nmeta import «Weird Name».X -- trailing\n\nnamespace Foo\nimport NotAnImport\n';
    const h = headerImports(text, 'lean');
    expect(h.imports).toEqual(['Mathlib.Order.Basic', 'Std.Data', 'Weird Name.X']);
    expect(h.prelude).toBe(false);
  });

  it('puts a new import on the line after the last import', () => {
    const text = '/- header -/\nimport A\nimport B -- why\n\ntheorem t : True := trivial\n';
    expect(apply(text, headerImports(text, 'lean').add('C'))).toBe('/- header -/\nimport A\nimport B -- why\nimport C\n\ntheorem t : True := trivial\n');
    // a file that ends on its import line
    expect(apply('import A', headerImports('import A', 'lean').add('C'))).toBe('import A\nimport C');
  });

  it('without imports: before the first command, after the leading comments; after `prelude`, which also drops the implicit Init', () => {
    const text = '/- Copyright -/\n\ntheorem t : True := trivial\n';
    expect(apply(text, headerImports(text, 'lean').add('C'))).toBe('/- Copyright -/\n\nimport C\ntheorem t : True := trivial\n');
    const prelude = 'prelude\ntheorem t : True := trivial\n';
    const h = headerImports(prelude, 'lean');
    expect(h.prelude).toBe(true);
    expect(apply(prelude, h.add('C'))).toBe('prelude\nimport C\ntheorem t : True := trivial\n');
  });

  it('reads the fixture user file: it imports A alone', () => {
    expect(headerImports(readFileSync(join(FIXTURE, 'lean', 'Imp', 'Use.lean'), 'utf8'), 'lean').imports).toEqual(['Imp.A']);
  });
});

describe('an Isabelle header', () => {
  it('lists its imports by theory base name (session-qualified and quoted ones too)', () => {
    const text = 'theory Foo\n  imports Main "HOL-Library.Multiset" HOL.List "~~/src/HOL/Library/FSet"\n  keywords "foo" :: thy_decl\nbegin\nend\n';
    expect(headerImports(text, 'isabelle').imports).toEqual(['Main', 'Multiset', 'List', 'FSet']);
  });

  it('adds a theory after the last import, before `keywords` and `begin`; quotes a name that needs it', () => {
    const text = 'theory Foo\n  imports Main\n  keywords "foo" :: thy_decl\nbegin\nlemma x: "True" by simp\nend\n';
    expect(apply(text, headerImports(text, 'isabelle').add('C'))).toBe('theory Foo\n  imports Main C\n  keywords "foo" :: thy_decl\nbegin\nlemma x: "True" by simp\nend\n');
    expect(apply(text, headerImports(text, 'isabelle').add('HOL-Library.Multiset'))).toContain('imports Main "HOL-Library.Multiset"\n');
    // a `begin` in a comment before the header's own does not end the header early
    const commented = '(* begin here *)\ntheory Bar imports A begin\nend\n';
    expect(headerImports(commented, 'isabelle').imports).toEqual(['A']);
    expect(apply(commented, headerImports(commented, 'isabelle').add('C'))).toBe('(* begin here *)\ntheory Bar imports A C begin\nend\n');
  });

  it('has no place for an import without a theory header', () => {
    expect(headerImports('lemma x: "True" by simp', 'isabelle').add('C')).toBeUndefined();
  });
});

describe('the import closure', () => {
  const graph: ModuleImports = new Map([
    ['A', ['B']],
    ['B', ['D']],
    ['C', []],
    ['D', ['A']], // a cycle
    ['Init', ['Init.Core']],
    ['Init.Core', []],
  ]);

  it('follows imports transitively, through cycles', () => {
    expect([...importClosure(graph, ['A'])].sort()).toEqual(['A', 'B', 'D']);
    expect([...importClosure(graph, ['C'])]).toEqual(['C']);
  });

  it('a file importing A can use A, B, D and (Lean) Init; not C; a module the graph does not know counts as usable', () => {
    const { scope } = textScope(graph, 'import A\n', 'lean');
    expect(['A', 'B', 'D', 'Init', 'Init.Core'].every((m) => scope.importable(m))).toBe(true);
    expect(scope.importable('C')).toBe(false);
    expect(scope.importable('Unindexed.Module')).toBe(true);
    // a prelude file does not get Init
    expect(textScope(graph, 'prelude\nimport A\n', 'lean').scope.importable('Init.Core')).toBe(false);
  });

  it('a file\'s own module is usable, without following its indexed imports', () => {
    const s = importScope(graph, [], { own: 'C' });
    expect(s.importable('C')).toBe(true);
    expect(s.importable('A')).toBe(false);
    const t = importScope(graph, ['C'], { own: 'A' });
    expect(t.importable('B')).toBe(false);
  });

  it('an index without recorded imports (an empty graph) leaves everything usable', () => {
    const s = importScope(new Map(), ['A']);
    expect(s.importable('C')).toBe(true);
  });

  it('merges the graphs of several indexes', () => {
    const merged = mergeModuleImports([new Map([['A', ['B']]]), new Map([['A', ['C']], ['B', []]])]);
    expect(merged.get('A')).toEqual(['B', 'C']);
    expect(merged.get('B')).toEqual([]);
  });
});

describe('the imports policies', () => {
  const scope = importScope(new Map([['A', []], ['C', []]]), ['A']);
  const hits = [{ name: 'c1', module: 'C' }, { name: 'a1', module: 'A' }, { name: 'c2', module: 'C' }, { name: 'a2', module: 'A' }];

  it('prefer: usable ones first, each part in its order; only: usable ones alone; any: as found', () => {
    expect(orderByImports(hits, scope, 'prefer').map((h) => h.name)).toEqual(['a1', 'a2', 'c1', 'c2']);
    expect(orderByImports(hits, scope, 'only').map((h) => h.name)).toEqual(['a1', 'a2']);
    expect(orderByImports(hits, scope, 'any').map((h) => h.name)).toEqual(['c1', 'a1', 'c2', 'a2']);
  });
});

describe('imports.json', () => {
  it('an index build records each module\'s imports; an opened engine has them', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'premise-lsp-imports-')), 'idx');
    await buildIndex({ sources: [join(FIXTURE, 'lean')], out });
    const graph = readModuleImports(out);
    expect(Object.fromEntries(graph)).toEqual({ 'Imp.A': ['Imp.B'], 'Imp.B': [], 'Imp.C': [], 'Imp.Use': ['Imp.A'] });
    const engine = await openEngine(out, { sparseOnly: true, defaultReranker: false });
    try {
      expect(engine.moduleImports().get('Imp.A')).toEqual(['Imp.B']);
    } finally {
      await engine.dispose();
    }
  });

  it('the dense step (addDense, the automatic index\'s upgrade) keeps them', async () => {
    const root = mkdtempSync(join(tmpdir(), 'premise-lsp-imports-'));
    await buildIndex({ sources: [join(FIXTURE, 'lean')], out: join(root, 'sparse') });
    const encoder = await loadEncoder(join(__dirname, '..', 'fixtures', 'tiny-encoder'));
    try {
      await addDense({ from: join(root, 'sparse'), out: join(root, 'full'), encoder });
    } finally {
      await encoder.dispose();
    }
    expect(readModuleImports(join(root, 'full')).get('Imp.Use')).toEqual(['Imp.A']);
  });

  it('Isabelle theories too, by theory name', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'premise-lsp-imports-')), 'idx');
    await buildIndex({ sources: [join(FIXTURE, 'isabelle')], out });
    expect(Object.fromEntries(readModuleImports(out))).toEqual({ A: ['B'], B: ['Main'], C: ['Main'], Use: ['A'] });
  });

  it('an index without it (built before imports were recorded) opens with an empty graph; a damaged one is an error naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'premise-lsp-imports-'));
    expect(readModuleImports(dir).size).toBe(0);
    writeFileSync(join(dir, IMPORTS_FILE), '{"format": "something else"}');
    expect(() => readModuleImports(dir)).toThrow(/imports\.json: not a premise-lsp imports file/);
    writeFileSync(join(dir, IMPORTS_FILE), '{');
    expect(() => readModuleImports(dir)).toThrow(/imports\.json: not valid JSON/);
  });
});
