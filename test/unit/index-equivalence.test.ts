/**
 * The index build's fast paths against plain references: the same postings as a
 * Map per document, the same terms when identifier splits are remembered, the
 * same bytewise string order as Buffer.compare.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { extractCorpus } from '../../indexes/src/build.js';
import type { PremiseRecord } from '../../indexes/src/extract/record.js';
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

  it('give the same terms on a second, remembered, pass, and never share arrays with callers', async () => {
    const texts = [...TRICKY, ...records.map(sparseText), 'a <-> b -> c <= d >= e != f == g := h :: i => j || k && l ++ m', 'x\u00A0y\u2003z\u3000w ⁻¹ ⁻ ¹ 𝕜.x_y h✝¹ inst✝'];
    // the first pass from a fresh copy of the module that remembers nothing, against this one's memo
    vi.resetModules();
    const unremembered = await import('../../indexes/src/sparse/terms.js');
    unremembered.rememberIdentifiers(0);
    const first = texts.map(unremembered.terms);
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
