import { describe, expect, it } from 'vitest';
import { Bm25Index, idf } from '../../indexes/src/sparse/bm25.js';
import { splitIdent, terms } from '../../indexes/src/sparse/terms.js';

describe('terms', () => {
  it('splits Lean names on dots, underscores and camelCase, keeping the last component', () => {
    const t = terms('Nat.succ_le_iff');
    expect(t).toEqual(expect.arrayContaining(['nat', 'succ', 'le', 'iff', 'succ_le_iff', 'nat.succ_le_iff']));
    expect(splitIdent('SmallCategory')).toEqual(['small', 'category']);
    expect(splitIdent('HasFDerivAt')).toEqual(['has', 'f', 'deriv', 'at']);
  });

  it('keeps mathematical symbols as terms and drops bound single letters', () => {
    const t = terms('a b : ℕ\n⊢ a + b ≤ ∑ i, f i⁻¹');
    expect(t).toEqual(expect.arrayContaining(['ℕ', '⊢', '+', '≤', '∑', '⁻¹']));
    expect(t).not.toContain('a');
    expect(t).not.toContain('b');
  });

  it('lowercases English and removes stop words', () => {
    expect(terms('The Triangle inequality of absolute values')).toEqual(['triangle', 'inequality', 'absolute', 'values']);
  });

  it('strips inaccessible-name daggers and hypothesis subscripts', () => {
    expect(terms('inst✝ : Group G')).toEqual(['inst', 'group']);
    expect(terms('h₀')).toEqual([]);
  });
});

describe('Bm25Index', () => {
  const docs = [terms('add_comm a + b = b + a'), terms('mul_comm a * b = b * a'), terms('le_refl a ≤ a')];
  const index = Bm25Index.build(docs);

  it('counts document frequencies', () => {
    expect(index.df('comm')).toBe(2);
    expect(index.df('≤')).toBe(1);
    expect(index.df('absent')).toBe(0);
  });

  it('scores the document sharing the rare term highest', () => {
    const acc = new Float32Array(3);
    index.accumulate(new Map([['*', idf(index.df('*'), 3)], ['comm', idf(2, 3)]]), acc);
    expect(acc[1]).toBeGreaterThan(acc[0]!);
    expect(acc[0]).toBeGreaterThan(acc[2]!);
    expect(acc[2]).toBe(0);
  });
});
