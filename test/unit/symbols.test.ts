import { describe, expect, it } from 'vitest';
import { ISABELLE_SYMBOLS, isabelleToUnicode, unicodeToIsabelle } from '../../indexes/src/extract/symbols.js';

describe('isabelleToUnicode', () => {
  it('maps the common logical symbols', () => {
    const cases: Array<[string, string]> = [
      ['\\<Rightarrow>', '⇒'],
      ['\\<forall>', '∀'],
      ['\\<lbrakk>', '⟦'],
      ['\\<rbrakk>', '⟧'],
      ['\\<Longrightarrow>', '⟹'],
      ['\\<And>', '⋀'],
      ['\\<lambda>', 'λ'],
      ['\\<in>', '∈'],
      ['\\<le>', '≤'],
      ['\\<noteq>', '≠'],
      ['\\<not>', '¬'],
      ['\\<and>', '∧'],
      ['\\<or>', '∨'],
      ['\\<longrightarrow>', '⟶'],
      ['\\<longleftrightarrow>', '⟷'],
      ['\\<equiv>', '≡'],
      ['\\<subseteq>', '⊆'],
      ['\\<union>', '∪'],
      ['\\<inter>', '∩'],
      ['\\<times>', '×'],
      ['\\<circ>', '∘'],
      ['\\<exists>', '∃'],
      ['\\<alpha>', 'α'],
      ['\\<Omega>', 'Ω'],
      ['\\<nat>', 'ℕ'],
      ['\\<int>', 'ℤ'],
      ['\\<real>', 'ℝ'],
      ['\\<open>', '‹'],
      ['\\<close>', '›'],
    ];
    for (const [ascii, uni] of cases) expect(isabelleToUnicode(ascii), ascii).toBe(uni);
  });

  it('converts inside text and leaves unknown symbols alone', () => {
    expect(isabelleToUnicode('\\<lbrakk>A; B\\<rbrakk> \\<Longrightarrow> C')).toBe('⟦A; B⟧ ⟹ C');
    expect(isabelleToUnicode('x \\<frobnicate> y')).toBe('x \\<frobnicate> y');
    expect(isabelleToUnicode('plain ascii')).toBe('plain ascii');
    expect(isabelleToUnicode('a \\<and')).toBe('a \\<and');
  });

  it('turns sub/superscripts into Unicode where one exists', () => {
    expect(isabelleToUnicode('x\\<^sub>1')).toBe('x₁');
    expect(isabelleToUnicode('x\\<^sub>n')).toBe('xₙ');
    expect(isabelleToUnicode('x\\<^sub>q')).toBe('x_q');
    expect(isabelleToUnicode('x\\<^sub>\\<beta>')).toBe('xᵦ');
    expect(isabelleToUnicode('x\\<^sup>2')).toBe('x²');
    expect(isabelleToUnicode('r\\<^sup>*')).toBe('r^*');
    expect(isabelleToUnicode('\\<^bold>x')).toBe('𝐱');
    expect(isabelleToUnicode('x\\<^isub>1')).toBe('x₁');
  });
});

describe('unicodeToIsabelle', () => {
  it('inverts the table', () => {
    expect(unicodeToIsabelle('⟦A; B⟧ ⟹ C')).toBe('\\<lbrakk>A; B\\<rbrakk> \\<Longrightarrow> C');
    expect(unicodeToIsabelle('x₁ ≤ y²')).toBe('x\\<^sub>1 \\<le> y\\<^sup>2');
    expect(unicodeToIsabelle('foo_bar x')).toBe('foo_bar x');
  });

  it('round-trips every entry of the table', () => {
    const firstFor = new Map<string, string>();
    const aliases: string[] = [];
    for (const [sym, uni] of ISABELLE_SYMBOLS) {
      if (firstFor.has(uni)) {
        aliases.push(sym);
        continue;
      }
      firstFor.set(uni, sym);
      expect(isabelleToUnicode(sym), sym).toBe(uni);
      expect(unicodeToIsabelle(isabelleToUnicode(sym)), sym).toBe(sym);
    }
    // the only deliberate alias: \<upharpoonright> shares ↾ with \<restriction>
    expect(aliases).toEqual(['\\<upharpoonright>']);
    expect(ISABELLE_SYMBOLS.length).toBeGreaterThan(250);
  });

  it('round-trips whole strings with sub/superscripts and bold', () => {
    const samples = [
      '\\<lbrakk>x\\<^sub>1 \\<in> A; \\<forall>y. P y\\<rbrakk> \\<Longrightarrow> \\<exists>z. z\\<^sup>2 \\<le> x\\<^sub>1',
      '\\<^bold>v \\<cdot> \\<^bold>w = 0',
      'f \\<circ> g \\<equiv> \\<lambda>x. f (g x)',
      '\\<open>x\\<^sub>\\<beta>\\<close>',
    ];
    for (const s of samples) expect(unicodeToIsabelle(isabelleToUnicode(s))).toBe(s);
  });
});
