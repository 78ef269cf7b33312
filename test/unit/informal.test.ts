import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadVocabulary } from '../../indexes/src/informal/vocab.js';
import { describe, expect, it } from 'vitest';
import { englishTerms } from '../../indexes/src/informal/english.js';
import { nameWords } from '../../indexes/src/informal/naming.js';
import { renderStatement } from '../../indexes/src/informal/render.js';
import { readFileSync } from 'node:fs';
import { addContext, isabelleProse } from '../../indexes/src/informal/context.js';
import { extractLean } from '../../indexes/src/extract/lean/extractor.js';
import { extractIsabelle } from '../../indexes/src/extract/isabelle/extractor.js';
import { intentOf, kindFits, readTextQuery, styleOf } from '../../server/src/engine/text-query.js';
import { Engine } from '../../server/src/engine/engine.js';
import { Segment } from '../../server/src/engine/segment.js';
import { toInfos } from '../../indexes/src/graph.js';
import { rec } from './engine-helpers.js';

describe('English terms', () => {
  it('drops stop words, keeps logical words, lemmatizes and stems', () => {
    expect(englishTerms('the product of the matrices')).toEqual(['product', 'matrix']);
    expect(englishTerms('continuous')).toEqual(englishTerms('continuity'));
    expect(englishTerms('is not injective')).toEqual(['not', 'inject']);
    expect(englishTerms('all roots')).toEqual(['all', 'root']);
  });

  it('keeps a word too long to be English whole, however long (the stemmer is quadratic in length)', () => {
    const long = `${'x'.repeat(60)}sses`;
    expect(englishTerms(`the ${long}`)).toEqual([long]);
    const huge = 'x'.repeat(1_000_000);
    expect(englishTerms(huge)).toEqual([huge]);
  });
});

describe('naming convention', () => {
  it('reads name parts as English', () => {
    expect(nameWords('abs_mul')).toContain('absolute value');
    expect(nameWords('abs_mul')).toContain('product');
    expect(nameWords('Real.sqrt_mul_self')).toContain('square root');
    expect(nameWords('Nat.succ_le_iff')).toMatch(/successor.*less than or equal.*if and only if/);
    expect(nameWords('Even.add')).toMatch(/even.*sum/);
  });
  it('reads parts that are also names of object properties as words', () => {
    expect(nameWords('Foo.constructor_toString')).toBe('foo constructor string');
  });
  it('a query in words meets the name in words', () => {
    const q = new Set(englishTerms('absolute value of a product'));
    const p = englishTerms(nameWords('abs_mul'));
    expect([...q].every((t) => p.includes(t))).toBe(true);
  });
});

describe('statement rendering', () => {
  it('turns notation into words', () => {
    const r = renderStatement('∀ x ∈ s, a ∣ b → |a * b| ≤ √c');
    for (const w of ['for all', 'member', 'divides', 'implies', 'absolute value', 'times', 'at most', 'square root']) expect(r).toContain(w);
  });
  it('names even and odd functions', () => {
    expect(renderStatement('cos (-x) = cos x')).toContain('even function');
    expect(renderStatement('sin (-x) = -sin x')).toContain('odd function');
    expect(renderStatement('cos (x + y) = cos x')).not.toContain('function');
  });
});

describe('prose context', () => {
  it('gives Lean declarations their module title and section heading', () => {
    const src = '/-!\n# Absolute values\n\nSome prose.\n-/\n\ntheorem a_one : 1 = 1 := rfl\n\n/-! ## Products -/\n\ntheorem a_two : 2 = 2 := rfl\n';
    const { decls } = extractLean(src, 'A.lean', 'A');
    addContext(decls, src, 'lean');
    expect(decls.find((d) => d.name === 'a_one')!.context).toBe('Absolute values');
    expect(decls.find((d) => d.name === 'a_two')!.context).toBe('Absolute values. Products');
  });
  it('gives Isabelle facts their section and the text block before them', () => {
    const src = 'theory T imports Main begin\nsection ‹Fundamental theorem of algebra›\ntext ‹Every polynomial has a root.›\nlemma fta: "x = x" by simp\nend\n';
    const { decls } = extractIsabelle(src, 'T.thy', 'T');
    addContext(decls, src, 'isabelle');
    expect(decls[0]!.context).toBe('Fundamental theorem of algebra. Every polynomial has a root.');
  });
  describe('Isabelle theory prose (test/fixtures/isabelle/Prose.thy)', () => {
    const src = readFileSync(new URL('../fixtures/isabelle/Prose.thy', import.meta.url), 'utf8');
    const { decls } = extractIsabelle(src, 'Prose.thy', 'Prose');
    addContext(decls, src, 'isabelle');
    const ctx = (n: string) => decls.find((d) => d.name === `Prose.${n}`)?.context;
    it('keeps the enclosing section under a subsection, and drops a text block that a heading follows', () => {
      expect(ctx('aux_degree')).toBe('Polynomials over the complex numbers. The fundamental theorem of algebra. Auxiliary lemmas');
    });
    it('reads a long {* *} text block from its end, antiquotations as their words', () => {
      expect(ctx('monic_roots')).toContain('A monic polynomial of degree n with all its roots listed');
      // the next fact is far from the block's start: the block is not about it
      expect(ctx('monic_roots_again')).toBe('Polynomials over the complex numbers. The fundamental theorem of algebra. Auxiliary lemmas');
    });
    it('reads nested cartouches, `text (in locale)` and `paragraph`', () => {
      expect(ctx('unity_mult')).toBe(
        'Polynomials over the complex numbers. The fundamental theorem of algebra. Auxiliary lemmas. Nested remarks. Roots of unity are closed under products.',
      );
    });
    it('clears the subsections under a new section', () => {
      expect(ctx('zero_poly')).toBe('Polynomials over the complex numbers. Zeros');
    });
  });
  it('renders antiquotations and symbols of document text as words', () => {
    expect(isabelleProse('Every polynomial @{term ‹p :: complex poly›} has a root in ‹ℂ› (@{thm fta}).')).toBe(
      'Every polynomial p :: complex poly has a root in ℂ (fta).',
    );
  });
});

describe('text query understanding', () => {
  it('detects the style', () => {
    expect(styleOf('Nat.succ_le_iff')).toBe('name');
    expect(styleOf('mul_comm')).toBe('name');
    expect(styleOf('lattice')).toBe('english');
    expect(styleOf('the sum of two even numbers is even')).toBe('english');
    expect(styleOf('|a * b| = |a| * |b|')).toBe('formula');
    expect(styleOf('for adjoint `f`, `f (⨆ i, x i) = ⨆ i, f (x i)`')).toBe('mixed');
    expect(styleOf('a `TopologicalSpace` where arbitrary intersections of opens are open')).toBe('mixed');
  });
  it('reads what kind of declaration is asked for', () => {
    expect(intentOf('the sum of two even numbers is even', 'english')).toBe('theorem');
    expect(intentOf('Cauchy-Schwarz inequality', 'english')).toBe('theorem');
    expect(intentOf('the definition of a lattice', 'english')).toBe('definition');
    expect(intentOf('the cosine function', 'english')).toBe('definition');
    expect(intentOf('lattice', 'english')).toBe('definition');
    expect(intentOf('Hamming distance', 'english')).toBe('any');
    expect(kindFits('theorem', 'def')).toBe(false);
    expect(kindFits('theorem', 'lemma')).toBe(true);
    expect(kindFits('any', 'def')).toBeUndefined();
  });
  it('reads formulas in words', () => {
    const q = readTextQuery('`|a * b| = |a| * |b|`');
    expect(q.english.has('absolut')).toBe(true);
  });
});

describe('English queries through the engine', () => {
  // the typical misses, in miniature: definitions outranked the theorem a sentence asks for
  const def = (name: string, goal: string, doc: string) => ({ ...rec(name, ['(x : ℝ)'], goal, [], doc), kind: 'def' as const, statement: `def ${name} (x : ℝ) : ${goal}` });
  const records = [
    def('Real.cos', 'ℝ', 'The real cosine function, defined as the real part of the complex cosine.'),
    def('Real.sqrt', 'ℝ', 'The square root of a real number. This returns 0 for negative inputs.'),
    def('AbsoluteValue', 'Type', 'Absolute value is a multiplicative, subadditive, positive definite function.'),
    rec('Real.cos_neg', ['(x : ℝ)'], 'cos (-x) = cos x'),
    rec('Real.sqrt_mul', ['{x : ℝ}', '(hx : 0 ≤ x)', '(y : ℝ)'], '√(x * y) = √x * √y'),
    rec('abs_mul', ['(a b : α)'], '|a * b| = |a| * |b|'),
    rec('Real.cos_add', ['(x y : ℝ)'], 'cos (x + y) = cos x * cos y - sin x * sin y'),
  ];
  const engine = new Engine([Segment.fromInfos(toInfos(records))]);
  const first = async (q: string, informal?: boolean) => (await engine.search(q, { mode: 'hybrid', k: 3, informal }))[0]?.name;

  it('finds the theorem a sentence asks for, which the formal side alone misses', async () => {
    for (const [q, want] of [
      ['cosine is an even function', 'Real.cos_neg'],
      ['square root of a product is the product of square roots', 'Real.sqrt_mul'],
      ['absolute value of a product is the product of absolute values', 'abs_mul'],
    ] as const) {
      expect(await first(q)).toBe(want);
      expect(await first(q, false)).not.toBe(want);
    }
  });

  it('finds a declaration by its name', async () => {
    expect(await first('Real.sqrt_mul')).toBe('Real.sqrt_mul');
  });
});

describe('English → Lean vocabulary', () => {
  it('maps English words to the name parts they stand for (seed and learned table)', () => {
    const v = loadVocabulary(join(__dirname, '../../models/vocab/en-lean.json'));
    const q = readTextQuery('a divides b and the inverse of a product', v);
    expect(q.lean.has('dvd')).toBe(true);
    expect(q.lean.has('inv')).toBe(true);
    expect(q.lean.has('mul')).toBe(true);
    expect(readTextQuery('a divides b').lean.size).toBe(0); // no vocabulary, no mapping
  });

  it('names a damaged table and skips damaged entries', () => {
    const dir = mkdtempSync(join(tmpdir(), 'premise-vocab-'));
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"format": "premise-lsp-vocab", "version": 1, "terms": ');
    expect(() => loadVocabulary(bad)).toThrow(/bad\.json: unreadable vocabulary/);
    const odd = join(dir, 'odd.json');
    writeFileSync(odd, JSON.stringify({ format: 'premise-lsp-vocab', version: 1, terms: { zorbl: [['frob', 0.5], ['x', 'y'], null, ['huge', 7]], other: 'nope' } }));
    expect(loadVocabulary(odd).get('zorbl')).toEqual([['frob', 0.5]]);
    rmSync(dir, { recursive: true, force: true });
  });
});
