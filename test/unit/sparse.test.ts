import { describe, expect, it } from 'vitest';
import { Bm25Index, idf } from '../../indexes/src/sparse/bm25.js';
import { identParts, splitIdent, terms } from '../../indexes/src/sparse/terms.js';
import { topByScore } from '../../server/src/engine/segment.js';

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

  it('splits an identifier of a million parts (a hostile new premise) without overflowing the stack', () => {
    const t = terms(`theorem ${'ab_'.repeat(1_000_000)}`);
    expect(t.filter((x) => x === 'ab')).toHaveLength(1_000_000);
  });

  it('remembers real identifiers, not megabyte ones (requests would grow the memo without bound)', () => {
    expect(identParts('succ_le_iff')).toBe(identParts('succ_le_iff')); // the remembered array
    const huge = `a_${'b'.repeat(300)}`;
    expect(identParts(huge)).toEqual(['a', 'b'.repeat(300)]);
    expect(identParts(huge)).not.toBe(identParts(huge));
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
    index.accumulate(new Map([['*', idf(index.df('*'), 3)], ['comm', idf(2, 3)]]), acc, new Int32Array(3));
    expect(acc[1]).toBeGreaterThan(acc[0]!);
    expect(acc[0]).toBeGreaterThan(acc[2]!);
    expect(acc[2]).toBe(0);
  });

  it('scores each document once, and its top: best first, ties to the lower id, deleted and zero scores left out', () => {
    const many = Bm25Index.build(Array.from({ length: 500 }, (_, d) => [`t${d % 7}`, `u${d % 11}`, `t${d % 7}`, d % 3 ? 'v' : 'w']));
    const acc = new Float32Array(500);
    const touched = new Int32Array(500);
    const count = many.accumulate(new Map([['t3', 1], ['u5', 0.5], ['w', 0.25]]), acc, touched);
    // every scored document, once
    const hit = touched.subarray(0, count);
    expect([...hit].sort((a, b) => a - b)).toEqual([...acc.keys()].filter((d) => acc[d]! > 0));
    const deleted = new Uint8Array(500);
    deleted[3] = 1;
    // the reference: every id, best score first, ties to the lower id
    const full = [...acc.keys()].filter((d) => acc[d]! > 0 && !deleted[d]).sort((a, b) => acc[b]! - acc[a]! || a - b);
    expect(full.length).toBeGreaterThan(100);
    for (const n of [1, 5, 40, 400]) {
      expect(topByScore(acc, deleted, n, Int32Array.from(acc.keys()))).toEqual(full.slice(0, n));
      expect(topByScore(acc, deleted, n, hit)).toEqual(full.slice(0, n));
      expect(topByScore(acc, deleted, n, hit.slice().reverse())).toEqual(full.slice(0, n));
    }
  });
});
