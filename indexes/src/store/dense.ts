/**
 * Dense premise vectors. Candidates come from a usearch HNSW graph (inner
 * product); exact scores come from int8 rows with a per-row scale, so any
 * candidate (from the graph or from BM25) gets a comparable dense score.
 * FlatDenseStore is the small, mutable, brute-force variant for overlays.
 */
import { Index, MetricKind, ScalarKind, type Matches } from 'usearch';
import { Container, IndexFileError } from './container.js';
import { checkUsearchFile } from './usearch-file.js';

export interface DenseHit {
  id: number;
  score: number;
}

export interface DenseStore {
  readonly dim: number;
  /** Exact inner product of the query with premise `id`. */
  score(query: Float32Array, id: number): number;
  /** Approximate top-n by inner product. */
  top(query: Float32Array, n: number): DenseHit[];
}

export function quantize(vectors: Float32Array, dim: number): { vectors: Int8Array; scales: Float32Array } {
  const n = vectors.length / dim;
  const q = new Int8Array(vectors.length);
  const scales = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    let max = 0;
    for (let j = 0; j < dim; j++) max = Math.max(max, Math.abs(vectors[i * dim + j]!));
    const s = max > 0 ? max / 127 : 1;
    scales[i] = s;
    for (let j = 0; j < dim; j++) q[i * dim + j] = Math.round(vectors[i * dim + j]! / s);
  }
  return { vectors: q, scales };
}

function newIndex(dim: number): Index {
  return new Index({
    dimensions: dim,
    metric: MetricKind.IP,
    quantization: ScalarKind.I8,
    connectivity: 16,
    expansion_add: 64,
    expansion_search: 96,
    multi: false,
  });
}

export class AnnDenseStore implements DenseStore {
  private constructor(
    readonly dim: number,
    private readonly rows: Int8Array,
    private readonly scales: Float32Array,
    private readonly ann: Index,
  ) {}

  static async buildFile(path: string, vectors: Float32Array, dim: number, onProgress?: (done: number, total: number) => void): Promise<void> {
    const n = vectors.length / dim;
    const index = newIndex(dim);
    const keys = new BigUint64Array(n);
    for (let i = 0; i < n; i++) keys[i] = BigInt(i);
    // in chunks, to report progress; threads 0 = all cores
    const chunk = 8192;
    for (let i = 0; i < n; i += chunk) {
      const end = Math.min(n, i + chunk);
      index.add(keys.subarray(i, end), vectors.subarray(i * dim, end * dim), 0);
      onProgress?.(end, n);
      await new Promise((r) => setImmediate(r));
    }
    index.save(path);
  }

  static open(c: Container, annPath: string, dim: number, count: number): AnnDenseStore {
    const rows = c.i8('vectors');
    const scales = c.f32('scales');
    if (rows.length !== count * dim || scales.length !== count) {
      throw new IndexFileError(c.file, `expected ${count} vectors of dimension ${dim}`);
    }
    checkUsearchFile(annPath, count, dim); // the native view trusts the file's counts (a crafted one crashes it)
    const ann = newIndex(dim);
    try {
      ann.view(annPath);
    } catch (e) {
      throw new IndexFileError(annPath, (e as Error).message);
    }
    if (ann.size() !== count) throw new IndexFileError(annPath, `holds ${ann.size()} vectors, expected ${count}`);
    return new AnnDenseStore(dim, rows, scales, ann);
  }

  score(query: Float32Array, id: number): number {
    const { dim, rows } = this;
    let s = 0;
    const base = id * dim;
    for (let j = 0; j < dim; j++) s += query[j]! * rows[base + j]!;
    return s * this.scales[id]!;
  }

  top(query: Float32Array, n: number): DenseHit[] {
    if (n <= 0 || this.ann.size() === 0) return [];
    const m = this.ann.search(query, Math.min(n, this.ann.size()), 0) as Matches;
    const out: DenseHit[] = [];
    for (let i = 0; i < m.keys.length; i++) {
      const id = Number(m.keys[i]);
      out.push({ id, score: this.score(query, id) });
    }
    return out;
  }
}

/** In-memory exact store for small mutable segments (workspace overlays, tests). */
export class FlatDenseStore implements DenseStore {
  constructor(
    readonly dim: number,
    private readonly vectors: Float32Array,
  ) {}

  score(query: Float32Array, id: number): number {
    let s = 0;
    const base = id * this.dim;
    for (let j = 0; j < this.dim; j++) s += query[j]! * this.vectors[base + j]!;
    return s;
  }

  top(query: Float32Array, n: number): DenseHit[] {
    const count = this.vectors.length / this.dim;
    const all: DenseHit[] = [];
    for (let id = 0; id < count; id++) all.push({ id, score: this.score(query, id) });
    return all.sort((a, b) => b.score - a.score).slice(0, n);
  }
}
