/**
 * Premise completion items as completion engines (blink.cmp, nvim-cmp) show
 * them: a CompletionItemKind per declaration kind, a short detail, the module as
 * labelDetails, markdown documentation with the statement in a code block.
 */
import { describe, expect, it } from 'vitest';
import type { DeclKind } from '../../indexes/src/extract/record.js';
import { toInfo } from '../../indexes/src/premise-info.js';
import { completionKind, premiseItem } from '../../server/src/lsp/features/completion.js';

const range = { start: { line: 3, character: 2 }, end: { line: 3, character: 2 } };
const info = (kind: DeclKind, extra: Record<string, unknown> = {}) =>
  toInfo(
    {
      name: 'Foo.bar',
      kind,
      lang: 'lean',
      module: 'Mathlib.Foo',
      file: 'Mathlib/Foo.lean',
      range: { start: { line: 9, character: 0 }, end: { line: 10, character: 0 } },
      statement: 'theorem Foo.bar (a : Nat) : a = a',
      args: ['(a : Nat)'],
      goal: 'a = a',
      refs: [],
      ...extra,
    },
    0,
  );

describe('completion kinds', () => {
  it('theorems and lemmas are Constants; definitions Functions; types Struct or Class; constructors, fields, instances their own', () => {
    const kinds: Record<string, number> = {};
    for (const k of ['theorem', 'lemma', 'corollary', 'proposition', 'axiom', 'def', 'abbrev', 'definition', 'fun', 'opaque', 'structure', 'inductive', 'class', 'constructor', 'field', 'instance'] as DeclKind[]) {
      kinds[k] = completionKind(k);
    }
    expect(kinds).toEqual({
      theorem: 21, lemma: 21, corollary: 21, proposition: 21, axiom: 21,
      def: 3, abbrev: 3, definition: 3, fun: 3, opaque: 3,
      structure: 22, inductive: 22, class: 7, constructor: 4, field: 5, instance: 12,
    });
  });
});

describe('a premise item', () => {
  it('has a short detail and the module as labelDetails; the statement, docstring and module in markdown', () => {
    const item = premiseItem(info('theorem', { doc: 'Everything equals itself.' }), 2, range);
    expect(item).toMatchObject({ label: 'Foo.bar', kind: 21, detail: 'Mathlib.Foo', labelDetails: { description: 'Mathlib.Foo' }, sortText: 'b0002' });
    expect(item.documentation).toEqual({
      kind: 'markdown',
      value: '```lean\ntheorem Foo.bar (a : Nat) : a = a\n```\n\nEverything equals itself.\n\n*theorem* `Foo.bar` — Mathlib.Foo (Mathlib/Foo.lean:10)',
    });
    expect(item.additionalTextEdits).toBeUndefined();
  });

  it('one that needs an import says so in detail and documentation, and carries the import edit', () => {
    const edit = { range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, newText: 'import Mathlib.Foo\n' };
    const item = premiseItem(info('lemma'), 1, range, { module: 'Mathlib.Foo', edit });
    expect(item.detail).toBe('needs import Mathlib.Foo');
    expect((item.documentation as { value: string }).value).toMatch(/Needs `import Mathlib\.Foo` \(added when picked\)\.$/);
    expect(item.additionalTextEdits).toEqual([edit]);
    expect(item.data).toMatchObject({ needs: 'Mathlib.Foo' });
  });
});
