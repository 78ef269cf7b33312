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
   * Adds Σ weight(term)·tfFactor into `acc` (length ≥ docCount, zero where it
   * starts) for every document containing a weighted term. Weights already
   * include IDF. The documents it scores are written to `touched` (length ≥
   * docCount), each once, and their count is returned: the top of `acc` is then
   * found without scanning the whole corpus.
   */
  accumulate(termWeights: Map<string, number>, acc: Float32Array, touched: Int32Array): number {
    const { offsets, docs, weights } = this.arrays;
    let count = 0;
    for (const [term, w] of termWeights) {
      const t = this.arrays.vocab.find(term);
      if (t === undefined || !(w > 0)) continue;
      const end = offsets[t + 1]!;
      for (let p = offsets[t]!; p < end; p++) {
        const d = docs[p]!;
        if (acc[d] === 0) touched[count++] = d;
        acc[d]! += w * weights[p]!;
      }
    }
    return count;
  }

  /**
   * Postings from each document's terms; an iterable is consumed one document at
   * a time (a large corpus's terms are never all held). Term ids are given in
   * order of first occurrence, each term's postings are in document order.
   * Invariant (test/unit/index-equivalence.test.ts): the same arrays as the plain
   * Map-per-document build (bm25Reference there).
   */
  static build(docTerms: Iterable<string[]>): Bm25Index {
    const b = new PostingsBuilder();
    for (const ts of docTerms) {
      b.startDoc(ts.length);
      for (const term of ts) b.add(b.termId(term));
    }
    return b.finish();
  }

  /**
   * The same index from documents given as runs of ids into term tables (the
   * extraction workers' batches, see TermRun): equal to `build` of the terms.
   */
  static buildFromRuns(docs: Iterable<TermRun>): Bm25Index {
    const b = new PostingsBuilder();
    const global = new Map<readonly string[], Int32Array>(); // per table: its ids here (-1: not yet)
    for (const run of docs) {
      let map = global.get(run.table.terms);
      if (map === undefined) global.set(run.table.terms, (map = new Int32Array(run.table.terms.length).fill(-1)));
      const { ids } = run.table;
      b.startDoc(run.end - run.start);
      for (let k = run.start; k < run.end; k++) {
        const local = ids[k]!;
        let id = map[local]!;
        if (id < 0) map[local] = id = b.termId(run.table.terms[local]!);
        b.add(id);
      }
    }
    return b.finish();
  }
}

/** A document's terms as `table.ids[start..end)`, ids into `table.terms`; tables are shared by many documents. */
export interface TermRun {
  table: { terms: readonly string[]; ids: Uint32Array };
  start: number;
  end: number;
}

/** Flat postings built a document at a time. */
class PostingsBuilder {
  private readonly termIds = new Map<string, number>();
  private readonly vocab: string[] = [];
  // per term: the last document it was seen in, its slot in `pairs` there, its document frequency
  private lastDoc = new Int32Array(1024).fill(-1);
  private slot = new Uint32Array(1024);
  private df = new Uint32Array(1024);
  // (term, tf) of every document, documents one after the other: docStart[d]..docStart[d+1]
  private readonly pairTerm = new GrowU32();
  private readonly pairTf = new GrowU32();
  private readonly docStart = new GrowU32();
  private readonly lengths = new GrowU32();
  private doc = -1;

  termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.vocab.length;
      this.termIds.set(term, id);
      this.vocab.push(term);
      if (id === this.lastDoc.length) {
        this.lastDoc = grown(this.lastDoc, -1);
        this.slot = grown(this.slot, 0);
        this.df = grown(this.df, 0);
      }
    }
    return id;
  }

  startDoc(length: number): void {
    this.doc++;
    this.lengths.push(length);
    this.docStart.push(this.pairTerm.length);
  }

  add(id: number): void {
    if (this.lastDoc[id] !== this.doc) {
      this.lastDoc[id] = this.doc;
      this.slot[id] = this.pairTerm.length;
      this.pairTerm.push(id);
      this.pairTf.push(1);
      this.df[id]!++;
    } else this.pairTf.data[this.slot[id]!]!++;
  }

  finish(): Bm25Index {
    const { vocab, df } = this;
    const doc = this.doc + 1;
    this.docStart.push(this.pairTerm.length);
    const dls = Float32Array.from(this.lengths.view());
    let totalLen = 0;
    for (const l of this.lengths.view()) totalLen += l;
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
    const terms = this.pairTerm.data;
    const tfs = this.pairTf.data;
    const starts = this.docStart.data;
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
