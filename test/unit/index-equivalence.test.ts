/**
 * The index build's fast paths against the plain code they replaced (kept here
 * as references): the same postings, renderings and string orders, so an index
 * built by either is byte-identical.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { extractCorpus } from '../../indexes/src/build.js';
import type { PremiseRecord } from '../../indexes/src/extract/record.js';
import { partWords } from '../../indexes/src/informal/naming.js';
import { renderStatement } from '../../indexes/src/informal/render.js';
import { informalText, sparseText } from '../../indexes/src/premise-text.js';
import { Bm25Index, B, K1, type TermRun } from '../../indexes/src/sparse/bm25.js';
import { englishTerms } from '../../indexes/src/informal/english.js';
import { splitIdent, terms } from '../../indexes/src/sparse/terms.js';
import { encodeStrings } from '../../indexes/src/store/strings.js';

let records: PremiseRecord[] = [];
beforeAll(async () => {
  records = (await extractCorpus([join(__dirname, '..', 'fixtures')], undefined, {}, [], { threads: 1 })).records;
});

const TRICKY = [
  '∀ x ∈ s, a ∣ b → |a * b| ≤ √c',
  'cos (-x) = cos x',
  'sin (-x) = -sin x',
  'f (x + y) = f x + f y',
  'g (a * b) = g a * g b',
  '1234567890123456 + 0 = 3 ∧ 2 ≠ 1',
  '∃! n, n⁻¹ = 1 ↔ ⊤ ⊆ ⊥ ∪ ∅ ᶜ',
  'Nat.succ_le_iff x.1 𝓝 𝕜 ‖v‖ ∑ i ∈ range n, i ^ 2 / 2',
  '',
  '!!  *+  ∘ • π ℝ ℂ ℚ ℤ ℕ ∞ ∫ ∏ ⨆ ⨅ ⊔ ⊓ ∉ ⟹ → ¬ ∨ ≥ > < =',
];

/** renderStatement before the first-character dispatch. */
function renderReference(text: string): string {
  const SYMBOLS: [string, string][] = [
    ['⁻¹', 'inverse'], ['∀', 'for all every'], ['∃!', 'exists unique'], ['∃', 'exists there is some'], ['↔', 'if and only if equivalent'],
    ['→', 'implies then'], ['⟹', 'implies then'], ['¬', 'not'], ['∧', 'and'], ['∨', 'or'], ['≠', 'not equal'],
    ['≤', 'less than or equal at most'], ['≥', 'greater than or equal at least'], ['<', 'less than'], ['>', 'greater than'],
    ['∣', 'divides divisible'], ['∈', 'member in element'], ['∉', 'not member'], ['⊆', 'subset'], ['⊂', 'strict subset'],
    ['∪', 'union'], ['∩', 'intersection'], ['ᶜ', 'complement'], ['⊔', 'supremum join'], ['⊓', 'infimum meet'], ['⨆', 'supremum'],
    ['⨅', 'infimum'], ['∑', 'sum'], ['∏', 'product'], ['∫', 'integral'], ['√', 'square root'], ['∘', 'composition composed'],
    ['•', 'scalar multiplication'], ['‖', 'norm'], ['|', 'absolute value'], ['∞', 'infinity'], ['π', 'pi'], ['ℕ', 'natural number'],
    ['ℤ', 'integer'], ['ℚ', 'rational'], ['ℝ', 'real number'], ['ℂ', 'complex number'], ['⊤', 'top'], ['⊥', 'bottom'],
    ['∅', 'empty set'], ['*', 'times product'], ['+', 'plus sum'], ['/', 'divided quotient'], ['^', 'power'], ['=', 'equals'], ['!', 'factorial'],
  ];
  const NUMBER_WORDS: Record<string, string> = { '0': 'zero', '1': 'one', '2': 'two', '3': 'three' };
  const IDENT = /[\p{L}_][\p{L}\p{N}_'.]*/uy;
  const out: string[] = [];
  let i = 0;
  outer: while (i < text.length) {
    IDENT.lastIndex = i;
    const m = IDENT.exec(text);
    if (m) {
      i += m[0].length;
      for (const comp of m[0].split('.')) for (const part of splitIdent(comp)) if (part.length >= 2 && partWords(part)) out.push(partWords(part));
      continue;
    }
    const d = /^[0-9]+/.exec(text.slice(i, i + 12));
    if (d) {
      out.push(NUMBER_WORDS[d[0]] ?? '');
      i += d[0].length;
      continue;
    }
    for (const [sym, words] of SYMBOLS) {
      if (text.startsWith(sym, i)) {
        out.push(words);
        i += sym.length;
        continue outer;
      }
    }
    i++;
  }
  const shape: string[] = [];
  const m = /(\S+) \(-(\w+)\) = (-?)\s*\1 \2\b/u.exec(text);
  if (m) shape.push(m[3] ? 'odd function' : 'even function symmetric');
  if (/\b(\w+) \(\w+ \+ \w+\) = \1 \w+ \+ \1 \w+/u.test(text)) shape.push('additive linear');
  if (/\b(\w+) \(\w+ \* \w+\) = \1 \w+ \* \1 \w+/u.test(text)) shape.push('multiplicative');
  return [...out, ...shape].filter(Boolean).join(' ');
}

/** terms() before the remembered identifiers and the character-code checks. */
function termsReference(text: string): string[] {
  const STOP = new Set(
    ('a an the of to in on for and or is are be by with that this it its as at from if then there any all some every each which such where when we our let show ' +
      'prove proof given find suppose assume has have using into than two one').split(' '),
  );
  const IDENT_RE = /[\p{L}_][\p{L}\p{N}_'!?₀-₉ₐ-ₜᵢ-ᵪ]*(?:\.[\p{L}_][\p{L}\p{N}_'!?₀-₉ₐ-ₜᵢ-ᵪ]*)*/uy;
  const ASCII_OPS = ['<->', '->', '<=', '>=', '!=', '==', ':=', '::', '=>', '||', '&&', '++'];
  const NOISE = new Set([...' \t\r\n()[]{},;:`"\'↑⇑↥✝']);
  const pushIdent = (ident: string, out: string[]) => {
    const stripped = ident.replace(/✝\d*/g, '');
    const comps = stripped.split('.');
    const lowerLast = comps[comps.length - 1]!.toLowerCase();
    const parts: string[] = [];
    for (const c of comps) parts.push(...splitIdent(c));
    let kept = 0;
    for (const p of parts) {
      if (p.length === 1 && /[a-z]/.test(p)) continue;
      if (/^[₀-₉ₐ-ₜᵢ-ᵪ'!?]+$/u.test(p)) continue;
      if (STOP.has(p) && comps.length === 1 && parts.length === 1) continue;
      out.push(p);
      kept++;
    }
    if (kept > 1 && lowerLast.length > 1) out.push(lowerLast);
    if (comps.length > 1) out.push(stripped.toLowerCase());
  };
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (NOISE.has(ch)) {
      i++;
      continue;
    }
    IDENT_RE.lastIndex = i;
    const m = IDENT_RE.exec(text);
    if (m && m[0].length > 0) {
      pushIdent(m[0], out);
      i += m[0].length;
      continue;
    }
    if (ch >= '0' && ch <= '9') {
      let j = i;
      while (j < text.length && /[0-9]/.test(text[j]!)) j++;
      out.push(text.slice(i, j));
      i = j;
      continue;
    }
    const op = ASCII_OPS.find((o) => text.startsWith(o, i));
    if (op) {
      out.push(op);
      i += op.length;
      continue;
    }
    const sym = String.fromCodePoint(text.codePointAt(i)!);
    i += sym.length;
    if (/\s/u.test(sym)) continue;
    if (sym === '⁻' && text[i] === '¹') {
      out.push('⁻¹');
      i++;
      continue;
    }
    out.push(sym);
  }
  return out;
}

/** Bm25Index.build with a Map per document and an array per term. */
function bm25Reference(docTerms: string[][]) {
  const termIds = new Map<string, number>();
  const vocab: string[] = [];
  const perTerm: number[][] = [];
  docTerms.forEach((ts, doc) => {
    const tf = new Map<string, number>();
    for (const t of ts) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [term, f] of tf) {
      let id = termIds.get(term);
      if (id === undefined) {
        termIds.set(term, (id = vocab.length));
        vocab.push(term);
        perTerm.push([]);
      }
      perTerm[id]!.push(doc, f);
    }
  });
  const dls = Float32Array.from(docTerms.map((t) => t.length));
  const avgdl = docTerms.length ? dls.reduce((a, b) => a + b, 0) / docTerms.length : 1;
  const offsets: number[] = [];
  const docs: number[] = [];
  const weights: number[] = [];
  for (const p of perTerm) {
    offsets.push(docs.length);
    for (let i = 0; i < p.length; i += 2) {
      docs.push(p[i]!);
      weights.push((p[i + 1]! * (K1 + 1)) / (p[i + 1]! + K1 * (1 - B + (B * dls[p[i]!]!) / avgdl)));
    }
  }
  offsets.push(docs.length);
  return { vocab, offsets: Uint32Array.from(offsets), docs: Uint32Array.from(docs), weights: Float32Array.from(weights) };
}

const arrays = (ix: Bm25Index) => ({ vocab: ix.vocab(), offsets: ix.arrays.offsets, docs: ix.arrays.docs, weights: ix.arrays.weights });

describe('index build fast paths', () => {
  it('render statements as before', () => {
    const texts = [...TRICKY, ...records.flatMap((r) => [r.statement, r.goal, `${r.args.join(' ')} ${r.goal}`])];
    expect(texts.length).toBeGreaterThan(50);
    for (const t of texts) expect(renderStatement(t)).toBe(renderReference(t));
  });

  it('build the same postings as a Map per document', () => {
    const formal = [...records.map((r) => terms(sparseText(r))), ...TRICKY.map(terms), [], ['x', 'x', 'x']];
    const informal = records.map((r) => englishTerms(informalText(r)));
    for (const docs of [formal, informal, [], [[]], [['a'], ['b', 'a', 'b']]]) {
      const ref = bm25Reference(docs);
      const ix = Bm25Index.build(docs);
      expect(arrays(ix)).toEqual(ref);
      expect(ix.docCount).toBe(docs.length);
    }
    // documents as runs of ids into shared term tables (the extraction workers' form), split across tables
    const toRuns = (docs: string[][], perTable: number): TermRun[] => {
      const runs: TermRun[] = [];
      for (let at = 0; at < docs.length; at += perTable) {
        const table = { terms: [] as string[], ids: new Uint32Array(0) };
        const index = new Map<string, number>();
        const ids: number[] = [];
        for (const ts of docs.slice(at, at + perTable)) {
          const start = ids.length;
          for (const t of ts) {
            if (!index.has(t)) index.set(t, table.terms.push(t) - 1);
            ids.push(index.get(t)!);
          }
          runs.push({ table, start, end: ids.length });
        }
        table.ids = Uint32Array.from(ids);
      }
      return runs;
    };
    for (const perTable of [1, 7, 1000]) {
      expect(arrays(Bm25Index.buildFromRuns(toRuns(formal, perTable)))).toEqual(bm25Reference(formal));
      expect(arrays(Bm25Index.buildFromRuns(toRuns(informal, perTable)))).toEqual(bm25Reference(informal));
    }
    // more terms than the first tables hold
    const many = Array.from({ length: 300 }, (_, d) => Array.from({ length: 40 }, (_, j) => `t${(d * 7 + j * 13) % 5000}`));
    expect(arrays(Bm25Index.build(many))).toEqual(bm25Reference(many));
  });

  it('give the same terms as before, also on a second, remembered, pass, and never share arrays with callers', () => {
    const texts = [...TRICKY, ...records.map(sparseText), 'a <-> b -> c <= d >= e != f == g := h :: i => j || k && l ++ m', 'x\u00A0y\u2003z\u3000w ⁻¹ ⁻ ¹ 𝕜.x_y h✝¹ inst✝'];
    const first = texts.map(terms);
    expect(first).toEqual(texts.map(termsReference));
    expect(texts.map(terms)).toEqual(first);
    const parts = splitIdent('HasFDerivAt');
    parts.push('changed');
    expect(splitIdent('HasFDerivAt')).toEqual(['has', 'f', 'deriv', 'at']);
  });

  it('sort string tables bytewise, surrogate pairs and U+E000–U+FFFF included', () => {
    const strings = ['b', 'a', 'ab', '', 'é', '\uE000x', '\uFFFD', '𝕜', '𝓝', 'z', 'ℕ', '\uD7FF', 'a\uFFFF', 'a𝕜', ...records.map((r) => r.name)];
    const bufs = strings.map((s) => Buffer.from(s, 'utf8'));
    const ref = [...strings.keys()].sort((a, b) => Buffer.compare(bufs[a]!, bufs[b]!));
    expect([...encodeStrings(strings).order]).toEqual(ref);
  });
});
