/**
 * MaSh's naive Bayes fitted at index time (indexes/src/mash.ts): the counts on a tiny
 * hand-made corpus, the cap on a feature's postings, and the score by hand.
 */
import { describe, expect, it } from 'vitest';
import { fitMash, mashScores, MASH_SIGMA } from '../../indexes/src/mash.js';
import { Bm25Index } from '../../indexes/src/sparse/bm25.js';
import type { ProofGraph } from '../../indexes/src/graph.js';

// statements 0..4: 0 and 1 are library lemmas used by nothing's features but proofs;
// 2 and 3 have feature "ring" and their proofs use 0; 4 has feature "order" and uses 1 and 0
const field = Bm25Index.build([['add'], ['le'], ['ring', 'add'], ['ring'], ['order', 'le']]);
const graph: ProofGraph = { offsets: Uint32Array.from([0, 0, 0, 1, 2, 4]), targets: Uint32Array.from([0, 0, 1, 0]) };
const fid = (term: string) => field.arrays.vocab.find(term)!;

describe('MaSh fitted at index time', () => {
  it('counts t(φ) and s(φ, f), every statement a use of itself', () => {
    const m = fitMash(field, graph);
    expect(Array.from(m.t)).toEqual([4, 2, 1, 1, 1]);
    const post = (term: string) => {
      const f = fid(term);
      return Array.from(m.premise.subarray(m.offsets[f]!, m.offsets[f + 1]!), (p, i) => [p, m.count[m.offsets[f]! + i]!]);
    };
    // "ring": statements 2 and 3 (themselves once each), both use 0
    expect(post('ring')).toEqual([[0, 2], [2, 1], [3, 1]]);
    expect(post('order')).toEqual([[0, 1], [1, 1], [4, 1]]);
    // capped: the strongest first
    const c = fitMash(field, graph, 1);
    expect(c.premise[c.offsets[fid('ring')]!]).toBe(0);
    expect(c.offsets[fid('ring') + 1]! - c.offsets[fid('ring')]!).toBe(1);
  });

  it('scores with the σ weights, reading only the query features’ postings', () => {
    const m = fitMash(field, graph);
    const { prior, seen, unseen } = MASH_SIGMA;
    const q = new Map([[fid('ring'), 2], [fid('order'), 1]]);
    const s = mashScores(m, q);
    // 0: seen with both features; 1: with "order" only; 2: with "ring" only
    expect(s.get(0)).toBeCloseTo(prior * Math.log(4) + 2 * Math.log((seen * 2) / 4) + 1 * Math.log((seen * 1) / 4), 9);
    expect(s.get(1)).toBeCloseTo(prior * Math.log(2) + 2 * unseen + 1 * Math.log((seen * 1) / 2), 9);
    expect(s.get(2)).toBeCloseTo(prior * Math.log(1) + 2 * Math.log(seen) + 1 * unseen, 9);
    // a premise no query feature's posting holds is not scored
    expect(s.has(4) ? 'order' : 'none').toBe('order');
    expect(mashScores(m, new Map([[fid('le'), 1]])).has(2)).toBe(false);
    // the best is the workhorse both features' proofs use
    expect([...s].sort((a, b) => b[1] - a[1])[0]![0]).toBe(0);
  });

  it('takes an excluded statement’s proof out of the counts: as if it had never been proved', () => {
    const m = fitMash(field, graph);
    const q = new Map([[fid('ring'), 2], [fid('add'), 1], [fid('order'), 0.5]]);
    // statement 2 ("ring", "add"; uses 0) excluded
    const two = { premises: new Set([2, 0]), has: (f: number) => f === fid('ring') || f === fid('add') };
    const got = mashScores(m, q, MASH_SIGMA, [two]);
    // the corpus without statement 2's features and proof (t(2) apart: 2 itself is never a candidate then)
    const without = Bm25Index.build([['add'], ['le'], [], ['ring'], ['order', 'le']]);
    const g2: ProofGraph = { offsets: Uint32Array.from([0, 0, 0, 0, 1, 3]), targets: Uint32Array.from([0, 1, 0]) };
    const m2 = fitMash(without, g2);
    const id2 = (t: string) => without.arrays.vocab.find(t)!;
    const want = mashScores(m2, new Map([[id2('ring'), 2], [id2('add'), 1], [id2('order'), 0.5]]));
    for (const p of [0, 1, 3, 4]) expect(got.get(p)).toBeCloseTo(want.get(p)!, 9);
    expect(mashScores(m, q).get(0)).not.toBeCloseTo(want.get(0)!, 3);
  });
});
