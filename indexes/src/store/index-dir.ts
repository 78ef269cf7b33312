/**
 * The on-disk index directory:
 *   manifest.json   format, version, counts, encoder, per-file sizes and CRC-32s
 *   premises.bin    metadata sidecar (see premises.ts)
 *   sparse.bin      BM25 postings (see ../sparse/bm25.ts)
 *   informal.bin    BM25 postings of the informal (English) side of each premise
 *   dense.bin       int8 premise vectors + per-row scales (exact rescoring)
 *   dense.usearch   usearch HNSW graph over the same vectors (candidate search)
 *   *.json          sidecars (imports, external references, exports, deferred informal
 *                   field), listed when present; read through ./sidecar.ts
 *   symbols.bin     each premise's statement symbols (optional: see symbols-file.ts)
 *   mash.bin        the usage model fitted at index time (optional: see mash-file.ts)
 * Every file's size and CRC-32 are checked against the manifest before use, so a
 * corrupt or truncated index fails with an error naming the file rather than
 * showing corrupted premises or crashing the native usearch loader.
 */
import { copyFileSync, existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { ProofGraph } from '../graph.js';
import { Bm25Index } from '../sparse/bm25.js';
import { Container, fileCrc32, IndexFileError, writeContainer, type Expected } from './container.js';
import { encodePremises, PremiseTable, type PremiseInfo } from './premises.js';
import { encodeStrings, stringSections, StringTable } from './strings.js';
import { AnnDenseStore, quantize, type DenseStore } from './dense.js';
import { prepareOutDir } from './out-path.js';
import { dataDirOf } from './data-dir.js';
import { rebuildCommand } from './rebuild.js';
import { readSymbolsFile, SYMBOLS_FILE, writeSymbolsFile } from './symbols-file.js';
import { SymbolSets } from '../symbol-sets.js';
import { MASH_FILE, readMashFile } from './mash-file.js';
import type { MashModel } from '../mash.js';

export const FORMAT = 'premise-lsp-index';
/** 2: premises.bin holds the proof graph. 3: informal.bin. */
export const VERSION = 3;

export interface EncoderRef {
  /**
   * Where a bring-your-own encoder was loaded from at build time: a hint, used only
   * when the encoder there still has `id`. Absent for a shipped encoder, which is
   * found by `id` wherever premise-lsp is installed (older indexes recorded it too).
   */
  dir?: string;
  /** The encoder's content id (`models/src/fingerprint.ts`): what the index's vectors belong to. */
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
  /** Set only while a new build is moved in: the directory beside holding its files (./data-dir.ts). */
  data?: string;
}

export interface IndexParts {
  dir: string;
  manifest: Manifest;
  premises: PremiseTable;
  sparse: Bm25Index;
  informal: Bm25Index;
  dense?: DenseStore;
  /** The stored symbol sets (undefined for an index built before they were stored: built on first use). */
  symbols?: SymbolSets;
  /** The usage model fitted at build time (mash.bin; undefined for an index built before it). */
  mash?: MashModel;
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

const fileCrc = (path: string): number => fileCrc32(path);

export async function writeIndexDir(
  dir: string,
  content: IndexContent,
  onAnnProgress?: (done: number, total: number) => void,
): Promise<Manifest> {
  prepareOutDir(dir);
  writePremisesFile(dir, content.infos, content.graph);
  writeBm25(join(dir, 'sparse.bin'), content.sparse);
  writeBm25(join(dir, 'informal.bin'), content.informal);
  writeSymbolsFile(dir, SymbolSets.build({ size: content.infos.length, scan: () => content.infos }));
  if (content.dense) await writeDenseFiles(dir, content.dense, onAnnProgress);
  return writeManifest(dir, { premises: content.infos.length, encoder: content.dense?.encoder, sources: content.sources, stats: content.stats, symbols: true });
}

/** premises.bin: the premise records and their proof graph. */
export function writePremisesFile(dir: string, infos: PremiseInfo[], graph: ProofGraph): void {
  writeContainer(join(dir, 'premises.bin'), encodePremises(infos, graph));
}

/** sparse.bin or informal.bin: one BM25 field. */
export function writeFieldFile(dir: string, file: 'sparse.bin' | 'informal.bin', index: Bm25Index): void {
  writeBm25(join(dir, file), index);
}

/** dense.bin and dense.usearch: the int8 vectors and their ANN graph. */
export async function writeDenseFiles(dir: string, dense: NonNullable<IndexContent['dense']>, onAnnProgress?: (done: number, total: number) => void): Promise<void> {
  const { vectors, dim } = dense;
  const q = quantize(vectors, dim);
  writeContainer(join(dir, 'dense.bin'), { vectors: q.vectors, scales: q.scales });
  await AnnDenseStore.buildFile(join(dir, 'dense.usearch'), vectors, dim, onAnnProgress);
}

/**
 * The manifest of a directory whose files are written (premises, both BM25
 * fields, and the dense files with an encoder): their sizes and CRC-32s. Written
 * last, atomically: it marks the directory complete.
 */
export function writeManifest(
  dir: string,
  m: { premises: number; encoder?: EncoderRef; sources: string[]; stats: Record<string, number>; /** symbols.bin was written */ symbols?: boolean },
): Manifest {
  const sidecars = SIDECAR_FILES.filter((f) => existsSync(join(dir, f)));
  const mash = existsSync(join(dir, MASH_FILE)) ? [MASH_FILE] : [];
  const written = ['premises.bin', ...SPARSE_FILES, ...(m.encoder ? ['dense.bin', 'dense.usearch'] : []), ...(m.symbols ? [SYMBOLS_FILE] : []), ...mash, ...sidecars];
  const files: Manifest['files'] = {};
  for (const f of written) files[f] = { bytes: statSync(join(dir, f)).size, crc32: fileCrc(join(dir, f)) };
  const manifest: Manifest = {
    format: FORMAT,
    version: VERSION,
    created: new Date().toISOString(),
    premises: m.premises,
    encoder: m.encoder,
    sources: m.sources,
    stats: m.stats,
    files,
  };
  const tmp = join(dir, `manifest.json.tmp-${process.pid}`);
  writeFileSync(tmp, JSON.stringify(manifest, null, 2) + '\n');
  renameSync(tmp, join(dir, 'manifest.json'));
  return manifest;
}

/**
 * An index another premise-lsp wrote, in an older or newer format: not corrupt, to be
 * rebuilt (the command from the sources it recorded) or read by the premise-lsp that wrote it.
 */
export class IndexVersionError extends Error {
  constructor(dir: string, m: Manifest) {
    const sources = Array.isArray(m.sources) ? m.sources.filter((x): x is string => typeof x === 'string' && isAbsolute(x)) : [];
    const rebuild = `\`${rebuildCommand({ dir, sources })}\``;
    const which = m.version < VERSION ? 'an older' : 'a newer';
    super(
      `the index at ${dir} was written by ${which} premise-lsp (index format version ${m.version}; this one reads version ${VERSION}): ` +
        (m.version < VERSION ? `rebuild it with ${rebuild}` : `update premise-lsp, or rebuild the index with ${rebuild}`),
    );
    this.name = 'IndexVersionError';
  }
}

/** The most bytes a manifest may have: real ones are a few KiB; a 300 MB one was read whole (936 MB, 5 s; issue 36 item 7). */
export const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

export function readManifest(dir: string): Manifest {
  const path = join(dir, 'manifest.json');
  if (!existsSync(path)) throw new IndexFileError(path, 'no such file (is this an index directory? build one with `premise-lsp index`)');
  const st = statSync(path);
  if (!st.isFile()) throw new IndexFileError(path, 'not a regular file');
  if (st.size > MAX_MANIFEST_BYTES) throw new IndexFileError(path, `${st.size} bytes, more than the ${MAX_MANIFEST_BYTES / 2 ** 20} MiB a manifest may have (real ones are a few KiB)`);
  let m: Manifest;
  try {
    m = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new IndexFileError(path, `not valid JSON (${(e as Error).message})`);
  }
  if (!m || typeof m !== 'object' || m.format !== FORMAT) throw new IndexFileError(path, `not a premise-lsp index manifest`);
  if (typeof m.version !== 'number') throw new IndexFileError(path, 'no index format version');
  if (m.version !== VERSION) throw new IndexVersionError(dir, m);
  try {
    dataDirOf(dir, m.data);
  } catch (e) {
    throw new IndexFileError(path, (e as Error).message);
  }
  return m;
}

/** The manifest's entry for a file, and its path; the file must exist. */
function listed(dir: string, m: Manifest, name: string): { path: string; expected: Expected } {
  const path = join(dataDirOf(dir, m.data), name);
  const want = m.files?.[name];
  if (!want || !Number.isSafeInteger(want.bytes) || !Number.isSafeInteger(want.crc32)) throw new IndexFileError(path, 'not listed in manifest.json');
  if (!existsSync(path)) throw new IndexFileError(path, 'missing');
  return { path, expected: want };
}

/** The path of a listed file whose size and CRC-32 match the manifest. */
function verified(dir: string, m: Manifest, name: string): string {
  const { path, expected } = listed(dir, m, name);
  const bytes = statSync(path).size;
  if (bytes !== expected.bytes) throw new IndexFileError(path, `size ${bytes} bytes, manifest says ${expected.bytes} (truncated or replaced)`);
  if (fileCrc(path) !== expected.crc32) throw new IndexFileError(path, 'checksum mismatch (the file is corrupt; rebuild the index)');
  return path;
}

/**
 * The JSON files written beside an index's binary ones, listed in the manifest with their
 * sizes and CRC-32s when present (./sidecar.ts reads them against it; older indexes do not list them).
 */
export const SIDECAR_FILES = ['external-refs.json', 'exports.json', 'deferred-informal.json', 'imports.json'];

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

/** One BM25 field's file, checked against the manifest and against the premises it indexes. */
function readBm25(f: { path: string; expected: Expected }, premises: PremiseTable): Bm25Index {
  return reading(f.path, () => {
    const sc = Container.read(f.path, [], f.expected);
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
  });
}

/** Runs a file's reader; whatever fails in it is an IndexFileError naming that file. */
function reading<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof IndexFileError) throw e;
    throw new IndexFileError(path, (e as Error)?.message ?? String(e));
  }
}

/**
 * Opens an index directory. Every file's size and CRC-32 are checked against the
 * manifest before its content is used, and every structural fault is an
 * IndexFileError naming the file.
 */
/** `dense: false` leaves the vectors on disk (a BM25-only engine). */
export function readIndexDir(dir: string, opts: { dense?: boolean } = {}): IndexParts {
  const manifest = readManifest(dir);
  const pf = listed(dir, manifest, 'premises.bin');
  const premises = reading(pf.path, () => PremiseTable.open(pf.path, pf.expected));
  const sparse = readBm25(listed(dir, manifest, 'sparse.bin'), premises);
  const informal = readBm25(listed(dir, manifest, 'informal.bin'), premises);
  let dense: DenseStore | undefined;
  if (manifest.encoder && opts.dense !== false) {
    const df = listed(dir, manifest, 'dense.bin');
    const dc = reading(df.path, () => Container.read(df.path, [], df.expected));
    const ann = reading(join(dataDirOf(dir, manifest.data), 'dense.usearch'), () => verified(dir, manifest, 'dense.usearch'));
    dense = reading(df.path, () => AnnDenseStore.open(dc, ann, manifest.encoder!.dim, premises.size));
  }
  let symbols: SymbolSets | undefined;
  if (manifest.files?.[SYMBOLS_FILE]) {
    const sf = listed(dir, manifest, SYMBOLS_FILE);
    symbols = reading(sf.path, () => readSymbolsFile(sf.path, sf.expected, premises.size));
  }
  let mash: MashModel | undefined;
  if (manifest.files?.[MASH_FILE]) {
    const mf = listed(dir, manifest, MASH_FILE);
    mash = reading(mf.path, () => readMashFile(mf.path, mf.expected, premises.size, sparse.arrays.vocab.size));
  }
  return { dir, manifest, premises, sparse, informal, dense, symbols, mash };
}

/**
 * The finished sparse-only index `from` with the dense side added, in `dir`:
 * premises.bin and sparse.bin are copied as they are (nothing re-encoded), the
 * vectors and their ANN graph written, the manifest last. `informal`: the
 * informal field to write instead of the one of `from` (its build was deferred).
 */
export async function writeDenseCopy(
  dir: string,
  from: string,
  dense: NonNullable<IndexContent['dense']>,
  onAnnProgress?: (done: number, total: number) => void,
  informal?: Bm25Index,
): Promise<Manifest> {
  const src = readManifest(from);
  prepareOutDir(dir);
  const symbols = !!src.files?.[SYMBOLS_FILE];
  for (const f of ['premises.bin', ...SPARSE_FILES, ...(symbols ? [SYMBOLS_FILE] : []), ...(src.files?.[MASH_FILE] ? [MASH_FILE] : [])]) {
    if (f === 'informal.bin' && informal) writeBm25(join(dir, f), informal);
    else copyFileSync(verified(from, src, f), join(dir, f));
  }
  await writeDenseFiles(dir, dense, onAnnProgress);
  return writeManifest(dir, { premises: src.premises, encoder: dense.encoder, sources: src.sources, stats: src.stats, symbols });
}
