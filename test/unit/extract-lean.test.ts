import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractLean } from '../../indexes/src/extract/lean/extractor.js';
import { translateName } from '../../indexes/src/extract/lean/names.js';
import type { ExtractedDecl, FileExtraction } from '../../indexes/src/extract/record.js';

const fixture = (name: string): string =>
  readFileSync(new URL(`../fixtures/lean/${name}`, import.meta.url), 'utf8');

function run(name: string): FileExtraction {
  return extractLean(fixture(name), `Test/${name}`, `Test.${name.replace(/\.lean$/, '')}`);
}

function byName(res: FileExtraction, name: string): ExtractedDecl {
  const d = res.decls.find((x) => x.name === name);
  if (!d) throw new Error(`no declaration ${name}; have ${res.decls.map((x) => x.name).join(', ')}`);
  return d;
}

/** 0-based line of the first line containing `needle`. */
function lineOf(text: string, needle: string): number {
  const idx = text.indexOf(needle);
  if (idx < 0) throw new Error(`fixture lacks ${needle}`);
  return text.slice(0, idx).split('\n').length - 1;
}

describe('extractLean: scopes', () => {
  const res = run('Scopes.lean');
  const text = fixture('Scopes.lean');

  it('finds exactly the declarations (not the ones in comments, macros or attribute lines)', () => {
    expect(res.decls.map((d) => d.name)).toEqual([
      'Alpha.Beta.first_thm',
      'Alpha.Beta.uses_open',
      'Alpha.Beta.after_open',
      'Alpha.Beta.Nat.prot_thm',
      'rootLevel',
      'Alpha.Beta.hidden',
      'Alpha.Beta.Delta.deltaDef',
      'uses_g',
      'uses_none',
      'after_set_option',
      'unicode_names',
    ]);
  });

  it('records kind, module, file and language', () => {
    const d = byName(res, 'Alpha.Beta.first_thm');
    expect(d).toMatchObject({ kind: 'theorem', lang: 'lean', module: 'Test.Scopes', file: 'Test/Scopes.lean' });
    expect(byName(res, 'Alpha.Beta.uses_open').kind).toBe('lemma');
    expect(byName(res, 'Alpha.Beta.hidden').kind).toBe('def');
  });

  it('splits args, goal and statement', () => {
    const d = byName(res, 'Alpha.Beta.first_thm');
    expect(d.args).toEqual(['(n : ℕ)']);
    expect(d.goal).toBe('n + 0 = n');
    expect(d.statement).toBe('theorem first_thm (n : ℕ) : n + 0 = n');
    expect(d.refs).toEqual(['Nat.add_zero']);
  });

  it('applies `open … in` to one declaration only and keeps file-level opens', () => {
    expect(byName(res, 'Alpha.Beta.uses_open').scope).toEqual({ namespaces: ['Alpha.Beta', 'Alpha'], opens: ['Classical', 'Gamma'] });
    expect(byName(res, 'Alpha.Beta.after_open').scope.opens).toEqual(['Classical']);
  });

  it('handles protected dotted names, _root_, private and nested namespaces', () => {
    const p = byName(res, 'Alpha.Beta.Nat.prot_thm');
    expect(p.scope.namespaces).toEqual(['Alpha.Beta.Nat', 'Alpha.Beta', 'Alpha']);
    expect(p.statement).toBe('theorem Nat.prot_thm : (1 : ℕ) = 1');
    expect(byName(res, 'rootLevel').goal).toBe('2 = 2');
    expect(byName(res, 'Alpha.Beta.hidden').args).toEqual(['(k : ℕ)']);
    expect(byName(res, 'Alpha.Beta.Delta.deltaDef').refs).toEqual(['first_thm']);
    // after `end Alpha.Beta` we are back at the root
    expect(byName(res, 'uses_g').scope.namespaces).toEqual([]);
  });

  it('reads multi-line docstrings and starts the range at the docstring', () => {
    const d = byName(res, 'Alpha.Beta.uses_open');
    expect(d.doc).toBe('A lemma using `open … in`.\nSpans two lines.');
    expect(d.range.start).toEqual({ line: lineOf(text, '/-- A lemma using'), character: 0 });
    expect(d.range.end.line).toBe(lineOf(text, 'lemma uses_open'));
    expect(d.refs).toEqual(['le_refl']);
  });

  it('includes only the section variables the statement uses', () => {
    expect(byName(res, 'uses_g').args).toEqual(['{G : Type*}', '[Group G]', '(g : G)']);
    expect(byName(res, 'uses_g').refs).toEqual(['mul_one']);
    expect(byName(res, 'uses_none').args).toEqual(['(p : Prop)']);
    expect(byName(res, 'uses_none').refs).toEqual([]);
  });

  it('keeps the declaration after `set_option … in` and warns about a stray end', () => {
    expect(byName(res, 'after_set_option').range.start.line).toBe(lineOf(text, 'theorem after_set_option'));
    expect(res.warnings).toHaveLength(1);
    expect(res.warnings[0]).toMatch(/stray end StrayEnd/);
  });

  it('handles unicode names, subscripts, primes, ! and ?', () => {
    const d = byName(res, 'unicode_names');
    expect(d.args).toEqual(['{α : Type*}', '(h₀ : (0 : ℝ) ≤ 2)']);
    expect(d.goal).toBe("Real.sqrt_two_mul_self' = foo! ∧ bar?");
    expect(d.refs).toEqual(['le_rfl', 'Nat.succ_le_iff.mp']);
  });
});

describe('extractLean: structures, classes, inductives, instances', () => {
  const res = run('Structures.lean');

  it('emits structure fields with parameters and self, extends parents and the constructor', () => {
    const s = byName(res, 'Shapes.Point');
    expect(s).toMatchObject({ kind: 'structure', args: ['(α : Type*)'], doc: 'A point.', attrs: ['ext'] });
    expect(s.statement).toBe('structure Point (α : Type*) extends Inhabited α');
    expect(byName(res, 'Shapes.Point.toInhabited')).toMatchObject({
      kind: 'field',
      goal: 'Inhabited α',
      origin: 'Shapes.Point',
    });
    const x = byName(res, 'Shapes.Point.x');
    expect(x).toMatchObject({ kind: 'field', args: ['(α : Type*)', '(self : Point α)'], goal: 'α', doc: 'first coordinate' });
    expect(byName(res, 'Shapes.Point.y').goal).toBe('α');
    expect(byName(res, 'Shapes.Point.scale').args).toEqual(['(α : Type*)', '(self : Point α)', '(k : ℕ)']);
    expect(byName(res, 'Shapes.Point.mk')).toMatchObject({ kind: 'constructor', goal: 'Point α' });
    expect(byName(res, 'Shapes.Point.ext').origin).toBe('Shapes.Point');
    expect(byName(res, 'Shapes.Point.ext_iff').kind).toBe('theorem');
  });

  it('emits class fields (plain and bracketed) with an instance self binder', () => {
    expect(byName(res, 'Shapes.MyMonoid').kind).toBe('class');
    expect(byName(res, 'Shapes.MyMonoid.toMul').goal).toBe('Mul M');
    expect(byName(res, 'Shapes.MyMonoid.toOne').goal).toBe('One M');
    const f = byName(res, "Shapes.MyMonoid.mul_one'");
    expect(f.args).toEqual(['(M : Type*)', '[self : MyMonoid M]']);
    expect(f.goal).toBe('∀ a : M, a * 1 = a');
    expect(byName(res, "Shapes.MyMonoid.one_mul'").goal).toBe('∀ a : M, 1 * a = a');
  });

  it('uses a custom constructor name', () => {
    expect(byName(res, 'Shapes.Pair.mkPair').args).toEqual(['(fst : ℕ)', '(snd : ℕ)']);
    expect(res.decls.some((d) => d.name === 'Shapes.Pair.mk')).toBe(false);
    expect(byName(res, 'Shapes.Pair.snd').args).toEqual(['(self : Pair)']);
  });

  it('emits inductive constructors with docs, binders and default goals', () => {
    expect(byName(res, 'Shapes.Tree').statement).toBe('inductive Tree (β : Type)');
    expect(byName(res, 'Shapes.Tree.leaf')).toMatchObject({ kind: 'constructor', goal: 'Tree β', doc: 'a leaf' });
    expect(byName(res, 'Shapes.Tree.node').args).toEqual(['(β : Type)', '(l r : Tree β)', '(v : β)']);
    expect(byName(res, 'Shapes.Tree.empty').goal).toBe('Tree β');
    expect(res.decls.some((d) => d.name.includes('Repr'))).toBe(false);
    expect(byName(res, 'Shapes.Good')).toMatchObject({ kind: 'class', goal: 'Prop' });
    expect(byName(res, 'Shapes.Good.intro').goal).toBe('Good');
  });

  it('names anonymous instances and treats the `where` body as the body', () => {
    const i = byName(res, 'Shapes.instInhabitedPointNat');
    expect(i).toMatchObject({ kind: 'instance', goal: 'Inhabited (Point ℕ)', statement: 'instance : Inhabited (Point ℕ)' });
    expect(i.refs).toEqual([]); // `default :=` is a field being defined
    const n = byName(res, 'Shapes.instNamed');
    expect(n.args).toEqual(['{γ : Type}', '[Inhabited γ]']);
    expect(n.refs).toEqual(['Tree.leaf']);
  });

  it('splits pattern-matching definitions at the first arm', () => {
    const d = byName(res, 'Shapes.depth');
    expect(d.goal).toBe('Tree ℕ → ℕ');
    expect(d.statement).toBe('def depth : Tree ℕ → ℕ');
    expect(d.refs).toEqual(['.leaf', '.node', 'max', '.empty']);
  });

  it('generates @[simps] lemmas', () => {
    expect(byName(res, 'Shapes.swapEquiv_apply')).toMatchObject({ kind: 'theorem', origin: 'Shapes.swapEquiv' });
    expect(byName(res, 'Shapes.swapEquiv_symm_apply').origin).toBe('Shapes.swapEquiv');
    expect(byName(res, 'Shapes.pairOf_fst').args).toEqual(['(n : ℕ)']);
    expect(byName(res, 'Shapes.pairOf_snd').origin).toBe('Shapes.pairOf');
    expect(res.decls.some((d) => d.name === 'Shapes.pairOf_apply')).toBe(false);
  });

  it('generates @[to_additive] twins with explicit names (multi-line attribute)', () => {
    const m = byName(res, 'Shapes.mul_twin');
    expect(m.attrs).toEqual(['simp', 'to_additive']);
    const a = byName(res, 'Shapes.add_twin_explicit');
    expect(a).toMatchObject({
      origin: 'Shapes.mul_twin',
      doc: 'The additive version.',
      attrs: ['simp'],
      args: ['{M : Type*}', '[MyAddMonoid M]', '(a : M)'],
      goal: 'a + 0 = a',
      statement: 'theorem add_twin_explicit {M : Type*} [MyAddMonoid M] (a : M) : a + 0 = a',
    });
    expect(a.refs).toEqual(["MyAddMonoid.add_zero'"]);
  });

  it('translates names by the dictionary, including namespaces and instances', () => {
    const a = byName(res, 'Shapes.AddMonoid.sum_add_neg_zero');
    expect(a.origin).toBe('Shapes.Monoid.prod_mul_inv_one');
    expect(a.args).toEqual(['{G : Type*}', '[AddGroup G]', '(a : G)']);
    expect(a.goal).toBe('a + -a = 0');
    expect(a.refs).toEqual(['add_neg_cancel']);
    expect(byName(res, 'Shapes.instZeroPointNat')).toMatchObject({ kind: 'instance', goal: 'Zero (Point ℕ)', origin: 'Shapes.instOnePointNat' });
  });
});

describe('extractLean: signatures', () => {
  const res = run('Binders.lean');

  it('parses multi-line binders with nested brackets, defaults and `:` inside', () => {
    const d = byName(res, 'multi_line');
    expect(d.args).toEqual([
      '{α : Type*}',
      '[inst : DecidableEq α]',
      '(f : α → (β : Type) → β)',
      '(h : ∀ x : α, f x = f x := by simp)',
      '⦃y : α⦄',
      '{{z : α}}',
    ]);
    expect(d.goal).toBe('{x : α | x = y} = {x | x = z} ∧ (fun w : α => w) y = y');
    expect(d.refs).toEqual(['Set.ext_iff']);
  });

  it('ignores `:=` and `:` inside strings and set-builder/subtype braces', () => {
    expect(byName(res, 'withString')).toMatchObject({ args: ['(s : String := "a := b : c")'], goal: 'String' });
    const s = byName(res, 'subtype_goal');
    expect(s.goal).toBe('{m : ℕ // m < n} → ℕ');
    expect(s.doc).toBe('Docstring with `a - /b` and /- nested -/ comment markers.');
  });

  it('does not mistake |abs| at the start of a line for a match arm', () => {
    expect(byName(res, 'abs_goal').goal).toBe('|a + b| ≤ |a| + |b|');
    expect(byName(res, 'abs_goal').refs).toEqual(['abs_add']);
  });

  it('handles defs without a type, universe parameters, opaque and axiom', () => {
    expect(byName(res, 'noType')).toMatchObject({ goal: '', statement: 'def noType (x : ℕ)', args: ['(x : ℕ)'] });
    expect(byName(res, 'MyNat')).toMatchObject({ kind: 'abbrev', goal: 'Type' });
    expect(byName(res, 'secret')).toMatchObject({ kind: 'opaque', goal: 'ℕ', refs: [] });
    expect(byName(res, 'choice_ax')).toMatchObject({ kind: 'axiom', args: ['{α : Sort*}'], goal: 'Nonempty α → α' });
    expect(res.warnings).toEqual([]);
  });
});

describe('extractLean: inline cases', () => {
  const ex = (src: string): FileExtraction => extractLean(src, 'T.lean', 'T');

  it('rebinds variables with `variable (x)` and honours `include`', () => {
    const res = ex(
      [
        'variable {R : Type*} [Ring R] {x : R} (hx : x = x)',
        'variable (R)',
        'theorem a1 : (0 : R) = 0 := rfl',
        'include hx in',
        'theorem a2 : True := trivial',
        'theorem a3 : True := trivial',
      ].join('\n'),
    );
    expect(byName(res, 'a1').args).toEqual(['(R : Type*)', '[Ring R]']);
    expect(byName(res, 'a2').args).toEqual(['(R : Type*)', '[Ring R]', '{x : R}', '(hx : x = x)']);
    expect(byName(res, 'a3').args).toEqual([]);
  });

  it('keeps variable order when rebinding one name of a group', () => {
    const res = ex(['variable (s t : Set ℕ)', 'variable {s}', 'theorem b1 : s ⊆ t := sorry'].join('\n'));
    expect(byName(res, 'b1').args).toEqual(['{s : Set ℕ}', '(t : Set ℕ)']);
  });

  it('handles mutual blocks, `end` names and sections with names', () => {
    const res = ex(
      [
        'namespace N',
        'section S',
        'mutual',
        '  def isEven : ℕ → Bool',
        '    | 0 => true',
        '    | n + 1 => isOdd n',
        '  def isOdd : ℕ → Bool',
        '    | 0 => false',
        '    | n + 1 => isEven n',
        'end',
        'end S',
        'theorem t : True := trivial',
        'end N',
      ].join('\n'),
    );
    expect(res.decls.map((d) => d.name)).toEqual(['N.isEven', 'N.isOdd', 'N.t']);
    expect(byName(res, 'N.isEven').refs).toEqual(['true', 'isOdd']);
    expect(res.warnings).toEqual([]);
  });

  it('reads attribute flavours: scoped/local, to_additive existing, reassoc, ext on theorems', () => {
    const res = ex(
      [
        '@[scoped simp, to_additive existing]',
        'theorem mul_x : True := trivial',
        '@[reassoc (attr := simp)]',
        'theorem comp_x : True := trivial',
        '@[ext] theorem Foo.ext : True := trivial',
        'attribute [local instance] foo',
        'open scoped BigOperators',
        'theorem after : True := trivial',
      ].join('\n'),
    );
    expect(res.decls.map((d) => d.name)).toEqual(['mul_x', 'comp_x', 'comp_x_assoc', 'Foo.ext', 'Foo.ext_iff', 'after']);
    expect(byName(res, 'mul_x').attrs).toEqual(['simp', 'to_additive']);
    expect(byName(res, 'comp_x_assoc').origin).toBe('comp_x');
    expect(byName(res, 'after').scope.opens).toEqual([]);
  });

  it('handles alias and export', () => {
    const res = ex(['alias ⟨mp_name, _⟩ := foo_iff', 'alias other := bar', 'export MulZeroClass (mul_zero)'].join('\n'));
    expect(res.decls.map((d) => [d.name, d.origin])).toEqual([
      ['mp_name', 'foo_iff'],
      ['other', 'bar'],
      ['mul_zero', 'MulZeroClass.mul_zero'],
    ]);
  });

  it('generates additive twins from `attribute [to_additive] …`', () => {
    const res = ex(['theorem mul_self_thing (a : M) : a * a = a := sorry', 'attribute [to_additive] mul_self_thing'].join('\n'));
    expect(byName(res, 'add_self_thing')).toMatchObject({ origin: 'mul_self_thing', goal: 'a + a = a' });
  });

  it('`attribute [to_additive]` takes the first hand-written declaration of a name, in the namespace or not, and adds no name twice', () => {
    const res = ex(
      [
        'theorem mul_one_x (a : M) : a * 1 = a := sorry',
        'namespace N',
        'theorem mul_one_x (a : M) : 1 * a = a := sorry',
        'theorem add_two_x : True := trivial',
        'attribute [to_additive] mul_one_x mul_one_x',
        'theorem mul_two_x (a : M) : a * a = a := sorry',
        'attribute [to_additive] mul_two_x mul_nowhere',
        'end N',
      ].join('\n'),
    );
    expect(res.decls.filter((d) => d.origin).map((d) => [d.name, d.origin, d.goal])).toEqual([['add_zero_x', 'mul_one_x', 'a + 0 = a']]);
    expect(res.decls.map((d) => d.name)).toEqual(['mul_one_x', 'N.mul_one_x', 'N.add_two_x', 'add_zero_x', 'N.mul_two_x']);
  });
});

describe('extractLean: malformed input', () => {
  const ex = (src: string): FileExtraction => extractLean(src, 'Bad.lean', 'Bad');

  it('survives binary garbage', () => {
    let seed = 7;
    let s = '';
    for (let i = 0; i < 200_000; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      s += String.fromCharCode(seed % 0xffff);
    }
    const res = ex(s + '\ntheorem ok_after : True := trivial\n');
    expect(Array.isArray(res.decls)).toBe(true);
    expect(res.warnings.length).toBeGreaterThan(0);
  });

  it('reports unterminated comments and strings', () => {
    const a = ex('theorem before : True := trivial\n/- never closed\ntheorem hidden : True := trivial\n');
    expect(a.decls.map((d) => d.name)).toEqual(['before']);
    expect(a.warnings.some((w) => /unterminated block comment/.test(w))).toBe(true);
    const b = ex('def s : String := "open\ntheorem x : True := trivial\n');
    expect(b.warnings.some((w) => /unterminated string/.test(w))).toBe(true);
  });

  it('handles mismatched brackets and truncated declarations', () => {
    const res = ex('theorem broken (a : ℕ : a = a := rfl\n\ntheorem fine (b : ℕ) : b = b := rfl\ntheorem cut (x : ℕ) : x =');
    expect(byName(res, 'fine').goal).toBe('b = b');
    expect(byName(res, 'cut').goal).toBe('x =');
    expect(res.warnings.some((w) => /unbalanced/.test(w))).toBe(true);
  });

  it('handles stray ends, empty input and unnamed declarations', () => {
    expect(ex('')).toEqual({ decls: [], warnings: [] });
    const res = ex('end Foo\nend\ntheorem : True := trivial\nnamespace');
    expect(res.decls).toEqual([]);
    expect(res.warnings.length).toBe(4);
  });

  it('bounds what a file puts in force: nesting past 64 frames, past 256 opens or variable groups is ignored, with one warning each', () => {
    const deep = ex('namespace N\n'.repeat(100) + 'theorem inner : True := trivial\n' + 'end N\n'.repeat(100) + 'theorem outer : True := trivial\n');
    expect(deep.decls.map((d) => d.name)).toEqual([`${'N.'.repeat(64)}inner`, 'outer']);
    expect(deep.warnings).toEqual(['Bad.lean: more than 64 nested namespaces/sections: the rest are ignored']);
    const opens = Array.from({ length: 300 }, (_, i) => `open O${i}\nopen O${i}\nvariable (x${i} : Nat)\n`).join('');
    const wide = ex(opens + 'theorem t (h : x0 = x0) : True := trivial\n');
    const t = wide.decls.find((d) => d.name === 't')!;
    expect(t.scope.opens).toHaveLength(256);
    expect(t.scope.opens.slice(0, 2)).toEqual(['O0', 'O1']);
    expect(t.args[0]).toBe('(x0 : Nat)');
    expect(wide.warnings).toEqual(['Bad.lean: more than 256 opened names in force: the rest are ignored', 'Bad.lean: more than 256 variable groups in force: the rest are ignored']);
    // `open … in` chains count too
    const chain = ex(Array.from({ length: 300 }, (_, i) => `open P${i} in`).join('\n') + '\ntheorem c : True := trivial\n');
    expect(chain.decls[0]!.scope.opens).toHaveLength(256);
  });

  it('extracts a structure with more fields than a call takes arguments', () => {
    const res = ex('structure Wide where\n' + '  f : Nat\n'.repeat(300_000));
    expect(res.warnings).toEqual([]);
    expect(res.decls).toHaveLength(300_002);
  });

  it('follows a long `open … in` chain without running out of stack', () => {
    const res = ex('open Nat in '.repeat(100_000) + 'theorem chained : True := trivial\n');
    expect(res.warnings).toEqual([]);
    expect(res.decls.map((d) => [d.name, d.scope.opens])).toEqual([['chained', ['Nat']]]);
  });

  it('is linear on a 1 MB single line and deep nesting', () => {
    const line = 'theorem big : ' + '('.repeat(100_000) + 'a + b * c = d '.repeat(50_000) + ' := rfl';
    const t0 = performance.now();
    const res = ex(line);
    expect(performance.now() - t0).toBeLessThan(3000);
    expect(res.decls).toHaveLength(1);
    expect(res.decls[0]!.name).toBe('big');
    expect(res.decls[0]!.goal.startsWith('(((')).toBe(true);
    expect(res.warnings).toEqual([]);
  });

  it('never throws on non-string or odd input', () => {
    expect(() => extractLean(undefined as unknown as string, 'x', 'x')).not.toThrow();
    expect(extractLean(undefined as unknown as string, 'x', 'x').warnings).toHaveLength(1);
    expect(() => ex('@[\n@[simp\n/--\n')).not.toThrow();
  });
});

describe('to_additive name dictionary', () => {
  it.each([
    ['mul_comm', 'add_comm'],
    ['one_mul', 'zero_add'],
    ['Finset.prod_comm', 'Finset.sum_comm'],
    ['inv_mul_cancel', 'neg_add_cancel'],
    ['div_eq_mul_inv', 'sub_eq_add_neg'],
    ['CommMonoid', 'AddCommMonoid'],
    ['LeftCancelMonoid', 'AddLeftCancelMonoid'],
    ['Monoid.npow', 'AddMonoid.nsmul'],
    ['IsUnit.mul_iff', 'IsAddUnit.add_iff'],
    ['smul_comm', 'vadd_comm'],
    ['SMul', 'VAdd'],
    ['Pow', 'SMul'],
    ['zpow_natCast', 'zsmul_natCast'],
    ['mabs_of_one_le', 'abs_of_nonneg'],
    ['Prod.fst_mul', 'Prod.fst_add'],
    ['finprod_one', 'finsum_zero'],
    ["mul_one'", "add_zero'"],
    ['commute_iff', 'addCommute_iff'],
  ])('%s → %s', (from, to) => {
    expect(translateName(from)).toBe(to);
  });
});

describe('extractLean: several commands on one line', () => {
  const ex = (src: string): FileExtraction => extractLean(src, 'One.lean', 'One');

  it('a 3 MB file on a single line yields every declaration', () => {
    const decls: string[] = [];
    for (let i = 0, bytes = 0; bytes < 3_000_000; i++) {
      decls.push(`theorem thm_${i} (n : Nat) : n + ${i} = ${i} + n := by omega`);
      bytes += decls[i]!.length + 1;
    }
    const res = ex(decls.join(' '));
    expect(res.decls).toHaveLength(decls.length);
    const last = res.decls[res.decls.length - 1]!;
    expect(last.name).toBe(`thm_${decls.length - 1}`);
    expect(last.goal).toBe(`n + ${decls.length - 1} = ${decls.length - 1} + n`);
    expect(last.range.start).toEqual({ line: 0, character: decls.join(' ').lastIndexOf('theorem') });
  });

  it('keeps attributes, modifiers, namespaces and docstrings with their declaration on the same line', () => {
    const src = 'namespace A theorem a : True := trivial @[simp] private theorem b : 1 = 1 := rfl /-- doc of c -/ def c : Nat := 1 end A theorem d : 2 = 2 := rfl';
    const res = ex(src);
    expect(res.decls.map((d) => d.name)).toEqual(['A.a', 'A.b', 'A.c', 'd']);
    expect(byName(res, 'A.b').attrs).toContain('simp');
    expect(byName(res, 'A.b').statement).toBe('theorem b : 1 = 1');
    expect(byName(res, 'A.c').doc).toBe('doc of c');
    expect(res.warnings).toEqual([]);
  });

  it('a keyword that continues its command does not split it', () => {
    const src = [
      'class inductive Foo : Prop | intro',
      'attribute [local instance] Foo.intro',
      'open Nat in theorem e : True := trivial',
      'deriving instance Repr for Foo',
    ].join('\n');
    const res = ex(src);
    expect(res.decls.map((d) => d.name)).toEqual(expect.arrayContaining(['Foo', 'e']));
    expect(res.decls.map((d) => d.name)).not.toContain('intro');
    expect(res.warnings).toEqual([]);
  });
});

describe("Lean's module system: definitions whose bodies are hidden (issue 35, LeanHammer's visibility)", () => {
  const src = [
    '/- Copyright -/',
    'module',
    '',
    'public import Mathlib.Tactic',
    '',
    'public def hidden (n : Nat) : Nat := n',
    '@[expose] public def shown (n : Nat) : Nat := n',
    'public abbrev short (n : Nat) : Nat := n',
    'public instance instHidden : Inhabited Nat := ⟨0⟩',
    'public theorem thm (n : Nat) : hidden n = n := rfl',
    '@[expose] public section',
    'def inExposed (n : Nat) : Nat := n',
    'end',
    'section',
    'def inPlain (n : Nat) : Nat := n',
    'end',
  ].join('\n');
  const flags = (text: string) => Object.fromEntries(extractLean(text, 'M.lean', 'M').decls.map((d) => [d.name, d.unexposed ?? false]));

  it('marks a def or instance of a `module` file unexposed unless @[expose] (on it or its section) exposes it', () => {
    expect(flags(src)).toEqual({ hidden: true, shown: false, short: false, instHidden: true, thm: false, inExposed: false, inPlain: true });
  });

  it('marks nothing in a file outside the module system', () => {
    expect(Object.values(flags(src.replace('\nmodule\n', '\n')))).not.toContain(true);
  });
});
