import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractLean } from '../../indexes/src/extract/lean/extractor.js';
import { resolveRefs } from '../../indexes/src/extract/resolve.js';
import type { ExtractedDecl } from '../../indexes/src/extract/record.js';

type Scope = ExtractedDecl['scope'];

function decl(name: string, refs: string[] = [], scope: Scope = { namespaces: [], opens: [] }, extra: Partial<ExtractedDecl> = {}): ExtractedDecl {
  return {
    name,
    kind: 'theorem',
    lang: 'lean',
    module: 'M',
    file: 'M.lean',
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
    args: [],
    goal: '',
    statement: `theorem ${name}`,
    refs,
    scope,
    ...extra,
  };
}

const refsOf = (out: ReturnType<typeof resolveRefs>, name: string): string[] => {
  const d = out.find((x) => x.name === name);
  if (!d) throw new Error(`missing ${name}`);
  return d.refs;
};

describe('resolveRefs', () => {
  it('prefers the innermost namespace, then outer ones, then the root', () => {
    const scope = { namespaces: ['A.B.C', 'A.B', 'A'], opens: [] };
    const out = resolveRefs([
      decl('A.B.foo'),
      decl('A.foo'),
      decl('foo'),
      decl('A.bar'),
      decl('baz'),
      decl('A.B.C.user', ['foo', 'bar', 'baz', 'missing'], scope),
    ]);
    expect(refsOf(out, 'A.B.C.user')).toEqual(['A.B.foo', 'A.bar', 'baz']);
  });

  it('uses opens (also relative to the enclosing namespaces) after the namespaces', () => {
    const out = resolveRefs([
      decl('Nat.succ_le'),
      decl('Outer.Inner.helper'),
      decl('Outer.user', ['succ_le', 'helper'], { namespaces: ['Outer'], opens: ['Nat', 'Inner'] }),
    ]);
    expect(refsOf(out, 'Outer.user')).toEqual(['Nat.succ_le', 'Outer.Inner.helper']);
  });

  it('resolves _root_, @-prefixed and generalized field notation, drops locals and self', () => {
    const scope = { namespaces: ['X'], opens: [] };
    const out = resolveRefs([
      decl('X.le_rfl'),
      decl('le_rfl'),
      decl('Nat.succ_le_iff'),
      decl('X.me', ['_root_.le_rfl', 'le_rfl.trans', 'Nat.succ_le_iff.mp', 'h.trans', 'x', 'me', 'X.me', '@le_rfl'], scope),
    ]);
    expect(refsOf(out, 'X.me')).toEqual(['le_rfl', 'X.le_rfl', 'Nat.succ_le_iff']);
  });

  it('resolves anonymous-constructor refs through the scope only', () => {
    const out = resolveRefs([
      decl('Tree.leaf', [], undefined, { kind: 'constructor', origin: 'Tree' }),
      decl('Tree.depth', ['.leaf', '.node'], { namespaces: ['Tree'], opens: [] }),
      decl('other', ['.leaf']),
    ]);
    expect(refsOf(out, 'Tree.depth')).toEqual(['Tree.leaf']);
    expect(refsOf(out, 'other')).toEqual([]);
  });

  it('strips scope, keeps order and record fields, and dedupes refs', () => {
    const out = resolveRefs([decl('b', ['a', 'a', 'a']), decl('a', ['b'])]);
    expect(out.map((d) => d.name)).toEqual(['b', 'a']);
    expect(out[0]).not.toHaveProperty('scope');
    expect(out[0].refs).toEqual(['a']);
    expect(out[0]).toMatchObject({ kind: 'theorem', module: 'M', statement: 'theorem b' });
  });

  it('keeps one record per name, preferring explicit over generated declarations', () => {
    const out = resolveRefs([
      decl('add_twin', [], undefined, { origin: 'mul_twin', goal: 'generated' }),
      decl('mul_twin'),
      decl('add_twin', [], undefined, { goal: 'explicit' }),
      decl('mul_twin', [], undefined, { goal: 'second copy' }),
    ]);
    expect(out.map((d) => [d.name, d.goal])).toEqual([
      ['mul_twin', ''],
      ['add_twin', 'explicit'],
    ]);
  });

  it('redirects export aliases to their targets and drops the alias records', () => {
    const src = [
      'class MulZeroClass (M : Type*) where',
      '  mul_zero : ∀ a : M, a * 0 = 0',
      'export MulZeroClass (mul_zero)',
      'theorem user (a : ℕ) : a * 0 = 0 := mul_zero a',
    ].join('\n');
    const out = resolveRefs(extractLean(src, 'E.lean', 'E').decls);
    expect(out.some((d) => d.name === 'mul_zero')).toBe(false);
    expect(refsOf(out, 'user')).toEqual(['MulZeroClass.mul_zero']);
  });

  it('resolves an extracted fixture end to end', () => {
    const text = readFileSync(new URL('../fixtures/lean/Scopes.lean', import.meta.url), 'utf8');
    const out = resolveRefs(extractLean(text, 'Scopes.lean', 'Scopes').decls);
    expect(refsOf(out, 'Alpha.Beta.Delta.deltaDef')).toEqual(['Alpha.Beta.first_thm']);
    expect(refsOf(out, 'Alpha.Beta.first_thm')).toEqual([]);
  });

  it('resolves alias origins to full names', () => {
    const out = resolveRefs(
      extractLean(['namespace N', 'theorem foo_iff : True ↔ True := Iff.rfl', 'alias ⟨mp, _⟩ := foo_iff', 'end N'].join('\n'), 'A.lean', 'A').decls,
    );
    expect(out.find((d) => d.name === 'N.mp')).toMatchObject({ origin: 'N.foo_iff', refs: ['N.foo_iff'] });
  });

  // speed is the bench's business (index build time); this checks the scoped lookup at scale
  it('resolves 20k declarations with 20 refs each through their scopes', () => {
    const decls: ExtractedDecl[] = [];
    const scopes: Scope[] = [];
    for (let s = 0; s < 500; s++) scopes.push({ namespaces: [`NS${s}.Sub`, `NS${s}`], opens: ['Common', `Open${s % 7}`] });
    for (let i = 0; i < 20_000; i++) {
      const refs: string[] = [];
      for (let r = 0; r < 20; r++) refs.push(r % 3 === 0 ? `local${r}` : `lemma${(i * 7 + r * 13) % 20_000}`);
      decls.push(decl(`NS${i % 500}.lemma${i}`, refs, scopes[i % 500]));
    }
    const out = resolveRefs(decls);
    expect(out).toHaveLength(20_000);
    // `lemma${j}` is declared in NS${j % 500} only, so it resolves exactly from declarations of that namespace
    let expected = 0;
    let resolved = 0;
    out.forEach((d, i) => {
      const js = new Set(Array.from({ length: 20 }, (_, r) => r).filter((r) => r % 3 !== 0).map((r) => (i * 7 + r * 13) % 20_000));
      expected += [...js].filter((j) => j % 500 === i % 500 && j !== i).length; // never itself
      resolved += d.refs.length;
      for (const r of d.refs) expect(r.startsWith(`NS${i % 500}.lemma`)).toBe(true);
    });
    expect(expected).toBeGreaterThan(100);
    expect(resolved).toBe(expected);
  });
});

describe('Isabelle definitions', () => {
  it('resolves `foo_def` to the definition `foo`', async () => {
    const { extractIsabelle } = await import('../../indexes/src/extract/isabelle/extractor.js');
    const text = 'theory T imports Main begin\ndefinition double :: "nat ⇒ nat" where "double n = n + n"\nlemma double_twice: "double n = 2 * n"\n  by (simp add: double_def)\nend\n';
    const out = resolveRefs(extractIsabelle(text, 'T.thy', 'T').decls);
    expect(out.find((r) => r.name === 'T.double_twice')!.refs).toEqual(['T.double']);
  });
});
