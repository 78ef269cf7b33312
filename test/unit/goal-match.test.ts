/**
 * The goal-match signal (issue 26): a premise whose conclusion is the goal comes
 * first whatever its popularity, one that is the goal once its hypotheses are set
 * aside (an `apply` fit) comes before premises that match nothing. The matcher,
 * then the engine over indexed Lean premises and Isabelle facts.
 */
import { describe, expect, it } from 'vitest';
import type { PremiseRecord } from '../../indexes/src/extract/record.js';
import { Engine } from '../../server/src/engine/engine.js';
import { GOAL_APPLY, GOAL_EXACT, goalMatcher } from '../../server/src/engine/slot.js';
import { withNotation } from '../../server/src/engine/notation.js';
import { rec, segmentOf } from './engine-helpers.js';

const level = (goal: string, r: PremiseRecord) => goalMatcher(goal)(r);
const isa = (name: string, args: string[], goal: string, refs: string[] = []): PremiseRecord => ({
  ...rec(name, args, goal, refs),
  lang: 'isabelle',
  kind: 'lemma',
  module: 'Sample_Isa',
  file: 'Sample_Isa.thy',
  statement: `lemma ${name}: "${goal}"`,
});

describe('goalMatcher', () => {
  const mulComm = rec('mul_comm', ['(a b : α)'], 'a * b = b * a');

  it('exact: the conclusion is the goal up to renaming its binders and bound variables', () => {
    expect(level('x * y = y * x', mulComm)).toBe(GOAL_EXACT);
    expect(level('x * y + 7 = 7 + y * x', rec('my_glorp_lemma', ['(x y : ℕ)'], 'x * y + 7 = 7 + y * x'))).toBe(GOAL_EXACT);
    // the goal's own binders and the premise's ∀ are renamed too
    const small = rec('eventually_small', ['(f : ℕ → ℝ)'], '∀ ε > 0, ∃ N, |f N| < ε / 2');
    expect(level('∀ δ > 0, ∃ M, |g M| < δ / 2', small)).toBe(GOAL_EXACT);
    // a different constant is no match
    expect(level('x + y = y + x', mulComm)).toBe(0);
  });

  it('reads `ℕ` as `Nat`, `ℝ` as `Real`…, and drops coercion arrows', () => {
    const zeroAdd = rec('Nat.zero_add', ['(n : Nat)'], '(0 : Nat) + n = n');
    expect(level('(0 : ℕ) + m = m', zeroAdd)).toBe(GOAL_EXACT);
    expect(level('(0 : ℤ) + m = m', zeroAdd)).toBe(0);
    const castSucc = rec('Nat.cast_succ', ['(n : ℕ)'], '((n + 1 : ℕ) : ℝ) = n + 1');
    expect(level('((m + 1 : Nat) : Real) = m + 1', castSucc)).toBe(GOAL_EXACT);
    const printed = rec('cast_succ', ['(n : ℕ)'], '↑(n + 1) = ↑n + 1');
    expect(level('↑(m + 1) = ↑m + 1', printed)).toBe(GOAL_EXACT);
    expect(level('(m + 1) = m + 1', printed)).toBe(GOAL_EXACT);
  });

  it("reads a goal printed with pp.notation false (LeanHammer's, after withNotation) as the printer writes it with notation", () => {
    const glorp = rec('my_glorp_lemma', ['(x y : ℕ)'], 'x * y + 7 = 7 + y * x');
    expect(level(withNotation('Eq (HAdd.hAdd (HMul.hMul a b) 7) (HAdd.hAdd 7 (HMul.hMul b a))'), glorp)).toBe(GOAL_EXACT);
    const mulAdd = rec('mul_add', ['(a b c : α)'], 'a * (b + c) = a * b + a * c');
    expect(level(withNotation('Eq (HMul.hMul x (HAdd.hAdd y z)) (HAdd.hAdd (HMul.hMul x y) (HMul.hMul x z))'), mulAdd)).toBe(GOAL_EXACT);
    // parentheses where precedence needs them, and only there: `(x + y) * z` is not `x + y * z`
    expect(level(withNotation('Eq (HMul.hMul (HAdd.hAdd x y) z) (HAdd.hAdd (HMul.hMul x y) (HMul.hMul x z))'), mulAdd)).toBe(0);
    expect(level(withNotation('LE.le (f (HAdd.hAdd x 1)) 2'), rec('f_le', ['(n : ℕ)'], 'f (n + 1) ≤ 2'))).toBe(GOAL_EXACT);
    // deep nesting is read in bounded work
    expect(level('= ' + '(+ 1 '.repeat(3000) + 'x' + ')'.repeat(3000) + ' x', glorp)).toBe(0);
  });

  it('apply: the conclusion matches once the hypotheses are set aside, its binders standing for any term', () => {
    // an instantiation, not a renaming, where the premise's constants are most of the goal's
    const conjPow = rec('conj_pow', ['{a b : α}', '{i : ℕ}'], '(a * b * a⁻¹) ^ i = a * b ^ i * a⁻¹');
    expect(level('(x * y * x⁻¹) ^ Int.negSucc n = x * y ^ Int.negSucc n * x⁻¹', conjPow)).toBe(GOAL_APPLY);
    // …not where its variables stand for much of the goal (`div_pos` for `0 < 1 / gcd`)
    expect(level('(x + 1) * y = y * (x + 1)', mulComm)).toBe(0);
    expect(level('0 < 1 / gcd', rec('div_pos', ['{a b : α}', '(ha : 0 < a)', '(hb : 0 < b)'], '0 < a / b'))).toBe(0);
    // the state's own variables are not constants of the goal: `ad * bd` is as much `a * b` as `x * y`
    const mulPos = rec('mul_pos', ['{a b : α}', '(ha : 0 < a)', '(hb : 0 < b)'], '0 < a * b');
    expect(level('0 < ad * (bd + 1)', mulPos)).toBe(0);
    expect(goalMatcher('0 < ad * (bd + 1)', [], ['ad', 'bd'])(mulPos)).toBe(0);
    expect(goalMatcher('0 < ad * bd', [], ['ad', 'bd'])(mulPos)).toBe(GOAL_APPLY);
    // a renaming, but with a hypothesis to prove
    const sqrtLe = rec('Real.sqrt_le_sqrt', ['{x y : ℝ}', '(h : x ≤ y)'], '√x ≤ √y');
    expect(level('√u ≤ √v', sqrtLe)).toBe(GOAL_APPLY);
    const mulLeMul = rec('mul_le_mul', ['{a b c d : α}', '(h₁ : a ≤ b)', '(h₂ : c ≤ d)'], 'a * c ≤ b * d');
    expect(level('x * y ≤ z * w', mulLeMul)).toBe(GOAL_APPLY);
    // a hypothesis written as an arrow, or as a binder whatever its name
    expect(level('√u ≤ √v', rec('sqrt_mono', ['{x y : ℝ}'], 'x ≤ y → √x ≤ √y'))).toBe(GOAL_APPLY);
    expect(level('√u ≤ √v', rec('sqrt_mono', ['{x y : ℝ}', '(le : x ≤ y)'], '√x ≤ √y'))).toBe(GOAL_APPLY);
    // instances and variables are not hypotheses
    expect(level('x * y = y * x', rec('mul_comm', ['{M : Type*}', '[CommMonoid M]', '(a b : M)'], 'a * b = b * a'))).toBe(GOAL_EXACT);
  });

  it('nothing for a conclusion with fewer than two constants beyond relations, definitions, or another shape', () => {
    // `a = b` would fit every equation, `IsCompact s` every compactness goal
    expect(level('x = y', rec('le_antisymm', ['{a b : α}', '(h₁ : a ≤ b)', '(h₂ : b ≤ a)'], 'a = b'))).toBe(0);
    expect(level('x ≤ z', rec('le_trans', ['{a b c : α}'], 'a ≤ b → b ≤ c → a ≤ c'))).toBe(0);
    expect(level('x ≤ x', rec('le_refl', ['(a : α)'], 'a ≤ a'))).toBe(0);
    const compact = rec('IsClosed.isCompact', ['{s : Set X}', '[CompactSpace X]', '(h : IsClosed s)'], 'IsCompact s');
    expect(level('IsCompact (K.powerset : Set (Set α))', compact)).toBe(0);
    // a type ascription says nothing about the goal either
    expect(level('IsCompact (K.powerset : Set (Set α))', rec('Compacts.isCompact', ['(s : Compacts α)'], 'IsCompact (s : Set α)'))).toBe(0);
    // a single letter is a variable a section declared, not a constant (`FiniteDimensional 𝕜 E`)
    expect(level('FiniteDimensional 𝕜 E', rec('FiniteDimensional.of_fact', ['[h : Fact (Module.rank 𝕜 E < ℵ₀)]'], 'FiniteDimensional 𝕜 E'))).toBe(0);
    // two constants are enough
    expect(level('IsOpen (interior M)', rec('isOpen_interior', ['{s : Set X}'], 'IsOpen (interior s)'))).toBe(GOAL_EXACT);
    expect(level('x * y = y * x', { ...mulComm, kind: 'def' })).toBe(0);
    expect(level('x * y ≤ y * x', mulComm)).toBe(0);
    expect(level('', mulComm)).toBe(0);
  });

  it('matches a huge goal in bounded work, one budget per premise', () => {
    const addZero = rec('add_zero', ['(a : M)'], 'a + 0 = a * 1');
    const fit = goalMatcher('f ' + '( g x '.repeat(40_000));
    for (let i = 0; i < 50; i++) expect(fit(addZero)).toBe(0);
    expect(level('x '.repeat(100_000) + '+ 0 = x * 1', addZero)).toBe(0);
    expect(level('('.repeat(100_000) + 'x + 0 = x * 1' + ')'.repeat(100_000), addZero)).toBe(GOAL_EXACT);
    expect(level('∀ a, '.repeat(30_000) + 'x + 0 = x * 1', addZero)).toBe(GOAL_EXACT);
  });

  it('Isabelle: `⟦A; B⟧ ⟹ C` against the goal, its assumptions included; type annotations and `xs`-style variables read', () => {
    const monoComp = isa('mono_comp', [], '⟦mono f; mono g⟧ ⟹ mono (f ∘ g)');
    const isaLevel = (goal: string, hyps: string[], r: PremiseRecord) => goalMatcher(goal, hyps)(r);
    expect(isaLevel('mono (h ∘ k)', ['mono h', 'mono k'], monoComp)).toBe(GOAL_EXACT);
    // the goal does not assume what the fact does: no apply fit for Isabelle (it cost the AFP lemmas 0.007 nDCG@10)
    expect(isaLevel('mono (h ∘ k)', [], monoComp)).toBe(0);
    expect(isaLevel('mono (h ∘ k)', ['mono k', 'mono h'], monoComp)).toBe(0);
    const multMono = isa('mult_mono_nat', ['(a::nat) ≤ b'], 'a * c ≤ b * c');
    expect(isaLevel('u * 2 ≤ v * 2', ['v ≤ u'], multMono)).toBe(0); // the assumption read with the conclusion's renaming
    expect(isaLevel('u * w ≤ v * w', ['u ≤ v'], multMono)).toBe(GOAL_EXACT);
    expect(level('x + y = y + x', isa('add_commute_nat', [], '(a::nat) + b = b + a'))).toBe(GOAL_EXACT);
    expect(level('length (as @ bs) = length as + length bs', isa('append_length', [], 'length (xs @ ys) = length xs + length ys'))).toBe(GOAL_EXACT);
    // an Isabelle goal's own assumptions and binders are the context, not the goal
    expect(level('⋀x. ⟦P x⟧ ⟹ rev (rev x) = x', isa('rev_rev_ident', [], 'rev (rev xs) = xs'))).toBe(GOAL_EXACT);
  });
});

/** Popular premises that share the goal's symbols, used by many proofs, and a lemma that states the goal, used by none. */
const USERS = Array.from({ length: 40 }, (_, i) => rec(`user${i}`, ['(x y : ℕ)'], `x * y + ${i + 100} = ${i + 100} + y * x`, ['mul_add', 'add_mul', 'add_comm']));
const CORPUS: PremiseRecord[] = [
  rec('mul_add', ['(a b c : α)'], 'a * (b + c) = a * b + a * c', [], 'Multiplication distributes over addition: x * y + 7 = 7 + y * x style goals.'),
  rec('add_mul', ['(a b c : α)'], '(a + b) * c = a * c + b * c', [], 'Multiplication distributes over addition, on the right: x * y + 7 = 7 + y * x.'),
  rec('add_comm', ['(a b : α)'], 'a + b = b + a'),
  rec('add_mul_comm_le', ['{a b c : ℕ}', '(h : a ≤ b)'], 'a * c + 7 ≤ 7 + c * b'),
  rec('glorp_apply', ['{a b : ℕ}', '(h : 0 < a)'], 'a * b + 7 = 7 + b * a'),
  rec('my_glorp_lemma', ['(x y : ℕ)'], 'x * y + 7 = 7 + y * x'),
  ...USERS,
];
const STATE = 'x y : ℕ\n⊢ x * y + 7 = 7 + y * x';

describe('Engine: the goal match over indexed premises', () => {
  const engine = (goalMatch?: boolean) => new Engine([segmentOf(CORPUS)], goalMatch === undefined ? {} : { goalMatch });
  const names = (hs: { name: string }[]) => hs.map((h) => h.name);

  it('puts the premise that states the goal first, then the apply fit, whatever their popularity, in every mode', async () => {
    for (const mode of ['hybrid', 'bm25'] as const) {
      // the problem: popularity and shared symbols put the workhorses first
      const before = names(await engine(false).search(STATE, { k: 10, mode, exclude: USERS.map((u) => u.name) }));
      expect(before[0]).not.toBe('my_glorp_lemma');
      const hits = await engine().search(STATE, { k: 10, mode, exclude: USERS.map((u) => u.name) });
      expect(names(hits).slice(0, 2)).toEqual(['my_glorp_lemma', 'glorp_apply']);
      expect(hits[0]!.parts.goal).toBe(GOAL_EXACT);
      expect(hits[1]!.parts.goal).toBe(GOAL_APPLY);
      expect(hits.slice(2).every((h) => h.parts.goal === undefined)).toBe(true);
      // scores still fall down the list
      for (let i = 1; i < hits.length; i++) expect(hits[i]!.score).toBeLessThanOrEqual(hits[i - 1]!.score);
      // the rest keeps its order
      expect(names(hits).slice(2)).toEqual(before.filter((n) => n !== 'my_glorp_lemma' && n !== 'glorp_apply').slice(0, 8));
    }
  });

  it('holds after the reranker and with a slot given; the search option turns it off; text queries do not take it', async () => {
    const keep = { score: async (_q: unknown, top: readonly { score: number }[]) => Float32Array.from(top, (c) => -c.score) };
    const reranked = new Engine([segmentOf(CORPUS)], { reranker: keep });
    expect(names(await reranked.search(STATE, { k: 3, mode: 'hybrid', rerank: true }))[0]).toBe('my_glorp_lemma');
    expect(names(await engine().search(STATE, { k: 3, mode: 'hybrid', slot: 'rw' }))[0]).toBe('my_glorp_lemma');
    const off = await engine().search(STATE, { k: 10, mode: 'hybrid', goalMatch: false });
    expect(off.every((h) => h.parts.goal === undefined)).toBe(true);
    expect(names(off)).toEqual(names(await engine(false).search(STATE, { k: 10, mode: 'hybrid' })));
    const text = await engine().search('x * y + 7 = 7 + y * x', { k: 10, mode: 'hybrid', lang: 'lean' });
    expect(text.every((h) => h.parts.goal === undefined)).toBe(true);
  });

  it('lifts one premise per conclusion, and not a copy of the theorem being proved under its name', async () => {
    const twins = [...CORPUS, rec('Other.my_glorp_lemma', ['(p q : ℕ)'], 'p * q + 7 = 7 + q * p'), rec('Twin.glorp', ['(a b : ℕ)'], 'a * b + 7 = 7 + b * a')];
    const e = () => new Engine([segmentOf(twins)]);
    const hits = await e().search(STATE, { k: 40, mode: 'hybrid' });
    // three state the goal: the best placed is lifted, the others keep their places (their part says they match)
    const exact = hits.filter((h) => h.parts.goal === GOAL_EXACT).map((h) => h.name);
    expect(exact.sort()).toEqual(['Other.my_glorp_lemma', 'Twin.glorp', 'my_glorp_lemma'].sort());
    expect(exact).toContain(hits[0]!.name);
    for (const twin of exact.filter((n) => n !== hits[0]!.name)) expect(hits.findIndex((h) => h.name === twin)).toBeGreaterThan(0);
    // proving my_glorp_lemma: its copy under the same name elsewhere is not lifted, another twin is
    const proving = await e().search(STATE, { k: 40, mode: 'hybrid', exclude: ['my_glorp_lemma'] });
    expect(proving[0]!.name).toBe('Twin.glorp');
    const other = proving.findIndex((h) => h.name === 'Other.my_glorp_lemma');
    expect(other).toBeGreaterThan(0);
  });

  it('a Lean statement query is matched by its conclusion', async () => {
    const hits = await engine().search('theorem foo (a b : ℕ) : a * b + 7 = 7 + b * a', { k: 3, mode: 'hybrid' });
    expect(hits[0]!.name).toBe('my_glorp_lemma');
  });
});

describe('Engine: the goal match over Isabelle facts', () => {
  const FACTS: PremiseRecord[] = [
    isa('Sample_Isa.mono_def', [], 'mono f = (∀x y. x ≤ y ⟶ f x ≤ f y)'),
    isa('Sample_Isa.mono_comp', [], '⟦mono f; mono g⟧ ⟹ mono (f ∘ g)'),
    isa('Sample_Isa.mono_id', [], 'mono id'),
    isa('Sample_Isa.comp_mono_iff', [], 'mono (f ∘ g) ∧ mono f ⟶ mono g ∨ mono (g ∘ f) = mono (f ∘ g)'),
    ...Array.from({ length: 30 }, (_, i) => isa(`Sample_Isa.user${i}`, [], `mono (f${i} ∘ g) ⟶ mono f${i}`, ['Sample_Isa.mono_def', 'Sample_Isa.comp_mono_iff'])),
  ];
  const GOAL = 'goal (1 subgoal):\n 1. ⟦mono h; mono k⟧ ⟹ mono (h ∘ k)';

  it('a fact `⟦A; B⟧ ⟹ C` that states the goal, assumptions included, comes first', async () => {
    const engine = (goalMatch: boolean) => new Engine([segmentOf(FACTS)], { goalMatch });
    const before = (await engine(false).search(GOAL, { k: 5, mode: 'hybrid' })).map((h) => h.name);
    expect(before[0]).not.toBe('Sample_Isa.mono_comp');
    const hits = await engine(true).search(GOAL, { k: 5, mode: 'hybrid' });
    expect(hits[0]!.name).toBe('Sample_Isa.mono_comp');
    expect(hits[0]!.parts.goal).toBe(GOAL_EXACT);
  });
});

describe('the bench measurement', () => {
  it('finds the premise an exact/apply step names, and ranks it with the signal off and on', async () => {
    const { goalMatchSteps, namedPremise } = await import('../../server/src/bench/goal-match.js');
    expect(namedPremise({ tactic: 'exact my_glorp_lemma x y', gold: [['Foo.my_glorp_lemma']] })).toBe('Foo.my_glorp_lemma');
    expect(namedPremise({ tactic: 'apply @le_trans _ _ _ h', gold: [['le_trans'], ['h']] })).toBe('le_trans');
    expect(namedPremise({ tactic: 'rw [my_glorp_lemma]', gold: [['my_glorp_lemma']] })).toBeUndefined();
    expect(namedPremise({ tactic: 'exact h.le', gold: [['le_of_lt']] })).toBeUndefined();
    const steps = [
      { id: 's1', style: 'state', text: STATE, gold: [['my_glorp_lemma']], tactic: 'exact my_glorp_lemma x y' },
      { id: 's2', style: 'state', text: STATE, gold: [['mul_add']], tactic: 'simp [mul_add]' },
    ];
    const r = await goalMatchSteps(new Engine([segmentOf(CORPUS)]), steps, { mode: 'hybrid' });
    expect(r.steps).toBe(1);
    expect(r.detail[0]).toMatchObject({ id: 's1', premise: 'my_glorp_lemma', on: 1 });
    expect(r.detail[0]!.off).toBeGreaterThan(1);
    expect([r.better, r.worse, r.same]).toEqual([1, 0, 0]);
    expect(r.on['R@1']).toBe(1);
  });
});
