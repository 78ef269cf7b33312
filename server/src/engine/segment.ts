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
import type { PremiseInfo } from '../../../indexes/src/store/premises.js';
import type { Lang } from '../../../indexes/src/extract/record.js';
import { SymbolSets } from './symbol-sets.js';

export interface PremiseSource {
  readonly size: number;
  readonly uses: Uint32Array;
  id(name: string): number | undefined;
  name(id: number): string;
  lang(id: number): Lang;
  get(id: number): PremiseInfo;
  /**
   * What the premise's proof references: ids in this segment (resolved at build
   * time), or names (references into other segments: the overlay's, and a base
   * index's external references, found at query time).
   */
  refs(id: number): ArrayLike<number | string>;
}

export class Segment {
  /** 1 = deleted (replaced by a newer version elsewhere, or removed). */
  readonly deleted: Uint8Array;
  /** Reused BM25 accumulators, formal and informal (queries run one at a time per engine). */
  readonly acc: Float32Array;
  readonly informalAcc: Float32Array;
  private symbolSets?: SymbolSets;
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
  }

  /** Per-premise symbol sets for the SInE/MePo baselines, built on first use. */
  get symbols(): SymbolSets {
    return (this.symbolSets ??= new SymbolSets(this.table));
  }

  /** How many proofs use the premise: in its own index, and from the other segments. */
  usesOf(id: number): number {
    return Math.max(0, this.table.uses[id]! + (this.crossUses.fixed.get(id) ?? 0) + (this.crossUses.live.get(id) ?? 0));
  }

  static fromIndex(parts: IndexParts, external?: ReadonlyMap<number, readonly string[]>): Segment {
    if (!external?.size) return new Segment(parts.premises, parts.sparse, parts.informal, parts.dense);
    const t = parts.premises;
    const table: PremiseSource = {
      size: t.size,
      uses: t.uses,
      id: (name) => t.id(name),
      name: (id) => t.name(id),
      lang: (id) => t.lang(id),
      get: (id) => t.get(id),
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
      refs: (id) => refs?.[id] ?? [],
    };
    const { sparse, informal } = buildSparseFields(infos);
    return new Segment(table, sparse, informal, vectors && dim ? new FlatDenseStore(dim, vectors) : undefined);
  }
}

/** Top-n ids by descending score among entries with score > 0, skipping deleted ones. */
export function topByScore(scores: Float32Array, deleted: Uint8Array, n: number): number[] {
  if (n <= 0) return [];
  const ids: number[] = [];
  let threshold = 0;
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i]!;
    if (s <= threshold || deleted[i]) continue;
    ids.push(i);
    if (ids.length >= n * 4) {
      ids.sort((a, b) => scores[b]! - scores[a]!);
      ids.length = n;
      threshold = scores[ids[n - 1]!]!;
    }
  }
  ids.sort((a, b) => scores[b]! - scores[a]!);
  return ids.slice(0, n);
}
