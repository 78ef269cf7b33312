/** Text queries in Lean notation or LaTeX: translation and routing rules (issue 9, MathlibQR's lean/latex styles). */
import { describe, expect, it } from 'vitest';
import { Engine } from '../../server/src/engine/engine.js';
import { liftParents, parentNames } from '../../server/src/engine/structure-lift.js';
import { latexToUnicode } from '../../server/src/engine/latex.js';
import { nameMatch, nameStems, readTextQuery, styleOf } from '../../server/src/engine/text-query.js';
import type { DeclKind } from '../../indexes/src/extract/record.js';
import { rec, segmentOf } from './engine-helpers.js';

describe('a constructor or field stands for its structure', () => {
  it('names the parent of constructors, fields and unfolding lemmas only', () => {
    expect(parentNames('Flow.mk', 'constructor')?.names).toEqual(['Flow']);
    expect(parentNames('Equiv.left_inv', 'field')?.names).toEqual(['Equiv']);
    expect(parentNames('Polynomial.separable_def', 'theorem')?.names).toEqual(['Polynomial.separable', 'Polynomial.Separable']);
    expect(parentNames("hammingDist_def'", 'lemma')?.names).toEqual(['hammingDist', 'HammingDist']);
    expect(parentNames('Set.Finite.def', 'theorem')?.names).toEqual(['Set.Finite']);
    expect(parentNames("Lattice.mk'", 'def', 'Lattice α')?.names).toEqual(['Lattice']);
    expect(parentNames('CategoryTheory.Adjunction.mkOfHomEquiv', 'def', 'Adjunction F G')?.names).toEqual(['CategoryTheory.Adjunction']);
    expect(parentNames('Submodule.mkQ', 'def', 'M →ₗ[R] M ⧸ p')).toBeUndefined();
    expect(parentNames('Multiset.mkmap', 'def', 'Multiset α')).toBeUndefined();
    expect(parentNames('Flow.continuous', 'theorem')).toBeUndefined();
    expect(parentNames('foo_def', 'def')).toBeUndefined();
    expect(parentNames('mk', 'constructor')).toBeUndefined();
  });

  it('lifts the parent just above its best member, and only structures', () => {
    const e = (name: string, kind: DeclKind, score: number) => ({ name, score, info: { name, kind } });
    const list = [e('Flow.mk', 'constructor', 3), e('Flow.ext', 'theorem', 2), e('Flow', 'structure', 1), e('Foo.mk', 'constructor', 0.5), e('Foo', 'def', 0)];
    const byName = new Map(list.map((c) => [c.name, c]));
    expect(liftParents(list, 10, (n) => byName.get(n))).toBe(true);
    expect(byName.get('Flow')!.score).toBeGreaterThan(3);
    expect(byName.get('Flow')!.score).toBeLessThan(3.001);
    expect(byName.get('Foo')!.score).toBe(0); // a def is not a structure
    const defs = [e('Polynomial.separable_def', 'theorem', 2), e('Polynomial.Separable', 'def', 1)];
    expect(liftParents(defs, 10, (n) => defs.find((c) => c.name === n))).toBe(true);
    expect(defs[1]!.score).toBeGreaterThan(2);
  });

  it('puts the structure first for a query listing its fields', async () => {
    const records = [
      { ...rec('Flow', ['(τ α : Type*)'], 'Type*'), kind: 'structure' as const, statement: 'structure Flow (τ α : Type*)' },
      {
        ...rec('Flow.mk', ['(toFun : τ → α → α)', '(map_zero\' : ∀ x, toFun 0 x = x)', '(map_add\' : ∀ t₁ t₂ x, toFun (t₁ + t₂) x = toFun t₁ (toFun t₂ x))'], 'Flow τ α'),
        kind: 'constructor' as const,
        statement: 'mk ::',
      },
      rec('Function.iterate_zero', ['(f : α → α)'], 'f^[0] = id'),
    ];
    const engine = new Engine([segmentOf(records)]);
    const q = '`toFun : τ → α → α` with `toFun 0 x = x` and `toFun (s + t) x = toFun s (toFun t x)`';
    const names = async (informal: boolean) => (await engine.search(q, { mode: 'hybrid', k: 3, informal })).map((h) => h.name);
    expect((await names(true))[0]).toBe('Flow');
    expect((await names(false))[0]).toBe('Flow.mk');
  });
});

describe('the name match', () => {
  it('is the share of the last component said times the share of the query the name says', () => {
    const q = readTextQuery('absolute value of a product');
    expect(nameMatch(q, nameStems('abs_mul'))).toBeCloseTo(1);
    // half the last component said (abs, not add), and the query's product not said by the name
    const half = nameMatch(q, nameStems('abs_add'));
    expect(half).toBeGreaterThan(0);
    expect(half).toBeLessThan(0.5);
    // namespaces say words, but a name whose last component says none does not match
    const succ = readTextQuery('natural number successor');
    expect(nameMatch(succ, nameStems('Nat.succ_le_iff'))).toBeGreaterThan(nameMatch(succ, nameStems('succ_le_iff')));
    expect(nameMatch(succ, nameStems('succ_le_iff'))).toBeGreaterThan(0);
    expect(nameMatch(readTextQuery('natural number'), nameStems('Nat.succ_le_iff'))).toBe(0);
    expect(nameMatch(q, nameStems('Real.sqrt'))).toBe(0);
  });
});

describe('text with formulas', () => {
  it('counts the symbols of category theory, sets and algebra, and reads a formula with a few words around it as mixed', () => {
    expect(styleOf('X ≅ Y as schemes and Y affine → X affine')).toBe('mixed');
    expect(styleOf('⋂ i ∈ I, U i open for arbitrary index set I')).toBe('mixed');
    expect(styleOf('a measurable family κ : α → Measure β')).toBe('mixed');
    expect(styleOf('every submodule N ≤ M is finitely generated')).toBe('mixed');
    expect(styleOf('every submodule N ≤ M of a module over a noetherian ring is finitely generated')).toBe('english');
    expect(styleOf('the sum of two even numbers is even')).toBe('english');
  });
});

describe('LaTeX to Lean notation', () => {
  const cases: [string, string][] = [
    // fractions, roots, binomials, powers
    ['$\\frac{a+b}{2} \\le \\sqrt{a^2 + b^2}$', '(a+b) / (2) ≤ √(a ^ 2 + b ^ 2)'],
    ['$\\binom{n}{k} = \\binom{n}{n-k}$', 'Nat.choose (n) (k) = Nat.choose (n) (n-k)'],
    ['$x^{-1} \\cdot x = 1$', 'x⁻¹ * x = 1'],
    ['$f^{-1}(U)$ is open', "f ⁻¹' (U) is open"],
    ['$x^{p^n}$', 'x ^ (p ^ n)'],
    // big operators bind a variable
    ['$\\sum_{i=1}^n i = n(n+1)/2$', '∑ i, i = n(n+1)/2'],
    ['$\\sum_{d \\mid n} d$', '∑ d ∈ n.divisors, d'],
    ['$\\bigcup_{i \\in I} U_i$', '⋃ i ∈ I, U i'],
    ['$\\sup_i \\inf_j f(i, j)$', '⨆ i, ⨅ j, f(i, j)'],
    ['$\\int_a^b f(x)\\,dx$', '∫ x in a..b, f(x) dx'],
    ['$\\int^- c \\, d\\mu$', '∫⁻ c ∂μ'],
    // delimiters and products
    ['$\\lvert x \\rvert \\le \\lVert x \\rVert$', '| x | ≤ ‖ x ‖'],
    ['$\\|x + y\\| \\le \\|x\\| + \\|y\\|$', '‖x + y‖ ≤ ‖x‖ + ‖y‖'],
    ['$[\\cdot,\\cdot]$ and $a \\cdot b$', '[·,·] and a * b'],
    ['$\\mu[s \\cap t \\mid s] = \\mu[t \\mid s]$ and $d \\mid n$', 'μ [s ∩ t | s] = μ [t | s] and d ∣ n'],
    // sets of numbers, functions, subscripts, escapes
    ['$f : \\mathbb{R}_{\\ge 0} \\to \\overline{\\mathbb{R}}_{\\ge 0}$', 'f : ℝ≥0 → ℝ≥0∞'],
    ['$\\log x \\le \\exp x$, $\\dim V$, $\\ker f$', 'log x ≤ exp x , finrank V , ker f'],
    ['$\\aleph_0 \\le \\kappa$, $x_1 \\ne x_{i+1}$', 'ℵ₀ ≤ κ , x₁ ≠ x (i+1)'],
    ["$|f\\'(x)|$ and $x \\not\\in S$", "|f'(x)| and x ∉ S"],
    ['$\\#\\{i : x_i \\ne y_i\\}$', '# i : x i ≠ y i'],
    ['$\\lim_{n \\to \\infty} a_n = 0$', 'Tendsto atTop a n = 0'],
    ['no surjection $\\mathbb{N} \\to \\mathcal{P}(\\mathbb{N})$, $\\mathcal{U}$', 'no surjection ℕ → Set ( ℕ ) , U'],
    // prose with LaTeX: only the formulas are read as math
    ["Quillen\\'s axioms for $f_1$ and snake_case names", "Quillen's axioms for f₁ and snake_case names"],
  ];
  it.each(cases)('%s', (tex, lean) => expect(latexToUnicode(tex)).toBe(lean));

  it('reads hostile input to the end: deep nesting, a trailing backslash', () => {
    // 3,000 nested fractions exhausted the stack before brace groups had a depth limit
    const deep = latexToUnicode('$' + '\\frac{'.repeat(3000) + 'x' + '}{y}'.repeat(3000) + '$');
    expect(deep.startsWith('(')).toBe(true);
    expect(deep).toContain('x');
    expect(latexToUnicode('$a \\le b \\')).toBe('a ≤ b');
    expect(latexToUnicode('\\sqrt{2} \\\n')).toContain('√');
  });
});
