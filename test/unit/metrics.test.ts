import { describe, expect, it } from 'vitest';
import { groupRanks, meanMetrics, queryMetrics } from '../../server/src/eval/metrics.js';

describe('metrics', () => {
  it('ranks gold groups by their first satisfied alternative', () => {
    expect(groupRanks(['a', 'b', 'c'], [['c'], ['x', 'b'], ['zz']])).toEqual([3, 2, Infinity]);
  });

  it('computes recall, nDCG and MRR', () => {
    const m = queryMetrics([1, 3]);
    expect(m['R@1']).toBe(0.5);
    expect(m['R@5']).toBe(1);
    expect(m.MRR).toBe(1);
    expect(m['nDCG@10']).toBeCloseTo((1 + 1 / Math.log2(4)) / (1 + 1 / Math.log2(3)));
    expect(queryMetrics([Infinity]).MRR).toBe(0);
  });

  it('reports R@16 and R@32 (LeanHammer\'s selector sizes)', () => {
    const m = queryMetrics([12, 20, 40, 90]);
    expect([m['R@10'], m['R@16'], m['R@32'], m['R@100']]).toEqual([0, 0.25, 0.5, 1]);
  });

  it('averages over queries', () => {
    expect(meanMetrics([queryMetrics([1]), queryMetrics([Infinity])])['R@10']).toBe(0.5);
  });
});
