/**
 * `@[to_additive]` twins as Lean prints them (issue 29 item 2): the statement
 * translator of `indexes/src/extract/lean/additive.ts`, on the broken
 * examples (through the extractor, as an index stores them) and on pairs whose
 * additive side Mathlib states by hand (`Mathlib/Algebra/Group/Defs.lean`'s
 * `Monoid`/`AddMonoid`/`DivInvMonoid`/`SubNegMonoid` fields;
 * `Mathlib/Algebra/Notation/Prod.lean`'s `pow_fst`… `to_additive existing smul_fst`…,
 * whose `smul_*` lemmas are written out above them, with other variable names).
 */
import { describe, expect, it } from 'vitest';
import { additiveText } from '../../indexes/src/extract/lean/additive.js';
import { lex } from '../../indexes/src/extract/lean/lex.js';
import { extractLean } from '../../indexes/src/extract/lean/extractor.js';
import { translateName } from '../../indexes/src/extract/lean/names.js';

const add = (s: string) => {
  const { toks } = lex(s);
  return additiveText(toks, 0, toks.length);
};

describe('the issue\'s twins, as the extractor stores them', () => {
  const src = [
    'variable {M G : Type*} [Monoid M] [Group G] [Lattice G] [CovariantClass G G (· * ·) (· ≤ ·)]',
    '@[to_additive two_nsmul] lemma pow_two (a : M) : a ^ 2 = a * a := by rw [pow_succ, pow_one]',
    '@[to_additive sub_eq_add_neg] theorem div_eq_mul_inv (a b : G) : a / b = a * b⁻¹ := sorry',
    '@[to_additive (attr := simp)] theorem inv_mul_cancel (a : G) : a⁻¹ * a = 1 := sorry',
    '@[to_additive (attr := simp)] theorem inv_inv (a : G) : a⁻¹⁻¹ = a := sorry',
    '@[to_additive "The triangle inequality."] theorem mabs_mul (a b : G) : |a * b|ₘ ≤ |a|ₘ * |b|ₘ := sorry',
    '@[to_additive] theorem edist_inv_inv [PseudoEMetricSpace G] (a b : G) : edist a⁻¹ b⁻¹ = edist a b := sorry',
    '@[to_additive succ_nsmul] theorem pow_succ (a : M) (n : ℕ) : a ^ (n + 1) = a ^ n * a := sorry',
    '@[to_additive neg_add_rev] theorem mul_inv_rev (a b : G) : (a * b)⁻¹ = b⁻¹ * a⁻¹ := sorry',
    '@[to_additive] theorem mulIndicator_one (s : Set α) : (mulIndicator s fun _ => (1 : M)) = fun _ => (1 : M) := sorry',
    '@[to_additive] theorem pow_eq_one (a : G) (h : a ^ 2 = 1) : a⁻¹ = a := sorry',
  ].join('\n');
  const res = extractLean(src, 'T.lean', 'T');
  const get = (name: string) => {
    const d = res.decls.find((x) => x.name === name);
    if (!d) throw new Error(`no ${name} among ${res.decls.map((x) => x.name).join(', ')}`);
    return d;
  };

  it.each([
    ['two_nsmul', '2 • a = a + a'],
    ['sub_eq_add_neg', 'a - b = a + -b'],
    ['neg_add_cancel', '-a + a = 0'],
    ['neg_neg', '- -a = a'],
    ['abs_add', '|a + b| ≤ |a| + |b|'],
    ['edist_neg_neg', 'edist (-a) (-b) = edist a b'],
    ['succ_nsmul', '(n + 1) • a = n • a + a'],
    ['neg_add_rev', '-(a + b) = -b + -a'],
    ['indicator_zero', '(indicator s fun _ => (0 : M)) = fun _ => (0 : M)'],
    ['nsmul_eq_zero', '-a = a'],
  ])('%s : %s', (name, goal) => {
    const d = get(name);
    expect(d.goal).toBe(goal);
    expect(d.statement.endsWith(` : ${goal}`)).toBe(true);
  });

  it('hypotheses and binders are translated the same way', () => {
    expect(get('nsmul_eq_zero').args.slice(-2)).toEqual(['(a : G)', '(h : 2 • a = 0)']);
    expect(get('abs_add').doc).toBe('The triangle inequality.');
  });
});

describe('pairs Mathlib states by hand', () => {
  it.each([
    // Mathlib/Algebra/Group/Defs.lean: Monoid.npow_zero / AddMonoid.nsmul_zero, npow_succ / nsmul_succ
    ['npow 0 x = 1', 'nsmul 0 x = 0'],
    ['npow (n + 1) x = npow n x * x', 'nsmul (n + 1) x = nsmul n x + x'],
    // DivInvMonoid.zpow_succ' / SubNegMonoid.zsmul_succ', zpow_neg' / zsmul_neg'
    ['zpow n.succ a = zpow n a * a', 'zsmul n.succ a = zsmul n a + a'],
    ['zpow (Int.negSucc n) a = (zpow n.succ a)⁻¹', 'zsmul (Int.negSucc n) a = -zsmul n.succ a'],
    // Mathlib/Algebra/Notation/Prod.lean: pow_fst … pow_swap, `to_additive existing smul_fst` …
    ['(p ^ c).fst = p.fst ^ c', '(c • p).fst = c • p.fst'],
    ['Prod.mk a b ^ c = Prod.mk (a ^ c) (b ^ c)', 'c • Prod.mk a b = Prod.mk (c • a) (c • b)'],
    ['p ^ c = (p.1 ^ c, p.2 ^ c)', 'c • p = (c • p.1, c • p.2)'],
    ['(p ^ c).swap = p.swap ^ c', '(c • p).swap = c • p.swap'],
    // one_pow (`to_additive nsmul_zero`)
    ['(1 : M) ^ n = 1', 'n • (0 : M) = 0'],
  ])('%s ↦ %s', (from, to) => {
    expect(add(from)).toBe(to);
  });
});

describe('notation rules', () => {
  it.each([
    // ⁻¹: prefix, parenthesised as an argument or after a coercion; preimage kept
    ['↑u⁻¹ = (↑u)⁻¹', '↑(-u) = -↑u'],
    ["f ⁻¹' s", "f ⁻¹' s"],
    ['x.1⁻¹ = y', '-x.1 = y'],
    ['g (f x)⁻¹ = 1', 'g (-f x) = 0'],
    // as a function, projected (Mathlib's Pi.inv_apply, Set.encard_inv, Multiset.prod_map_inv)
    ['f⁻¹ i = (f i)⁻¹', '(-f) i = -f i'],
    ['s⁻¹.encard = s.encard', '(-s).encard = s.encard'],
    ['(m.map fun i => (f i)⁻¹).prod = (m.map f).prod⁻¹', '(m.map fun i => -f i).sum = -(m.map f).sum'],
    ['a⁻ᵐ < b ↔ b⁻¹ < a ∧ 1 < b', 'a⁻ < b ↔ -b < a ∧ 0 < b'],
    ['[IsIsometricSMul Gᵐᵒᵖ G]', '[IsIsometricVAdd Gᵃᵒᵖ G]'],
    // ^: the base is the application before, the exponent kept as written and parenthesised when compound
    ['a ^ (m * n) = (a ^ m) ^ n', '(m * n) • a = n • (m • a)'],
    ['f x ^ n = 1', 'n • f x = 0'],
    ['a⁻¹ ^ n = (a ^ n)⁻¹', 'n • -a = -(n • a)'],
    ['a ^ m ^ n = b', '(m ^ n) • a = b'],
    ['x ^ gcd n (Fintype.card G) = 1', 'gcd n (Fintype.card G) • x = 0'],
    ['a ^ 1 = a', '1 • a = a'],
    ['a ^ 0 = 1', '0 • a = 0'],
    // 1: the monoid's one, but not a natural number
    ['∏ i ∈ range (n + 1), f i = (∏ i ∈ range n, f i) * f n', '∑ i ∈ range (n + 1), f i = (∑ i ∈ range n, f i) + f n'],
    ['∀ f : Fin 1 → M, f 0 = 1', '∀ f : Fin 1 → M, f 0 = 0'],
    ['(1 : ℕ) • a = a * 1', '(1 : ℕ) +ᵥ a = a + 0'],
    ['1 / a = a⁻¹', '0 - a = -a'],
    ['orderOf x = 1 ↔ x = 1', 'addOrderOf x = 1 ↔ x = 0'],
    ['s.card ≤ 1 → ∏ x ∈ s, f x = 1', 's.card ≤ 1 → ∑ x ∈ s, f x = 0'],
    ['1 < orderOf (x * y)', '1 < addOrderOf (x + y)'],
    ['f x = 1 → 1 ≤ g y', 'f x = 0 → 0 ≤ g y'],
    ['a * 12 = a * 21', 'a + 12 = a + 21'],
  ])('%s ↦ %s', (from, to) => {
    expect(add(from)).toBe(to);
  });

  it('never throws, on unbalanced or odd input', () => {
    for (const s of ['(', ')', '⁻¹', '^', 'a ^', '| a |ₘ', '|ₘ', '((a⁻¹', 'a ^ ^ b', '⁻¹⁻¹⁻¹ x']) expect(typeof add(s)).toBe('string');
  });
});

describe('names Mathlib does not translate word by word (fixAbbreviation)', () => {
  it.each([
    ['Set.mulIndicator_apply', 'Set.indicator_apply'],
    ['Function.mulSupport_one', 'Function.support_zero'],
    ['mulTSupport', 'tsupport'],
    ['Pi.mulSingle_mul', 'Pi.single_add'],
    ['orderOf_one', 'addOrderOf_zero'],
    ['isOfFinOrder_one', 'isOfFinAddOrder_zero'],
    ['Equiv.invFun_apply', 'Equiv.invFun_apply'],
  ])('%s → %s', (from, to) => {
    expect(translateName(from)).toBe(to);
  });
});

describe('bounded work', () => {
  it('deep nesting and long texts are translated (token by token past the limits), without throwing', () => {
    const deep = '('.repeat(20_000) + 'a⁻¹ * 1' + ')'.repeat(20_000);
    const out = add(deep);
    expect(out.includes('a⁻¹') || out.includes('-a')).toBe(true);
    expect(add('(('.repeat(100) + 'a ^ 2')).toContain('a');
    expect(add('('.repeat(100) + 'a * 1' + ')'.repeat(100))).toBe('('.repeat(100) + 'a + 0' + ')'.repeat(100));
    const long = Array.from({ length: 3000 }, () => 'a⁻¹ * b').join(' * ');
    expect(add(long).startsWith('-a + b + -a')).toBe(true);
    const longer = Array.from({ length: 6000 }, () => 'a⁻¹ * b').join(' * ');
    expect(add(longer).startsWith('a⁻¹ + b + a⁻¹')).toBe(true); // past the limit: token by token, `⁻¹` kept
    const bars = '| '.repeat(30_000) + 'a |ₘ';
    expect(typeof add(bars)).toBe('string');
  });
});
