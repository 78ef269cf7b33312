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

  /** Postings from each document's terms; an iterable is consumed one document at a time (a large corpus's terms are never all held). */
  static build(docTerms: Iterable<string[]>): Bm25Index {
    const termIds = new Map<string, number>();
    const vocab: string[] = [];
    const perTerm: number[][] = []; // flattened [doc, tf, doc, tf, …]
    const lengths: number[] = [];
    let doc = 0;
    for (const ts of docTerms) {
      lengths.push(ts.length);
      const tf = new Map<string, number>();
      for (const t of ts) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [term, f] of tf) {
        let id = termIds.get(term);
        if (id === undefined) {
          id = vocab.length;
          termIds.set(term, id);
          vocab.push(term);
          perTerm.push([]);
        }
        perTerm[id]!.push(doc, f);
      }
      doc++;
    }
    const dls = Float32Array.from(lengths);
    const totalLen = lengths.reduce((a, b) => a + b, 0);
    const avgdl = doc ? totalLen / doc : 1;
    const offsets = new Uint32Array(vocab.length + 1);
    let total = 0;
    perTerm.forEach((p, i) => {
      offsets[i] = total;
      total += p.length / 2;
    });
    offsets[vocab.length] = total;
    const docs = new Uint32Array(total);
    const weights = new Float32Array(total);
    let k = 0;
    for (const p of perTerm) {
      for (let i = 0; i < p.length; i += 2) {
        const doc = p[i]!;
        const tf = p[i + 1]!;
        docs[k] = doc;
        weights[k] = (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * dls[doc]!) / avgdl));
        k++;
      }
    }
    return new Bm25Index({ vocab: new MapLookup(vocab), offsets, docs, weights, docCount: doc });
  }
}

/** Robertson–Spärck Jones IDF with the usual +1 to stay positive. */
export function idf(df: number, docCount: number): number {
  return Math.log(1 + (docCount - df + 0.5) / (df + 0.5));
}
