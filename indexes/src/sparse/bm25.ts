/**
 * BM25 postings over a fixed set of documents, stored as flat typed arrays so a
 * Mathlib-sized index loads without parsing (one `readFileSync`, zero-copy views).
 * Each posting stores its precomputed BM25 term-frequency factor; IDF is applied
 * at query time from statistics the caller may pool across several indexes.
 */

export const K1 = 1.2;
export const B = 0.75;

/** Term ↔ id: a Map for indexes built in memory, a sorted string table for loaded ones. */
export interface TermLookup {
  readonly size: number;
  find(term: string): number | undefined;
  get(id: number): string;
}

class MapLookup implements TermLookup {
  private readonly ids = new Map<string, number>();
  constructor(private readonly terms: string[]) {
    terms.forEach((t, i) => this.ids.set(t, i));
  }
  get size(): number {
    return this.terms.length;
  }
  find(term: string): number | undefined {
    return this.ids.get(term);
  }
  get(id: number): string {
    return this.terms[id]!;
  }
}

export interface Bm25Arrays {
  vocab: TermLookup;
  /** offsets[t]..offsets[t+1] are term t's postings; length vocab.length + 1. */
  offsets: Uint32Array;
  docs: Uint32Array;
  /** BM25 tf factor tf·(k1+1)/(tf + k1·(1−b+b·dl/avgdl)) per posting. */
  weights: Float32Array;
  docCount: number;
}

export class Bm25Index {
  constructor(readonly arrays: Bm25Arrays) {}

  /** All terms, by id. */
  vocab(): string[] {
    return Array.from({ length: this.arrays.vocab.size }, (_, i) => this.arrays.vocab.get(i));
  }

  get docCount(): number {
    return this.arrays.docCount;
  }

  /** Document frequency of a term (0 when unknown). */
  df(term: string): number {
    const t = this.arrays.vocab.find(term);
    if (t === undefined) return 0;
    return this.arrays.offsets[t + 1]! - this.arrays.offsets[t]!;
  }

  /**
   * Adds Σ weight(term)·tfFactor into `acc` (length ≥ docCount) for every
   * document containing a weighted term. Weights already include IDF.
   */
  accumulate(termWeights: Map<string, number>, acc: Float32Array): void {
    const { offsets, docs, weights } = this.arrays;
    for (const [term, w] of termWeights) {
      const t = this.arrays.vocab.find(term);
      if (t === undefined) continue;
      const end = offsets[t + 1]!;
      for (let p = offsets[t]!; p < end; p++) acc[docs[p]!]! += w * weights[p]!;
    }
  }

  /**
   * Postings from each document's terms; an iterable is consumed one document at
   * a time (a large corpus's terms are never all held). Term ids are given in
   * order of first occurrence, each term's postings are in document order.
   * Invariant (test/unit/sparse.test.ts): the same arrays as the plain
   * Map-per-document build (bm25Reference there).
   */
  static build(docTerms: Iterable<string[]>): Bm25Index {
    const termIds = new Map<string, number>();
    const vocab: string[] = [];
    // per term: the last document it was seen in, its slot in `pairs` there, its document frequency
    let lastDoc = new Int32Array(1024).fill(-1);
    let slot = new Uint32Array(1024);
    let df = new Uint32Array(1024);
    // (term, tf) of every document, documents one after the other: docStart[d]..docStart[d+1]
    const pairTerm = new GrowU32();
    const pairTf = new GrowU32();
    const docStart = new GrowU32();
    const lengths = new GrowU32();
    let doc = 0;
    for (const ts of docTerms) {
      lengths.push(ts.length);
      docStart.push(pairTerm.length);
      for (const term of ts) {
        let id = termIds.get(term);
        if (id === undefined) {
          id = vocab.length;
          termIds.set(term, id);
          vocab.push(term);
          if (id === lastDoc.length) {
            lastDoc = grown(lastDoc, -1);
            slot = grown(slot, 0);
            df = grown(df, 0);
          }
        }
        if (lastDoc[id] !== doc) {
          lastDoc[id] = doc;
          slot[id] = pairTerm.length;
          pairTerm.push(id);
          pairTf.push(1);
          df[id]!++;
        } else pairTf.data[slot[id]!]!++;
      }
      doc++;
    }
    docStart.push(pairTerm.length);
    const dls = Float32Array.from(lengths.view());
    let totalLen = 0;
    for (const l of lengths.view()) totalLen += l;
    const avgdl = doc ? totalLen / doc : 1;
    const offsets = new Uint32Array(vocab.length + 1);
    let total = 0;
    for (let t = 0; t < vocab.length; t++) {
      offsets[t] = total;
      total += df[t]!;
    }
    offsets[vocab.length] = total;
    const docs = new Uint32Array(total);
    const weights = new Float32Array(total);
    const cursor = offsets.slice(0, vocab.length);
    const terms = pairTerm.data;
    const tfs = pairTf.data;
    const starts = docStart.data;
    for (let d = 0; d < doc; d++) {
      for (let k = starts[d]!; k < starts[d + 1]!; k++) {
        const at = cursor[terms[k]!]!++;
        const tf = tfs[k]!;
        docs[at] = d;
        weights[at] = (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * dls[d]!) / avgdl));
      }
    }
    return new Bm25Index({ vocab: new MapLookup(vocab), offsets, docs, weights, docCount: doc });
  }
}

/** A growable Uint32Array. */
class GrowU32 {
  data = new Uint32Array(1024);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) this.data = grown(this.data, 0);
    this.data[this.length++] = v;
  }
  view(): Uint32Array {
    return this.data.subarray(0, this.length);
  }
}

function grown<T extends Int32Array | Uint32Array>(a: T, fill: number): T {
  const b = new (a.constructor as new (n: number) => T)(a.length * 2);
  b.set(a);
  if (fill) b.fill(fill, a.length);
  return b;
}

/** Robertson–Spärck Jones IDF with the usual +1 to stay positive. */
export function idf(df: number, docCount: number): number {
  return Math.log(1 + (docCount - df + 0.5) / (df + 0.5));
}
