import { describe, expect, it } from 'vitest';
import { DEFAULT_WEIGHTS, fuse, weightsFor } from '../../server/src/engine/fusion.js';
import { weightsOption } from '../../server/src/cli/args.js';
import { parseQuery } from '../../server/src/engine/query.js';

describe('fusion weights per kind of query', () => {
  it('gives an Isabelle goal its own weights: no dense (Mathlib-trained encoder), more locality', () => {
    const q = parseQuery('goal (1 subgoal):\n 1. ⟦x ∈ A; A ⊆ B⟧ ⟹ x ∈ B');
    expect(q.style).toBe('isabelle-state');
    const w = weightsFor(DEFAULT_WEIGHTS, q.style);
    expect(w).toBe(DEFAULT_WEIGHTS.isabelle);
    expect(w.dense).toBe(0);
    expect(w.local).toBeGreaterThan(DEFAULT_WEIGHTS.formal.local);
  });
  it('keeps the Lean weights for Lean states and the text weights for text', () => {
    expect(weightsFor(DEFAULT_WEIGHTS, parseQuery('x : ℕ\n⊢ x + 0 = x').style)).toBe(DEFAULT_WEIGHTS.formal);
    expect(weightsFor(DEFAULT_WEIGHTS, 'text', 'english')).toBe(DEFAULT_WEIGHTS.english);
    expect(weightsFor(DEFAULT_WEIGHTS, 'text', 'formula')).toBe(DEFAULT_WEIGHTS.formula);
    expect(weightsFor(DEFAULT_WEIGHTS, 'text', 'mixed')).toBe(DEFAULT_WEIGHTS.formula);
    expect(weightsFor(DEFAULT_WEIGHTS, 'text', 'name')).toBe(DEFAULT_WEIGHTS.text);
    expect(weightsFor(DEFAULT_WEIGHTS, 'text')).toBe(DEFAULT_WEIGHTS.text);
  });
  it('gives Lean states and statements in a Lake project\'s automatic index the project weights, text and Isabelle theirs', () => {
    const state = parseQuery('x : ℕ\n⊢ x + 0 = x').style;
    expect(weightsFor(DEFAULT_WEIGHTS, state, undefined, true)).toBe(DEFAULT_WEIGHTS.project);
    expect(weightsFor(DEFAULT_WEIGHTS, 'lean-statement', undefined, true)).toBe(DEFAULT_WEIGHTS.project);
    expect(weightsFor(DEFAULT_WEIGHTS, 'text', 'english', true)).toBe(DEFAULT_WEIGHTS.english);
    expect(weightsFor(DEFAULT_WEIGHTS, 'isabelle-state', undefined, true)).toBe(DEFAULT_WEIGHTS.isabelle);
    // lighter BM25 than in a library: the project's own lemmas share its words
    expect(DEFAULT_WEIGHTS.project.sparse).toBeLessThan(DEFAULT_WEIGHTS.formal.sparse);
  });
  it('weighs the project\'s own votes in a Lake project\'s automatic index only', () => {
    expect(DEFAULT_WEIGHTS.project.own).toBeGreaterThan(0);
    for (const k of ['formal', 'isabelle', 'text', 'formula', 'english'] as const) expect(DEFAULT_WEIGHTS[k].own).toBe(0);
    // scaled by the pool's largest own vote, like graph votes
    const [a, b, c] = fuse([{ own: 4, uses: 0 }, { own: 2, uses: 0 }, { uses: 0 }], 'hybrid', 0, { ...DEFAULT_WEIGHTS.formal, dense: 0, sparse: 0, local: 0, own: 0.5 });
    expect([a, b, c]).toEqual([0.5, 0.25, 0]);
  });
  it('--weights takes the own votes as its tenth number, the usage model as its eleventh, MaSh as its twelfth, and no more', () => {
    expect(weightsOption('0.3,0.9,0.2,0.8,0.3,0,0,0,0.3,0')!.project.own).toBe(0);
    expect(weightsOption('0.3,0.9,0.2')!.project.own).toBe(DEFAULT_WEIGHTS.project.own);
    expect(weightsOption('0.3,0.9,0.2,0.8,0.3,0,0,0,0.3,0,0.4')!.formal.usage).toBe(0.4);
    expect(weightsOption('0.3,0.9,0.2')!.formal.usage).toBe(DEFAULT_WEIGHTS.formal.usage);
    expect(weightsOption('0.3,0.9,0.2,0.8,0.3,0,0,0,0.3,0,0,0.7')!.project.mash).toBe(0.7);
    expect(weightsOption('0.3,0.9,0.2')!.formal.mash).toBe(DEFAULT_WEIGHTS.formal.mash);
    expect(() => weightsOption('0.3,0.9,0.2,0.8,0.3,0,0,0,0.3,0,1,1,1')).toThrow(/three to twelve/);
  });
  it('scales the MaSh score (any sign) min–max over the pool, and ignores it at weight 0', () => {
    const cands = [{ mash: -10, uses: 0 }, { mash: -30, uses: 0 }, { mash: 10, uses: 0 }, { uses: 0 }];
    const only = { ...DEFAULT_WEIGHTS.formal, dense: 0, sparse: 0, prior: 0, local: 0 };
    expect(fuse(cands, 'hybrid', 0, { ...only, mash: 0.5 })).toEqual([0.25, 0, 0.5, 0]);
    expect(fuse(cands, 'hybrid', 0, only)).toEqual([0, 0, 0, 0]);
  });
  it('scales the usage model\'s score by the pool\'s largest', () => {
    const [a, b, c] = fuse([{ usage: 4, uses: 0 }, { usage: 1, uses: 0 }, { uses: 0 }], 'hybrid', 0, { ...DEFAULT_WEIGHTS.formal, dense: 0, sparse: 0, local: 0, usage: 0.5 });
    expect([a, b, c]).toEqual([0.5, 0.125, 0]);
  });
  it('--weights sets the Isabelle weights too', () => {
    const w = weightsOption('0.5,0.5,0.1,0.2,0.4')!;
    expect(w.isabelle).toMatchObject({ dense: 0.5, sparse: 0.5, prior: 0.1, graph: 0.2, local: 0.4 });
    expect(w.project).toMatchObject({ dense: 0.5, sparse: 0.5, prior: 0.1, graph: 0.2, local: 0.4 });
  });
});
