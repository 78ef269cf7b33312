/**
 * The on-disk index directory:
 *   manifest.json   format, version, counts, encoder, per-file sizes and CRC-32s
 *   premises.bin    metadata sidecar (see premises.ts)
 *   sparse.bin      BM25 postings (see ../sparse/bm25.ts)
 *   informal.bin    BM25 postings of the informal (English) side of each premise
 *   dense.bin       int8 premise vectors + per-row scales (exact rescoring)
 *   dense.usearch   usearch HNSW graph over the same vectors (candidate search)
 * Every file is checked against the manifest before use, so a corrupt or
 * truncated index fails with an error naming the file rather than crashing the
 * native usearch loader.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { ProofGraph } from '../graph.js';
import { Bm25Index } from '../sparse/bm25.js';
import { Container, IndexFileError, writeContainer } from './container.js';
import { encodePremises, PremiseTable, type PremiseInfo } from './premises.js';
import { encodeStrings, stringSections, StringTable } from './strings.js';
import { AnnDenseStore, quantize, type DenseStore } from './dense.js';

export const FORMAT = 'premise-lsp-index';
/** 2: premises.bin holds the proof graph. 3: informal.bin. */
export const VERSION = 3;

export interface EncoderRef {
  /** Directory the encoder was loaded from, as given at build time. */
  dir: string;
  id: string;
  dim: number;
}

export interface Manifest {
  format: typeof FORMAT;
  version: number;
  created: string;
  premises: number;
  encoder?: EncoderRef;
  sources: string[];
  stats: Record<string, number>;
  files: Record<string, { bytes: number; crc32: number }>;
}

export interface IndexParts {
  dir: string;
  manifest: Manifest;
  premises: PremiseTable;
  sparse: Bm25Index;
  informal: Bm25Index;
  dense?: DenseStore;
}

export interface IndexContent {
  infos: PremiseInfo[];
  /** References between `infos` (by position). */
  graph: ProofGraph;
  sparse: Bm25Index;
  informal: Bm25Index;
  /** Premise vectors (row-major, infos.length × dim), when an encoder was used. */
  dense?: { vectors: Float32Array; dim: number; encoder: EncoderRef };
  sources: string[];
  stats: Record<string, number>;
}

function fileCrc(path: string): number {
  return crc32(readFileSync(path));
}

export async function writeIndexDir(
  dir: string,
  content: IndexContent,
  onAnnProgress?: (done: number, total: number) => void,
): Promise<Manifest> {
  mkdirSync(dir, { recursive: true });
  writeContainer(join(dir, 'premises.bin'), encodePremises(content.infos, content.graph));
  writeBm25(join(dir, 'sparse.bin'), content.sparse);
  writeBm25(join(dir, 'informal.bin'), content.informal);
  const written = ['premises.bin', ...SPARSE_FILES];
  if (content.dense) {
    const { vectors, dim } = content.dense;
    const q = quantize(vectors, dim);
    writeContainer(join(dir, 'dense.bin'), { vectors: q.vectors, scales: q.scales });
    await AnnDenseStore.buildFile(join(dir, 'dense.usearch'), vectors, dim, onAnnProgress);
    written.push('dense.bin', 'dense.usearch');
  }
  const files: Manifest['files'] = {};
  for (const f of written) files[f] = { bytes: statSync(join(dir, f)).size, crc32: fileCrc(join(dir, f)) };
  const manifest: Manifest = {
    format: FORMAT,
    version: VERSION,
    created: new Date().toISOString(),
    premises: content.infos.length,
    encoder: content.dense?.encoder,
    sources: content.sources,
    stats: content.stats,
    files,
  };
  const tmp = join(dir, `manifest.json.tmp-${process.pid}`);
  writeFileSync(tmp, JSON.stringify(manifest, null, 2) + '\n');
  renameSync(tmp, join(dir, 'manifest.json'));
  return manifest;
}

export function readManifest(dir: string): Manifest {
  const path = join(dir, 'manifest.json');
  if (!existsSync(path)) throw new IndexFileError(path, 'no such file (is this an index directory? build one with `premise-lsp index`)');
  let m: Manifest;
  try {
    m = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new IndexFileError(path, `not valid JSON (${(e as Error).message})`);
  }
  if (m.format !== FORMAT) throw new IndexFileError(path, `not a premise-lsp index manifest`);
  if (m.version !== VERSION) throw new IndexFileError(path, `index format version ${m.version}, this build reads ${VERSION}; rebuild the index`);
  return m;
}

function checkFile(dir: string, m: Manifest, name: string, withCrc: boolean): string {
  const path = join(dir, name);
  const want = m.files[name];
  if (!want) throw new IndexFileError(path, 'not listed in manifest.json');
  if (!existsSync(path)) throw new IndexFileError(path, 'missing');
  const bytes = statSync(path).size;
  if (bytes !== want.bytes) throw new IndexFileError(path, `size ${bytes} bytes, manifest says ${want.bytes} (truncated or replaced)`);
  if (withCrc && fileCrc(path) !== want.crc32) throw new IndexFileError(path, 'checksum mismatch');
  return path;
}

/** The BM25 fields, one file each: formal and informal. */
const SPARSE_FILES = ['sparse.bin', 'informal.bin'];

function writeBm25(path: string, index: Bm25Index): void {
  writeContainer(path, {
    ...stringSections('vocab', encodeStrings(index.vocab())),
    offsets: index.arrays.offsets,
    docs: index.arrays.docs,
    weights: index.arrays.weights,
  });
}

function readBm25(file: string, premises: PremiseTable): Bm25Index {
  const sc = Container.read(file);
  const vocab = new StringTable({ blob: sc.u8('vocabBlob'), offsets: sc.u32('vocabOffsets'), order: sc.u32('vocabOrder') });
  const offsets = sc.u32('offsets');
  const docs = sc.u32('docs');
  const weights = sc.f32('weights');
  const bad = vocab.check();
  if (bad) throw new IndexFileError(sc.file, bad);
  if (offsets.length !== vocab.size + 1 || docs.length !== weights.length || offsets[vocab.size] !== docs.length) {
    throw new IndexFileError(sc.file, 'postings tables disagree');
  }
  for (let i = 0; i < docs.length; i++) {
    if (docs[i]! >= premises.size) throw new IndexFileError(sc.file, `posting refers to premise #${docs[i]} of ${premises.size}`);
  }
  return new Bm25Index({ vocab, offsets, docs, weights, docCount: premises.size });
}

/** `dense: false` leaves the vectors on disk (a BM25-only engine). */
export function readIndexDir(dir: string, opts: { dense?: boolean } = {}): IndexParts {
  const manifest = readManifest(dir);
  const premises = PremiseTable.open(checkFile(dir, manifest, 'premises.bin', false));
  const sparse = readBm25(checkFile(dir, manifest, 'sparse.bin', false), premises);
  const informal = readBm25(checkFile(dir, manifest, 'informal.bin', false), premises);
  let dense: DenseStore | undefined;
  if (manifest.encoder && opts.dense !== false) {
    const dc = Container.read(checkFile(dir, manifest, 'dense.bin', false));
    const ann = checkFile(dir, manifest, 'dense.usearch', true);
    dense = AnnDenseStore.open(dc, ann, manifest.encoder.dim, premises.size);
  }
  return { dir, manifest, premises, sparse, informal, dense };
}

/**
 * The finished sparse-only index `from` with the dense side added, in `dir`:
 * premises.bin and sparse.bin are copied as they are (nothing re-encoded), the
 * vectors and their ANN graph written, the manifest last.
 */
export async function writeDenseCopy(
  dir: string,
  from: string,
  dense: NonNullable<IndexContent['dense']>,
  onAnnProgress?: (done: number, total: number) => void,
): Promise<Manifest> {
  const src = readManifest(from);
  mkdirSync(dir, { recursive: true });
  for (const f of ['premises.bin', ...SPARSE_FILES]) copyFileSync(join(from, checkFile(from, src, f, true).slice(from.length + 1)), join(dir, f));
  const q = quantize(dense.vectors, dense.dim);
  writeContainer(join(dir, 'dense.bin'), { vectors: q.vectors, scales: q.scales });
  await AnnDenseStore.buildFile(join(dir, 'dense.usearch'), dense.vectors, dense.dim, onAnnProgress);
  const files: Manifest['files'] = {};
  for (const f of ['premises.bin', ...SPARSE_FILES, 'dense.bin', 'dense.usearch']) files[f] = { bytes: statSync(join(dir, f)).size, crc32: fileCrc(join(dir, f)) };
  const manifest: Manifest = { ...src, created: new Date().toISOString(), encoder: dense.encoder, files };
  const tmp = join(dir, `manifest.json.tmp-${process.pid}`);
  writeFileSync(tmp, JSON.stringify(manifest, null, 2) + '\n');
  renameSync(tmp, join(dir, 'manifest.json'));
  return manifest;
}
