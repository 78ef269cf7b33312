import { describe, expect, it } from 'vitest';
import { codePointBoundary, cursorContext, declarationBefore, identifierAt } from '../../server/src/lsp/text/context.js';
import { enclosingTheorem } from '../../server/src/lsp/text/enclosing.js';

const at = (text: string, flavor: 'lean' | 'isabelle' = 'lean') => cursorContext(text, text.length, flavor);

describe('premise slots', () => {
  it('detects Lean list tactics', () => {
    expect(at('  rw [').slot).toEqual({ kind: 'list', tactic: 'rw', start: true });
    expect(at('  rw [← Nat.add_comm, ').slot).toEqual({ kind: 'list', tactic: 'rw', start: true });
    expect(at('  simp only [foo, Nat.ad')).toMatchObject({ prefix: 'Nat.ad', slot: { kind: 'list', tactic: 'simp' } });
    expect(at('  nth_rewrite 2 [').slot?.tactic).toBe('nth_rewrite');
    expect(at('  rw [foo] at h').slot).toBeUndefined();
    expect(at('  have h : [1, 2] = ').slot).toBeUndefined();
  });

  it('detects Lean term positions', () => {
    expect(at('  exact ').slot).toEqual({ kind: 'term', tactic: 'exact', start: true });
    expect(at('  apply Nat.le').slot).toEqual({ kind: 'term', tactic: 'apply', start: true });
    expect(at('  simpa using ').slot?.tactic).toBe('using');
    expect(at('  rfl ').slot).toBeUndefined();
    expect(at('theorem foo (exact : Nat) ').slot).toBeUndefined();
  });

  it('detects Isabelle method arguments', () => {
    expect(at('  by (simp add: ', 'isabelle').slot).toEqual({ kind: 'list', tactic: 'simp add:', start: true });
    expect(at('  apply (auto intro: foo ', 'isabelle').slot).toEqual({ kind: 'list', tactic: 'auto intro:', start: true });
    expect(at('  by (rule ', 'isabelle').slot).toEqual({ kind: 'term', tactic: 'rule', start: true });
    expect(at('  using ', 'isabelle').slot).toEqual({ kind: 'list', tactic: 'using', start: true });
    expect(at('  using foo by ', 'isabelle').slot).toBeUndefined();
    expect(at('  by simp ', 'isabelle').slot).toBeUndefined();
  });

  it('does not carry a slot across a blank line', () => {
    expect(at('  rw [\n\ntheorem x : ').slot).toBeUndefined();
  });

  it('says where a new premise begins: after the opener, a comma or an arrow, not after an argument', () => {
    expect(at('  simp [foo ').slot).toEqual({ kind: 'list', tactic: 'simp', start: false });
    expect(at('  rw [← ').slot?.start).toBe(true);
    expect(at('  rw [<- ').slot?.start).toBe(true);
    // an unclosed list on an earlier line, a term slot on this one
    expect(at('  simp [foo\n  exact ').slot).toEqual({ kind: 'term', tactic: 'exact', start: true });
  });

  it('reads no slot in a comment or a string, and none through one', () => {
    const outside = (c: ReturnType<typeof at>) => (c.slot === undefined ? c.region : 'a slot');
    expect(outside(at('  simp [foo,\n  -- a note '))).toBe('comment');
    expect(outside(at('  /- outer /- inner -/ rw ['))).toBe('comment');
    expect(outside(at('/-- use exact '))).toBe('comment');
    expect(outside(at('  have : "rw ['))).toBe('string');
    // a comment line inside a list is not a blank line, and its `(` hides nothing
    expect(at('  simp [foo, -- (see below)\n    ')).toMatchObject({ region: 'code', slot: { kind: 'list', tactic: 'simp', start: true } });
    // a closed comment or string before the cursor: code again
    expect(at('  /- note -/ rw [').slot).toEqual({ kind: 'list', tactic: 'rw', start: true });
    expect(at('  have : "a" = "a" := by rw [').slot?.tactic).toBe('rw');
    expect(at('  (* note *) by (simp add: ', 'isabelle').slot?.tactic).toBe('simp add:');
    expect(outside(at('  (* (* by (simp add: *) ', 'isabelle'))).toBe('comment');
    expect(outside(at('  text ‹use (simp add: ', 'isabelle'))).toBe('string');
  });
});

describe('identifiers', () => {
  it('finds dotted names with Unicode and subscripts', () => {
    const t = 'exact Nat.le_of_lt_succ h₀';
    expect(identifierAt(t, 10)).toMatchObject({ name: 'Nat.le_of_lt_succ', start: 6 });
    expect(identifierAt(t, t.length)).toMatchObject({ name: 'h₀' });
    expect(identifierAt('foo.bar.', 3)?.name).toBe('foo.bar');
    expect(identifierAt('  ', 1)).toBeUndefined();
    expect(identifierAt('x + 12', 5)).toBeUndefined();
  });
});

describe('declaration fallback', () => {
  it('takes the enclosing declaration up to the cursor', () => {
    const t = 'theorem a : True := trivial\n\n@[simp] theorem b (x : Nat) : x + 0 = x := by\n  rw [';
    expect(declarationBefore(t, t.length, 'lean')).toBe('@[simp] theorem b (x : Nat) : x + 0 = x := by\n  rw [');
    const i = 'lemma foo: "x + 0 = x"\n  by (simp add: ';
    expect(declarationBefore(i, i.length, 'isabelle')).toBe(i.trim());
  });
});

describe('enclosingTheorem', () => {
  const at = (text: string, marker: string, flavor: 'lean' | 'isabelle' = 'lean') => enclosingTheorem(text.replace(marker, ''), text.indexOf(marker), flavor);

  it('names a Lean theorem with its namespaces, as the index does', () => {
    const t = [
      'namespace CharTwo',
      'section Ring',
      'variable {R : Type*}',
      '@[simp] theorem add_sq (x y : R) : (x + y) ^ 2 = x ^ 2 + y ^ 2 := by simp',
      'end Ring',
      'namespace Foo.Bar',
      'end Foo.Bar',
      'protected lemma add_mul_self (x y : R) : (x + y) * (x + y) = x * x + y * y := by',
      '  rw [CURSOR',
    ].join('\n');
    expect(at(t, 'CURSOR')).toBe('CharTwo.add_mul_self');
    expect(at(t.replace('protected lemma add_mul_self', 'theorem _root_.top'), 'CURSOR')).toBe('top');
    expect(at(`${t.replace('  rw [CURSOR', '')}\nexample : 1 = 1 := by CURSOR`, 'CURSOR')).toBeUndefined();
    expect(at('theorem a : 1 = 1 := rfl\ninstance : Foo := CURSOR', 'CURSOR')).toBeUndefined();
  });

  it('names an Isabelle lemma Theory.fact', () => {
    const t = 'theory Sample_Isa\n  imports Main\nbegin\nlemma foo_bar [simp]: "x = x"\n  by (simp add: CURSOR';
    expect(at(t, 'CURSOR', 'isabelle')).toBe('Sample_Isa.foo_bar');
  });
});

describe('code point boundaries', () => {
  it('moves an offset between the halves of a surrogate pair past the pair, and leaves others', () => {
    const t = 'rw [𝓝x';
    const inside = t.indexOf('𝓝') + 1;
    expect(codePointBoundary(t, inside)).toBe(inside + 1);
    for (const o of [0, inside - 1, inside + 1, t.length]) expect(codePointBoundary(t, o)).toBe(o);
  });
});
