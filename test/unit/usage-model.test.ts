import { describe, expect, it } from 'vitest';
import { Bm25Index } from '../../indexes/src/sparse/bm25.js';
import { Engine } from '../../server/src/engine/engine.js';
import { DEFAULT_WEIGHTS } from '../../server/src/engine/fusion.js';
import { topKeys, usageScores, type UsageSegment } from '../../server/src/engine/usage-model.js';
import { rec, RECORDS, segmentOf } from './engine-helpers.js';

/** Four statements (their terms) and the premises (keys 10, 11, 12) their proofs use. */
const DOCS = [
  { terms: ['norm', 'add'], uses: [10] },
  { terms: ['norm', 'mul'], uses: [10, 11] },
  { terms: ['card', 'finset'], uses: [12] },
  { terms: ['card', 'add'], uses: [12, 11] },
];
const field = Bm25Index.build(DOCS.map((d) => d.terms));
const seg = (mayVote = (_: number) => true): UsageSegment => ({ field, mayVote, uses: (d) => DOCS[d]!.uses });
const ranked = (terms: Record<string, number>, s = seg(), budget?: number) => topKeys(usageScores(new Map(Object.entries(terms)), [s], budget), 10);

describe('usageScores', () => {
  it('ranks first the premise the proofs of statements sharing the query\'s terms use most', () => {
    expect(ranked({ norm: 1 })).toEqual([10, 11]);
    expect(ranked({ card: 1 })).toEqual([12, 11]);
  });

  it('weighs each term by its query weight (idf): a rare term outweighs a common one', () => {
    expect(ranked({ norm: 0.1, card: 2 })[0]).toBe(12);
    expect(ranked({ norm: 2, card: 0.1 })[0]).toBe(10);
  });

  it('counts a term once per statement, damped: ln(1 + statements)', () => {
    const s = usageScores(new Map([['norm', 2]]), [seg()]);
    expect(s.get(10)).toBeCloseTo(2 * Math.log(3));
    expect(s.get(11)).toBeCloseTo(2 * Math.log(2));
  });

  it('lets no excluded statement\'s proof vote', () => {
    expect(ranked({ card: 1 }, seg((d) => d !== 2 && d !== 3))).toEqual([]);
    expect(ranked({ add: 1 }, seg((d) => d !== 3))).toEqual([10]);
  });

  it('reads the rarest terms first, within a budget of statements', () => {
    // `finset` (1 statement) fits a budget of 1, `card` (2) does not
    expect(ranked({ card: 1, finset: 1 }, seg(), 1)).toEqual([12]);
    expect(ranked({ unknown: 1 })).toEqual([]);
  });
});

/** `pow_le_pow` shares no term with the query; only proofs of statements with `qux` use it. */
const LIB = [
  ...RECORDS,
  rec('pow_le_pow', ['(a : α)'], 'a ^ 2 ≤ a ^ 3'),
  rec('qux_one', ['(x : ℝ)'], 'qux x = 1', ['pow_le_pow']),
  rec('qux_two', ['(x : ℝ)'], 'qux (x + 1) ≠ 0', ['pow_le_pow']),
];
const QUERY = 'y : ℝ\n⊢ qux y ∈ S';
const hit = async (usage: number, exclude?: string[]) => {
  const weights = { ...DEFAULT_WEIGHTS, formal: { ...DEFAULT_WEIGHTS.formal, graph: 0, usage } };
  return (await new Engine([segmentOf(LIB)], { weights }).search(QUERY, { k: 30, mode: 'hybrid', exclude })).find((h) => h.name === 'pow_le_pow');
};

describe('Engine usage generator (hybrid)', () => {
  it('brings in a premise that the proofs of statements sharing a term use, with its score as a part', async () => {
    const h = await hit(0.5);
    expect(h?.parts.usage).toBeGreaterThan(0);
  });

  it('lets no excluded theorem\'s proof vote (the theorem being proved)', async () => {
    expect((await hit(0.5, ['qux_one']))?.parts.usage).toBeGreaterThan(0);
    expect((await hit(0.5, ['qux_one', 'qux_two']))?.parts.usage).toBeUndefined();
  });

  it('is off at weight 0 (the default): no candidate, no part', async () => {
    expect(DEFAULT_WEIGHTS.formal.usage).toBe(0);
    expect((await hit(0))?.parts.usage).toBeUndefined();
  });
});
