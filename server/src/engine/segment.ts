/**
 * A segment is one searchable set of premises: the loaded base index, or the
 * in-memory overlay that holds upserted premises (edited workspace files). The
 * engine asks every segment and merges; a name upserted into the overlay is
 * tombstoned in the base so it is found once, in its newest form.
 */
import type { Bm25Index } from '../../../indexes/src/sparse/bm25.js';
import { buildSparseFields } from '../../../indexes/src/sparse/fields.js';
import { FlatDenseStore, type DenseStore } from '../../../indexes/src/store/dense.js';
import type { IndexParts } from '../../../indexes/src/store/index-dir.js';
import type { MashModel } from '../../../indexes/src/mash.js';
import type { PremiseInfo } from '../../../indexes/src/store/premises.js';
import type { Lang } from '../../../indexes/src/extract/record.js';
import { SymbolSets } from './symbol-sets.js';
import { ScopeMasks } from './scope.js';
import { nameStems, type NameStems } from './text-query.js';

export interface PremiseSource {
  readonly size: number;
  readonly uses: Uint32Array;
  id(name: string): number | undefined;
  name(id: number): string;
  lang(id: number): Lang;
  get(id: number): PremiseInfo;
  /** Every premise in id order, for readers of the whole table (read in blocks, past the records `get` keeps). */
  scan(): Iterable<PremiseInfo>;
  /**
   * What the premise's proof references: ids in this segment (resolved at build
   * time), or names (references into other segments: the overlay's, and a base
   * index's external references, found at query time).
   */
  refs(id: number): ArrayLike<number | string>;
}

/** A scoped dense search scores every allowed premise exactly when there are at most this many. */
const EXACT_DENSE_MAX = 50_000;

/** How many premises' name stems a segment keeps (a text query reads a few hundred candidates' names). */
const NAME_STEMS_KEPT = 10_000;

export class Segment {
  /** 1 = deleted (replaced by a newer version elsewhere, or removed). */
  readonly deleted: Uint8Array;
  /** Reused BM25 accumulators, formal and informal (queries run one at a time per engine). */
  readonly acc: Float32Array;
  readonly informalAcc: Float32Array;
  /** The documents each accumulator scored in the current search (see Bm25Index.accumulate). */
  readonly touched: Int32Array;
  readonly informalTouched: Int32Array;
  private symbolSets?: SymbolSets;
  /** The usage model fitted at index time (a base index's mash.bin; the overlay has none). */
  mash?: MashModel;
  private scopes?: ScopeMasks;
  /**
   * Uses from other segments' proofs, on top of `table.uses`: `fixed` from base
   * indexes' external references (counted once), `live` from the overlay minus
   * what replaced or removed premises had counted (recounted on every change).
   */
  readonly crossUses = { fixed: new Map<number, number>(), live: new Map<number, number>() };
  /** Base premises replaced or removed by the overlay (whose own uses no longer count). */
  readonly tombstoned = new Set<number>();

  constructor(
    readonly table: PremiseSource,
    readonly sparse: Bm25Index,
    readonly informal: Bm25Index,
    readonly dense?: DenseStore,
    /** A base index's references into other indexes, by premise id (see indexes/src/external-refs.ts). */
    readonly external?: ReadonlyMap<number, readonly string[]>,
  ) {
    this.deleted = new Uint8Array(table.size);
    this.acc = new Float32Array(table.size);
    this.informalAcc = new Float32Array(table.size);
    this.touched = new Int32Array(table.size);
    this.informalTouched = new Int32Array(table.size);
  }

  /** Scores the formal BM25 field into `acc` for this search; its n best ids (topByScore) not `blocked` (default: the deleted). */
  scoreSparse(weights: Map<string, number>, n: number, blocked: Uint8Array = this.deleted): number[] {
    return scoreField(this.sparse, weights, this.acc, this.touched, blocked, n);
  }

  /** Scores the informal (English) field into `informalAcc` for this search; its n best ids not `blocked`. */
  scoreInformal(weights: Map<string, number>, n: number, blocked: Uint8Array = this.deleted): number[] {
    return scoreField(this.informal, weights, this.informalAcc, this.informalTouched, blocked, n);
  }

  /** Scope filters' masks over this segment's premises (scope.ts), read on the first scoped search. */
  get scopeMasks(): ScopeMasks {
    return (this.scopes ??= new ScopeMasks(this.table));
  }

  /** The deleted premises and those outside a scope (1 = skip), for this search. */
  blocked(outside: Uint8Array): Uint8Array {
    const out = new Uint8Array(this.deleted.length);
    for (let i = 0; i < out.length; i++) out[i] = this.deleted[i]! | outside[i]!;
    return out;
  }

  /**
   * The dense retriever's n best among the premises not `blocked`: exact over the
   * allowed ones when they are few, else the ANN asked for more in proportion.
   */
  denseTop(vec: Float32Array, n: number, blocked?: Uint8Array): { id: number; score: number }[] {
    const dense = this.dense!;
    if (!blocked) return dense.top(vec, n);
    let allowed = 0;
    for (let i = 0; i < blocked.length; i++) if (!blocked[i]) allowed++;
    if (!allowed) return [];
    if (allowed <= EXACT_DENSE_MAX) {
      const all: { id: number; score: number }[] = [];
      for (let i = 0; i < blocked.length; i++) if (!blocked[i]) all.push({ id: i, score: dense.score(vec, i) });
      return all.sort((a, b) => b.score - a.score || a.id - b.id).slice(0, n);
    }
    const ask = Math.min(blocked.length, Math.ceil((n * blocked.length) / allowed) + n);
    return dense.top(vec, ask).filter((h) => !blocked[h.id]).slice(0, n);
  }

  /** Names as English search terms for text queries' name match, by premise id; emptied when full (cheaper than keeping an LRU order). */
  private readonly stems = new Map<number, NameStems>();

  nameStems(id: number): NameStems {
    let w = this.stems.get(id);
    if (!w) {
      if (this.stems.size >= NAME_STEMS_KEPT) this.stems.clear();
      this.stems.set(id, (w = nameStems(this.table.name(id))));
    }
    return w;
  }

  /** Per-premise symbol sets (pattern search, the SInE/MePo baselines): the index's stored ones, else built on first use. */
  get symbols(): SymbolSets {
    return (this.symbolSets ??= SymbolSets.build(this.table));
  }

  /** How many proofs use the premise: in its own index, and from the other segments. */
  usesOf(id: number): number {
    return Math.max(0, this.table.uses[id]! + (this.crossUses.fixed.get(id) ?? 0) + (this.crossUses.live.get(id) ?? 0));
  }

  /** Builds the symbol sets now (the overlay's, on upsert), not on the first search that needs them. */
  prepareSymbols(): void {
    void this.symbols;
  }

  static fromIndex(parts: IndexParts, external?: ReadonlyMap<number, readonly string[]>): Segment {
    const seg = Segment.fromIndexParts(parts, external);
    // stored at index time (symbols.bin); an older index builds them on first use
    if (parts.symbols) seg.symbolSets = parts.symbols;
    seg.mash = parts.mash;
    return seg;
  }

  private static fromIndexParts(parts: IndexParts, external?: ReadonlyMap<number, readonly string[]>): Segment {
    if (!external?.size) return new Segment(parts.premises, parts.sparse, parts.informal, parts.dense);
    const t = parts.premises;
    const table: PremiseSource = {
      size: t.size,
      uses: t.uses,
      id: (name) => t.id(name),
      name: (id) => t.name(id),
      lang: (id) => t.lang(id),
      get: (id) => t.get(id),
      scan: () => t.scan(),
      refs: (id) => {
        const x = external.get(id);
        return x ? [...Array.from(t.refs(id)), ...x] : t.refs(id);
      },
    };
    return new Segment(table, parts.sparse, parts.informal, parts.dense, external);
  }

  /**
   * An in-memory segment, e.g. the workspace overlay; `vectors` are premise
   * vectors row-major, `refs` the names each premise's proof references.
   */
  static fromInfos(infos: PremiseInfo[], vectors?: Float32Array, dim?: number, refs?: readonly (readonly string[])[]): Segment {
    const byName = new Map(infos.map((p, i) => [p.name, i]));
    const table: PremiseSource = {
      size: infos.length,
      uses: Uint32Array.from(infos, (p) => p.uses),
      id: (name) => byName.get(name),
      name: (id) => infos[id]!.name,
      lang: (id) => infos[id]!.lang,
      get: (id) => infos[id]!,
      scan: () => infos,
      refs: (id) => refs?.[id] ?? [],
    };
    const { sparse, informal } = buildSparseFields(infos);
    return new Segment(table, sparse, informal, vectors && dim ? new FlatDenseStore(dim, vectors) : undefined);
  }
}

/** One BM25 field scored into `acc` afresh (`touched`: the documents it scored); its n best ids. */
function scoreField(field: Bm25Index, weights: Map<string, number>, acc: Float32Array, touched: Int32Array, deleted: Uint8Array, n: number): number[] {
  acc.fill(0);
  return topByScore(acc, deleted, n, touched.subarray(0, field.accumulate(weights, acc, touched)));
}

/**
 * The best n ids seen: a min-heap whose root is the worst kept (lowest score,
 * then highest id), so a long tail of small scores costs one comparison each.
 */
class TopN {
  private readonly heap: Int32Array;
  private size = 0;
  /** The root's score once the heap is full (below it nothing gets in). */
  private floor = -Infinity;

  constructor(
    private readonly scores: Float32Array,
    private readonly n: number,
  ) {
    this.heap = new Int32Array(n);
  }

  /** a ranks below b: a lower score, or the same score and a higher id. */
  private below(a: number, b: number): boolean {
    const sa = this.scores[a]!;
    const sb = this.scores[b]!;
    return sa < sb || (sa === sb && a > b);
  }

  offer(id: number, score: number): void {
    const heap = this.heap;
    if (this.size < this.n) {
      let at = this.size++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!this.below(id, heap[parent]!)) break;
        heap[at] = heap[parent]!;
        at = parent;
      }
      heap[at] = id;
      if (this.size === this.n) this.floor = this.scores[heap[0]!]!;
      return;
    }
    if (score < this.floor || !this.below(heap[0]!, id)) return;
    let at = 0;
    for (;;) {
      const l = 2 * at + 1;
      if (l >= this.size) break;
      const r = l + 1;
      const child = r < this.size && this.below(heap[r]!, heap[l]!) ? r : l;
      if (!this.below(heap[child]!, id)) break;
      heap[at] = heap[child]!;
      at = child;
    }
    heap[at] = id;
    this.floor = this.scores[heap[0]!]!;
  }

  /** Best first, ties to the lower id. */
  sorted(): number[] {
    const s = this.scores;
    return Array.from(this.heap.subarray(0, this.size)).sort((a, b) => s[b]! - s[a]! || a - b);
  }
}

/**
 * Top-n ids by descending score, ties to the lower id, among `among` (the
 * documents a BM25 search scored, see Bm25Index.accumulate, in any order) with
 * score > 0, skipping deleted ones.
 */
export function topByScore(scores: Float32Array, deleted: Uint8Array, n: number, among: Int32Array): number[] {
  if (n <= 0) return [];
  const top = new TopN(scores, n);
  for (let k = 0; k < among.length; k++) {
    const i = among[k]!;
    const s = scores[i]!;
    if (s > 0 && !deleted[i]) top.offer(i, s);
  }
  return top.sorted();
}
