import { describe, expect, it } from 'vitest';
import { binderToHyp } from '../../indexes/src/extract/lean/signature.js';
import { denseQueryText, parseQuery, splitIsabelleProp } from '../../server/src/engine/query.js';
import { MAX_QUERY_CHARS } from '../../server/src/engine/types.js';

describe('parseQuery', () => {
  it('reads the first MAX_QUERY_CHARS characters of a query, the one limit the server uses too', () => {
    expect(MAX_QUERY_CHARS).toBe(20_000);
    const read = parseQuery('x'.repeat(MAX_QUERY_CHARS - 5) + ' goal beyond').text;
    expect(read).toHaveLength(MAX_QUERY_CHARS);
    expect(read.endsWith('x goal')).toBe(true);
  });

  it('reads a Lean proof state', () => {
    const q = parseQuery('x y : ℤ\nh₀ : 0 < y\n⊢ x = 26');
    expect(q.style).toBe('lean-state');
    expect(q.goal).toBe('x = 26');
    expect(q.hyps).toEqual(['x y : ℤ', 'h₀ : 0 < y']);
  });

  it('reads a proof state written on one line, hypotheses apart from the goal', () => {
    const q = parseQuery('x y : ℝ ⊢ |x + y| ≤ |x| + |y|');
    expect(q.style).toBe('lean-state');
    expect(q.hyps).toEqual(['x y : ℝ']);
    expect(q.goal).toBe('|x + y| ≤ |x| + |y|');
  });

  it('reads several goals from plainGoal output, the first being the main one', () => {
    const rendered = '```lean\ncase h\na : ℕ\n⊢ a ≤ a + 1\n```\n---\n```lean\nb : ℕ\n⊢ 0 < b\n```';
    const q = parseQuery(rendered);
    expect(q.goal).toBe('a ≤ a + 1');
    expect(q.hyps).toEqual(['a : ℕ']);
    expect(q.otherGoals).toEqual(['0 < b']);
  });

  it('joins continuation lines of long hypotheses and goals', () => {
    const q = parseQuery('f : ℕ →\n  ℕ\n⊢ f 0 =\n    f 0');
    expect(q.hyps).toEqual(['f : ℕ → ℕ']);
    expect(q.goal).toBe('f 0 = f 0');
  });

  it('reads an Isabelle goal with ASCII symbols', () => {
    const q = parseQuery('proof (prove)\ngoal (1 subgoal):\n 1. \\<And>x. \\<lbrakk>P x; Q x\\<rbrakk> \\<Longrightarrow> R x');
    expect(q.style).toBe('isabelle-state');
    expect(q.hyps).toEqual(['P x', 'Q x']);
    expect(q.goal).toBe('R x');
  });

  it('splits chained implications', () => {
    expect(splitIsabelleProp('A ⟹ B ⟹ C')).toEqual({ hyps: ['A', 'B'], goal: 'C' });
  });

  it('reads a Lean statement into a state', () => {
    const q = parseQuery('theorem foo (a b : ℕ) [Foo ℕ] (h : a ≤ b) : a < b + 1 := by omega');
    expect(q.style).toBe('lean-statement');
    expect(q.goal).toBe('a < b + 1');
    expect(q.hyps).toEqual(['a b : ℕ', 'inst✝ : Foo ℕ', 'h : a ≤ b']);
    expect(denseQueryText(q)).toBe('a b : ℕ\ninst✝ : Foo ℕ\nh : a ≤ b\n⊢ a < b + 1');
  });

  it('treats anything else as text and survives garbage and huge input', () => {
    expect(parseQuery('triangle inequality').style).toBe('text');
    expect(parseQuery('\u0000\u0001 ⊢').style).toBe('text');
    expect(parseQuery('x'.repeat(1_000_000)).text.length).toBeLessThanOrEqual(20_000);
  });

  it('turns binders into hypothesis lines', () => {
    expect(binderToHyp('{α : Type*}')).toBe('α : Type*');
    expect(binderToHyp('[inst : Group G]')).toBe('inst : Group G');
    expect(binderToHyp('[Group G]')).toBe('inst✝ : Group G');
  });
});

describe('LaTeX queries', () => {
  it('become Unicode text', () => {
    const q = parseQuery('$f(a) \\le b \\iff a \\le g(b)$ for $f, g$ between preorders on $\\mathbb{R}$');
    expect(q.style).toBe('text');
    expect(q.goal).toBe('f(a) ≤ b ↔ a ≤ g(b) for f, g between preorders on ℝ');
  });
  it('drop layout commands but keep their arguments', () => {
    expect(parseQuery('$\\mathrm{rank}(\\mathcal{F}) \\cdot x$').goal).toBe('rank ( F ) * x');
  });
});
