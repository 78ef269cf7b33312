import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { extractIsabelle } from '../../indexes/src/extract/isabelle/extractor.js';
import { lexIsabelle } from '../../indexes/src/extract/isabelle/lexer.js';
import { splitCommands } from '../../indexes/src/extract/isabelle/commands.js';
import type { ExtractedDecl, FileExtraction } from '../../indexes/src/extract/record.js';
import { isabelleToUnicode } from '../../indexes/src/extract/symbols.js';

const fixture = (name: string): string =>
  readFileSync(fileURLToPath(new URL(`../fixtures/isabelle/${name}`, import.meta.url)), 'utf8');

const basicText = fixture('Basic.thy');
const basic = extractIsabelle(basicText, 'isabelle/Basic.thy', 'Basic');

function get(r: FileExtraction, name: string): ExtractedDecl {
  const d = r.decls.find((x) => x.name === name);
  if (!d) throw new Error(`missing ${name}; have ${r.decls.map((x) => x.name).join(', ')}`);
  return d;
}

/** 0-based line of the first occurrence of `needle`. */
function lineOf(text: string, needle: string): number {
  const at = text.indexOf(needle);
  if (at < 0) throw new Error(`not in fixture: ${needle}`);
  return text.slice(0, at).split('\n').length - 1;
}

describe('extractIsabelle: statements', () => {
  it('reads the theory name and emits Theory.fact records', () => {
    expect(basic.warnings).toEqual([]);
    const d = get(basic, 'Basic.double_add');
    expect(d.lang).toBe('isabelle');
    expect(d.module).toBe('Basic');
    expect(d.file).toBe('isabelle/Basic.thy');
    expect(d.kind).toBe('lemma');
    expect(d.scope.namespaces).toEqual(['Basic']);
    expect(d.scope.opens).toEqual(['Main', 'Multiset']);
  });

  it('splits ⟦A; B⟧ ⟹ C into premises and conclusion', () => {
    const d = get(basic, 'Basic.double_add');
    expect(d.args).toEqual(['a = b', 'b = c']);
    expect(d.goal).toBe('double a = b + c');
    expect(d.statement).toBe('lemma double_add [simp, intro]: "⟦a = b; b = c⟧ ⟹ double a = b + c"');
    expect(d.attrs).toEqual(['simp', 'intro']);
  });

  it('splits chained A ⟹ B ⟹ C', () => {
    const d = get(basic, 'Basic.chained_imp');
    expect(d.args).toEqual(['A', 'B']);
    expect(d.goal).toBe('A ∧ B');
  });

  it('reads fixes/assumes/shows, attributes stuck to the name', () => {
    const d = get(basic, 'Basic.double_mono');
    expect(d.attrs).toEqual(['simp']);
    expect(d.args).toEqual(['x y :: nat', 'x ≤ y', '0 < x']);
    expect(d.goal).toBe('double x ≤ double y');
    expect(d.statement.startsWith('lemma double_mono[simp]:')).toBe(true);
    expect(d.statement.endsWith('shows "double x ≤ double y"')).toBe(true);
    expect(d.statement).not.toContain('using');
  });

  it('joins several propositions of one lemma', () => {
    const d = get(basic, 'Basic.two_goals');
    expect(d.args).toEqual([]);
    expect(d.goal).toBe('double 0 = 0; triple 0 = 0');
  });

  it('takes obtains text as the goal', () => {
    const d = get(basic, 'Basic.obtain_form');
    expect(d.args).toEqual(['0 < n']);
    expect(d.goal).toBe('m where n = Suc m');
  });

  it('short statements with if/for', () => {
    const d = get(basic, 'Basic.if_for');
    expect(d.args).toEqual(['x :: nat', 'Q x', 'R x']);
    expect(d.goal).toBe('P x');
    expect(d.refs).toEqual(['qr_imp_p']);
  });

  it('an unnamed lemma with named conclusions yields those facts', () => {
    expect(get(basic, 'Basic.named_a').args).toEqual(['A']);
    expect(get(basic, 'Basic.named_a').goal).toBe('A');
    expect(get(basic, 'Basic.named_b').goal).toBe('B ⟶ B');
  });

  it('drops lemmas abandoned with oops', () => {
    expect(basic.decls.some((d) => d.name === 'Basic.abandoned')).toBe(false);
  });

  it('reads statements in cartouches', () => {
    expect(get(basic, 'Basic.cartouche_stmt').goal).toBe('double n = 2 * n');
    expect(get(basic, 'Basic.cor_forall').kind).toBe('corollary');
    expect(get(basic, 'Basic.cor_forall').goal).toBe('∀x::nat. x ∈ {x} ∧ x ≠ Suc x');
    expect(get(basic, 'Basic.in_context').kind).toBe('theorem');
  });

  it('ignores comments (nested), text blocks, verbatim {* *} and unnamed lemmas', () => {
    const names = basic.decls.map((d) => d.name);
    for (const fake of ['not_a_lemma', 'fake_verbatim', 'fake_text', 'inside_nested_comment']) {
      expect(names.some((n) => n.endsWith(fake))).toBe(false);
    }
    expect(basic.decls.some((d) => d.goal.includes('unnamed lemma'))).toBe(false);
  });

  it('gives 0-based ranges covering the proof', () => {
    const d = get(basic, 'Basic.double_mono');
    expect(d.range.start).toEqual({ line: lineOf(basicText, 'lemma double_mono'), character: 0 });
    expect(d.range.end.line).toBe(lineOf(basicText, 'using assms unfolding double_def'));
    const f = get(basic, 'Basic.sum_to_formula');
    expect(f.range.end.line).toBe(lineOf(basicText, 'qed\n\nlemma uses_of'));
  });

  it('keeps locale and context names in scope (innermost first), names stay Theory.fact', () => {
    expect(get(basic, 'Basic.assoc_left').scope.namespaces).toEqual(['Basic.semigrp', 'Basic']);
    expect(get(basic, 'Basic.assoc4').scope.namespaces).toEqual(['Basic.semigrp', 'Basic']);
    expect(get(basic, 'Basic.in_context').scope.namespaces).toEqual(['Basic']);
    expect(get(basic, 'Basic.cor_forall').scope.namespaces).toEqual(['Basic']);
  });
});

describe('extractIsabelle: definitions', () => {
  it('definition and abbreviation', () => {
    const d = get(basic, 'Basic.double');
    expect(d.kind).toBe('definition');
    expect(d.args).toEqual(['double :: nat ⇒ nat']);
    expect(d.goal).toBe('double n = n + n');
    expect(d.statement).toBe('definition double :: "nat ⇒ nat" where\n  "double n = n + n"');
    expect(get(basic, 'Basic.triple').goal).toBe('triple n ≡ n + n + n');
  });

  it('fun and primrec keep every equation', () => {
    const f = get(basic, 'Basic.sum_to');
    expect(f.kind).toBe('fun');
    expect(f.goal).toBe('sum_to 0 = 0; sum_to (Suc n) = Suc n + sum_to n');
    expect(get(basic, 'Basic.rev_app').goal).toBe('rev_app [] ys = ys; rev_app (x # xs) ys = rev_app xs (x # ys)');
  });

  it('inductive: the predicate and its named rules', () => {
    const p = get(basic, 'Basic.even');
    expect(p.kind).toBe('definition');
    expect(p.goal).toBe('even 0; even n ⟹ even (Suc (Suc n))');
    const step = get(basic, 'Basic.even_step');
    expect(step.kind).toBe('lemma');
    expect(step.args).toEqual(['even n']);
    expect(step.goal).toBe('even (Suc (Suc n))');
    expect(step.origin).toBe('Basic.even');
    expect(get(basic, 'Basic.even_zero').attrs).toEqual(['intro']);
  });

  it('datatype', () => {
    const t = get(basic, 'Basic.tree');
    expect(t.kind).toBe('definition');
    expect(t.goal).toBe("Leaf | Node 'a tree 'a 'a tree");
  });

  it('lemmas name = a b c', () => {
    const l = get(basic, 'Basic.double_simps');
    expect(l.kind).toBe('lemma');
    expect(l.refs).toEqual(['double_def', 'double_add', 'sum_to.simps']);
  });
});

describe('extractIsabelle: proof references', () => {
  it('simp add:, using, unfolding, auto intro:/dest:', () => {
    expect(get(basic, 'Basic.double_add').refs).toEqual(['double_def']);
    expect(get(basic, 'Basic.double_mono').refs).toEqual(['double_def', 'add_mono', 'le_trans']);
  });

  it('metis, induct rule:, case facts and local names excluded', () => {
    const r = get(basic, 'Basic.sum_to_formula').refs;
    expect(r).toEqual(['nat_induct', 'mult_Suc', 'distrib_left', 'algebra_simps']);
    expect(r).not.toContain('Suc.hyps');
    expect(r).not.toContain('h');
  });

  it('[OF …], [THEN …], *_tac … in, cut_tac, smt options', () => {
    expect(get(basic, 'Basic.uses_of').refs).toEqual([
      'trans',
      'double_def',
      'meta_eq_to_obj_eq',
      'allE',
      'ssubst',
      'foo_lemma',
      'add_Suc',
      'add_Suc_right',
    ]);
  });

  it('erule/drule_tac, rotated, del: and elim!: modifiers, -- comments', () => {
    expect(get(basic, 'Basic.elim_style').refs).toEqual(['subsetD', 'equalityE']);
    expect(get(basic, 'Basic.old_comment').refs).toEqual(['TrueI']);
    expect(get(basic, 'Basic.old_comment').statement).toBe('lemma old_comment: "True"');
  });

  it('proof (rule …), note name = …, note facts; note-bound names are local', () => {
    expect(get(basic, 'Basic.note_form').refs).toEqual(['even_step', 'even_zero', 'mult_2', 'add_0']);
  });

  it('from … have, with … show, rule, meson', () => {
    expect(get(basic, 'Basic.with_from').refs).toEqual(['even_zero', 'even_step']);
  });

  it('excludes assms and locale-free proofs give no refs', () => {
    expect(get(basic, 'Basic.obtain_form').refs).toEqual([]);
    expect(get(basic, 'Basic.chained_imp').refs).toEqual([]);
    expect(get(basic, 'Basic.assoc4').refs).toEqual(['assoc']);
  });
});

describe('extractIsabelle: symbol spellings', () => {
  it('ASCII \\<…> and Unicode spellings give the same text', () => {
    const uni = extractIsabelle(fixture('Unicode.thy'), 'isabelle/Unicode.thy', 'Unicode');
    expect(uni.warnings).toEqual([]);
    for (const short of ['double_add', 'double_mono', 'cartouche_stmt', 'cor_forall']) {
      const a = get(basic, `Basic.${short}`);
      const u = get(uni, `Unicode.${short}`);
      expect(u.args, short).toEqual(a.args);
      expect(u.goal, short).toEqual(a.goal);
      expect(u.refs, short).toEqual(a.refs);
      expect(u.attrs, short).toEqual(a.attrs);
    }
  });

  it('the whole file converted to Unicode extracts identically', () => {
    const converted = extractIsabelle(isabelleToUnicode(basicText), 'isabelle/Basic.thy', 'Basic');
    const strip = (r: FileExtraction) =>
      r.decls.map((d) => ({ ...d, range: { start: d.range.start.line, end: d.range.end.line } }));
    expect(strip(converted)).toEqual(strip(basic));
  });

  it('old ASCII meta-logic [| |] ==> becomes ⟦ ⟧ ⟹', () => {
    const uni = extractIsabelle(fixture('Unicode.thy'), 'isabelle/Unicode.thy', 'Unicode');
    const d = get(uni, 'Unicode.old_ascii');
    expect(d.args).toEqual(['P', 'Q']);
    expect(d.goal).toBe('P & Q');
  });
});

describe('extractIsabelle: bad input', () => {
  it('truncated file: keeps what is complete, warns, does not throw', () => {
    const r = extractIsabelle(fixture('Truncated.thy'), 'isabelle/Truncated.thy', 'Truncated');
    expect(r.decls.map((d) => d.name)).toContain('Truncated.complete_one');
    expect(r.warnings.some((w) => w.includes('unterminated string'))).toBe(true);
    expect(r.warnings.some((w) => w.includes('not closed by `end`'))).toBe(true);
  });

  it('Basic.thy cut at every 97th character never throws', () => {
    for (let k = 0; k < basicText.length; k += 97) {
      const r = extractIsabelle(basicText.slice(0, k), 'Basic.thy', 'Basic');
      expect(Array.isArray(r.decls)).toBe(true);
    }
  });

  it('garbage input: warnings, no throw, no hang', () => {
    let seed = 12345;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const alphabet = ['(*', '*)', '"', '`', '‹', '›', '\\<open>', '{*', '*}', '[', ']', '(', ')', 'lemma', 'fun', ':', 'where', '|', 'by', '\\<', ' ', '\n', 'x', '\u0000', '\uffff', '\ud800'];
    let junk = '';
    for (let i = 0; i < 60000; i++) junk += alphabet[Math.floor(rnd() * alphabet.length)];
    const start = Date.now();
    const r = extractIsabelle(junk, 'junk.thy', '');
    expect(Date.now() - start).toBeLessThan(5000);
    expect(r.warnings.length).toBeGreaterThan(0);
    expect(r.warnings.some((w) => w.includes('no `theory'))).toBe(true);

    const pathological = [
      '('.repeat(50000),
      '[OF '.repeat(20000),
      'x[OF '.repeat(20000),
      'have a ['.repeat(10000),
      'using a(1'.repeat(10000),
      '\\<'.repeat(50000),
      '"'.repeat(3),
      '(*'.repeat(30000),
    ];
    for (const p of pathological) {
      const t0 = Date.now();
      expect(() => extractIsabelle(`theory X imports Main begin lemma a: "x" by (rule ${p}`, 'x.thy', 'X')).not.toThrow();
      expect(Date.now() - t0).toBeLessThan(3000);
    }
    // not even a string
    expect(() => extractIsabelle(undefined as unknown as string, 'u.thy', 'U')).not.toThrow();
  });

  it('without a header the module is the file base name', () => {
    const r = extractIsabelle('lemma foo: "True" by simp\n', 'dir/NoHeader.thy', '');
    expect(r.decls.map((d) => d.name)).toEqual(['NoHeader.foo']);
    expect(r.warnings.length).toBe(1);
  });
});

describe('extractIsabelle: name clashes', () => {
  const r = extractIsabelle(fixture('Clash.thy'), 'isabelle/Clash.thy', 'Clash');
  const names = r.decls.map((d) => d.name);

  it('facts keep the plain name; constants move to their defining fact name', () => {
    expect(get(r, 'Clash.shift').kind).toBe('lemma');
    expect(get(r, 'Clash.shift_def').kind).toBe('definition');
    expect(get(r, 'Clash.walk').kind).toBe('lemma');
    expect(get(r, 'Clash.walk.simps').kind).toBe('fun');
  });

  it('qualifies clashing rules by predicate and locale facts by locale', () => {
    expect(get(r, 'Clash.base').origin).toBe('Clash.le1');
    expect(get(r, 'Clash.le2.base').origin).toBe('Clash.le2');
    expect(get(r, 'Clash.twice').goal).toBe('True');
    expect(get(r, 'Clash.loc.twice').goal).toBe('c = c');
  });

  it('names overloaded instance definitions after the instance type', () => {
    expect(names).toContain('Clash.one_nat');
    expect(r.warnings).toEqual([]);
  });
});

describe('extractIsabelle: unterminated text', () => {
  const src = [
    'theory Cart imports Main begin',
    '',
    'lemma first: "P \\<Longrightarrow> P"',
    '  using ‹P› by simp',
    '',
    'lemma broken: ‹x = (x::nat)',
    '  by simp',
    '',
    'lemma second: "y + 0 = (y::nat)"',
    '  by simp',
    '',
    'definition third :: nat where "third = 3"',
    '',
    'end',
    '',
  ].join('\n');

  it('an unterminated cartouche ends at the next theory-level command, with a warning', () => {
    const r = extractIsabelle(src, 'Cart.thy', 'Cart');
    const names = r.decls.map((d) => d.name);
    expect(names).toEqual(expect.arrayContaining(['Cart.first', 'Cart.second', 'Cart.third']));
    expect(get(r, 'Cart.second').goal).toBe('y + 0 = (y::nat)');
    for (const d of r.decls) if (d.name !== 'Cart.second') expect(d.statement).not.toContain('second');
    const w = r.warnings.find((x) => x.includes('unterminated cartouche'));
    expect(w).toMatch(/line 6\b.*resumed at `lemma` on line 9/);
  });

});

describe('deeply nested contexts', () => {
  it('share one context list per level (never rebuilt per command), and keep at most 64 names', () => {
    const src = 'theory T imports Main begin\n' + 'context begin\n'.repeat(500) + 'lemma a: "True" by simp\nlemma b: "True" by simp\n' + 'end\n'.repeat(500) + 'end\n';
    const { commands } = splitCommands(src, lexIsabelle(src).tokens);
    const lemmas = commands.filter((c) => c.kw === 'lemma');
    expect(lemmas).toHaveLength(2);
    expect(lemmas[0]!.contexts).toBe(lemmas[1]!.contexts);
    const named = 'theory T imports Main begin\n' + Array.from({ length: 100 }, (_, i) => `locale l${i} begin\n`).join('') + 'lemma a: "True" by simp\n' + 'end\n'.repeat(101);
    const r = extractIsabelle(named, 'T.thy', 'T');
    expect(r.decls.map((d) => d.name)).toEqual(['T.a']);
    expect(r.decls[0]!.scope.namespaces.slice(0, 2)).toEqual(['T.l63', 'T.l62']);
    expect(r.decls[0]!.scope.namespaces).toHaveLength(65);
    expect(r.warnings).toEqual([]);
  });
});
