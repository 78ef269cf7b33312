import { describe, expect, it } from 'vitest';
import { toInfos } from '../../indexes/src/graph.js';
import { parseQuery } from '../../server/src/engine/query.js';
import {
  FEATURE_COUNT,
  FEATURE_NAMES,
  featureMatrix,
  features,
  headRelation,
  premiseClasses,
  queryClasses,
  type RerankCandidate,
} from '../../server/src/engine/rerank-features.js';
import type { ParsedQuery } from '../../server/src/engine/types.js';
import { rec } from './engine-helpers.js';

function cand(name: string, args: string[], goal: string, score: number, extra: Partial<RerankCandidate['parts']> = {}, kind = 'theorem'): RerankCandidate {
  const info = { ...toInfos([rec(name, args, goal)])[0]!, kind } as RerankCandidate['info'];
  return { info, parts: { sparse: score, prior: 0, ...extra }, score };
}

const q = (text: string): ParsedQuery => parseQuery(text);
const f = (query: ParsedQuery, c: RerankCandidate, pool: RerankCandidate[]) => {
  const row = features(query, c, pool);
  return (name: string) => {
    const i = FEATURE_NAMES.indexOf(name);
    if (i < 0) throw new Error(`no feature ${name}`);
    return row[i]!;
  };
};

describe('headRelation', () => {
  it.each([
    ['a + b = b + a', '='],
    ['a ≠ b', '≠'],
    ['¬a = b', '≠'],
    ['¬a < b ↔ b ≤ a', '↔'],
    ['a ≤ b', '≤'],
    ['b ≥ a', '≤'],
    ['a < b → b < c → a < c', '→'],
    ['x ∈ s ↔ x ∈ t', '↔'],
    ['s ⊆ t', '⊆'],
    ['a ∣ a * b', '∣'],
    ['(a = b) ∨ c', 'none'],
    ['∀ x ∈ s, f x = g x', 'none'],
    ['∑ i ∈ s, f i = ∑ i ∈ s, g i', '='],
    ['∃ x, x = a', 'none'],
    ['Continuous f', 'none'],
  ])('%s → %s', (goal, rel) => {
    expect(headRelation(goal).rel).toBe(rel);
  });
});

describe('type classes', () => {
  it('reads instance binders and instance hypotheses', () => {
    expect([...premiseClasses(['{α : Type*}', '[CommRing α]', '[inst : Module α M]', '(x : α)'])]).toEqual(['CommRing', 'Module']);
    expect([...queryClasses(['R : Type u_1', 'inst✝¹ : CommSemiring R', 'inst✝ : CharP R 2', 'x y : R'])]).toEqual([
      'CommSemiring',
      'CharP',
    ]);
  });
});

describe('features', () => {
  const query = q('α : Type u_1\ninst✝ : AddCommMonoid α\na b : α\n⊢ a + b = b + a');
  const addComm = cand('add_comm', ['{α : Type*}', '[AddCommMonoid α]', '(a b : α)'], 'a + b = b + a', 4);
  const leTrans = cand('le_trans', ['[Preorder α]', '(h₁ : a ≤ b)', '(h₂ : b ≤ c)'], 'a ≤ c', 8);
  const mulComm = cand('mul_comm', ['[CommMagma G]', '(a b : G)'], 'a * b = b * a', 2, {}, 'def');
  const pool = [leTrans, addComm, mulComm];

  it('has one value per feature name', () => {
    expect(features(query, addComm, pool)).toHaveLength(FEATURE_COUNT);
    expect(new Set(FEATURE_NAMES).size).toBe(FEATURE_COUNT);
    const m = featureMatrix(query, pool);
    expect(m).toHaveLength(pool.length * FEATURE_COUNT);
    expect(Array.from(m.subarray(FEATURE_COUNT, 2 * FEATURE_COUNT))).toEqual(Array.from(features(query, addComm, pool)));
  });

  it('sees through leading ∀ binders', () => {
    const congr = cand('Finset.sum_congr', ['(h : s₁ = s₂)'], '(∀ x ∈ s₂, f x = g x) → s₁.sum f = s₂.sum g', 1);
    const ext = cand('funext_iff', [], '∀ {f g : α → β}, f = g ↔ ∀ x, f x = g x', 1);
    expect(f(query, congr, [congr])('prel_→')).toBe(1);
    expect(f(query, ext, [ext])('prel_↔')).toBe(1);
    expect(f(q('⊢ ∀ n : ℕ, n + 0 = n'), addComm, pool)('rel_match')).toBe(1);
  });

  it('matches head relations', () => {
    expect(f(query, addComm, pool)('rel_match')).toBe(1);
    expect(f(query, addComm, pool)('qrel_=')).toBe(1);
    expect(f(query, addComm, pool)('rewritable')).toBe(1);
    expect(f(query, leTrans, pool)('rel_match')).toBe(0);
    expect(f(query, leTrans, pool)('prel_≤')).toBe(1);
    expect(f(query, leTrans, pool)('rel_rewrite_ok')).toBe(0);
  });

  it('measures symbol and identifier overlap', () => {
    expect(f(query, addComm, pool)('sym_jaccard_goal')).toBe(1); // {+, =} both sides
    expect(f(query, mulComm, pool)('sym_jaccard_goal')).toBeCloseTo(1 / 3); // {+, =} vs {*, =}
    expect(f(query, leTrans, pool)('sym_jaccard_goal')).toBe(0);
    // `add_comm`: the goal is all symbols, but `AddCommMonoid` in the context spells both parts
    expect(f(query, addComm, pool)('name_cover_goal')).toBe(0);
    expect(f(query, addComm, pool)('name_cover_state')).toBe(1);
    expect(f(query, leTrans, pool)('name_cover_state')).toBe(0);
    const named = q('h : Continuous f\n⊢ Continuous (g ∘ f)');
    const comp = cand('Continuous.comp', ['(hg : Continuous g)', '(hf : Continuous f)'], 'Continuous (g ∘ f)', 1);
    expect(f(named, comp, [comp])('name_cover_goal')).toBe(0.5); // `continuous` yes, `comp` no
    expect(f(named, comp, [comp])('id_cover_goal')).toBe(1);
    expect(f(named, comp, [comp])('id_jaccard_hyps')).toBe(1);
  });

  it('matches type classes of the state and the premise', () => {
    expect(f(query, addComm, pool)('class_match')).toBe(1);
    expect(f(query, addComm, pool)('class_all')).toBe(1);
    expect(f(query, leTrans, pool)('class_match')).toBe(0);
    expect(f(query, leTrans, pool)('class_count')).toBeCloseTo(Math.log1p(1));
  });

  it('checks whether a rewrite side occurs in the goal', () => {
    const goal = q('x : ℕ\n⊢ 2 * x = x + x + 0');
    const twoMul = cand('two_mul', ['(a : α)'], '2 * a = a + a', 1);
    const addZero = cand('add_zero', ['(a : α)'], 'a + 0 = a', 1);
    const powTwo = cand('sq', ['(a : α)'], 'a ^ 2 = a * a', 1);
    const p = [twoMul, addZero, powTwo];
    expect(f(goal, twoMul, p)('lhs_cover')).toBe(1);
    expect(f(goal, addZero, p)('lhs_cover')).toBe(1);
    expect(f(goal, powTwo, p)('lhs_cover')).toBe(0.5); // `^` is not in the goal, `2` is
    expect(f(goal, powTwo, p)('rhs_cover')).toBe(1);
  });

  it('places first-stage scores within the pool', () => {
    expect(f(query, leTrans, pool)('fused_rank')).toBe(0);
    expect(f(query, mulComm, pool)('fused_rank')).toBe(1);
    expect(f(query, leTrans, pool)('fused_norm')).toBe(1);
    expect(f(query, addComm, pool)('sparse_norm')).toBe(0.5);
    expect(f(query, addComm, pool)('has_dense')).toBe(0);
    const dense = [cand('a', [], 'x = x', 1, { dense: 0.9 }), cand('b', [], 'x = x', 2, { dense: 0.5 })];
    expect(f(query, dense[1]!, dense)('dense_norm')).toBe(0);
    expect(f(query, dense[1]!, dense)('dense_rank')).toBe(1);
    expect(f(query, dense[1]!, dense)('dense_gap')).toBeCloseTo(0.4);
  });

  it('describes the pool: lexical strength, locality and whether new premises score high lexically', () => {
    const used = (c: RerankCandidate, uses: number): RerankCandidate => ({ ...c, info: { ...c.info, uses } });
    const popular = used(cand('popular', [], 'a + b = b + a', 8), 99);
    const fresh = used(cand('fresh', [], 'a + b = b + a', 4, { local: 1 }), 0);
    const unmatched = used(cand('unmatched', [], 'a = a', 1, { sparse: 0 }), 9);
    const p = [popular, fresh, unmatched];
    const g = (c: RerankCandidate) => f(query, c, p);
    expect(g(fresh)('local')).toBe(1);
    expect(g(popular)('local')).toBe(0);
    expect(g(popular)('sparse_log')).toBeCloseTo(Math.log1p(8));
    expect(g(fresh)('pool_sparse_max')).toBeCloseTo(Math.log1p(8));
    expect(g(fresh)('pool_sparse_found')).toBeCloseTo(2 / 3);
    const mean = (Math.log1p(99) + Math.log1p(0) + Math.log1p(9)) / 3;
    expect(g(unmatched)('pool_mean_log_uses')).toBeCloseTo(mean);
    expect(g(popular)('log_uses_rel')).toBeCloseTo(Math.log1p(99) - mean);
    expect(g(popular)('log_uses_rank')).toBe(0);
    expect(g(fresh)('log_uses_rank')).toBe(1);
    expect(g(fresh)('uses_low')).toBe(1);
    expect(g(popular)('uses_low')).toBe(0);
    // a new premise with half the best lexical score: its own flag and the pool's
    expect(g(fresh)('low_use_lexical')).toBe(0.5);
    expect(g(popular)('low_use_lexical')).toBe(0);
    expect(g(popular)('pool_low_use_lexmax')).toBe(0.5);
    expect(g(popular)('pool_dense_max')).toBe(0); // no dense scores in this pool
    const withDense = [used(cand('d', [], 'x = x', 1, { dense: 0.7 }), 1), used(cand('e', [], 'x = x', 2, { dense: 0.2 }), 1)];
    expect(f(query, withDense[1]!, withDense)('pool_dense_max')).toBeCloseTo(0.7);
    expect(f(query, withDense[1]!, withDense)('pool_low_use_lexmax')).toBe(1);
  });

  it('encodes kinds one-hot', () => {
    expect(f(query, mulComm, pool)('kind_def')).toBe(1);
    expect(f(query, mulComm, pool)('kind_theorem')).toBe(0);
    expect(f(query, cand('x', [], 'T', 1, {}, 'constructor'), pool)('kind_field')).toBe(1);
  });

  it('is deterministic and finite', () => {
    const a = featureMatrix(query, pool);
    const b = featureMatrix(query, pool);
    expect(Array.from(a)).toEqual(Array.from(b));
    expect(Array.from(a).every(Number.isFinite)).toBe(true);
    const empty = featureMatrix(q(''), [cand('e', [], '', 0)]);
    expect(Array.from(empty).every(Number.isFinite)).toBe(true);
  });
});
