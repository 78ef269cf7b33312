/**
 * Sources → index: discover files, extract declarations, resolve proof
 * references (the proof graph gives each premise its `uses` count), build the
 * BM25 postings and, with an encoder, the fine-grained premise vectors
 * ½(f̂(Γp) + f̂(Gp)) and their ANN graph, then write the index directory.
 */
import { writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { Encoder } from '../../models/src/encoder.js';
import { extractFiles, type ParallelOptions } from './extract/parallel.js';
import type { ExtractedDecl, PremiseRecord } from './extract/record.js';
import { resolveRefs } from './extract/resolve.js';
import { discoverSources, type DiscoverOptions, type Discovered } from './extract/walk.js';
import { embedPremises } from './embed.js';
import { proofGraph, toInfos } from './graph.js';
import { buildFormalField, emptyField } from './sparse/fields.js';
import { deferredInformal, hasDeferredInformal, informalFromTable, readDeferredInformal, writeDeferredInformal } from './deferred-informal.js';
import { writeIndexDir, readIndexDir, readManifest, writeDenseCopy, writeDenseFiles, writeFieldFile, writeManifest, writePremisesFile, type EncoderRef, type Manifest } from './store/index-dir.js';
import type { OnProgress } from './progress.js';
import { PremiseTable } from './store/premises.js';
import { prepareOutDir } from './store/out-path.js';
import { buildBeside } from './store/staging.js';
import { dataDir } from './store/data-dir.js';
import { readSidecarText } from './store/sidecar.js';
import { phaseTimer } from './profile.js';
import { Bm25Index, type TermRun } from './sparse/bm25.js';
import { EXPORTS_FILE, EXTERNAL_REFS_FILE, externalRefs, openExternal, writeExports, writeExternalRefs } from './external-refs.js';
import { IMPORTS_FILE, ModuleImportsBuilder, writeModuleImports, type ModuleImports } from './module-imports.js';
import type { AliasTargets } from './extract/alias-types.js';
import { CORPUS_IDENTIFIERS, rememberIdentifiers } from './sparse/terms.js';
import { SymbolSets } from './symbol-sets.js';
import { writeSymbolsFile } from './store/symbols-file.js';
import { fitMash } from './mash.js';
import { writeMashFile } from './store/mash-file.js';

export type { OnProgress, Progress } from './progress.js';

export interface Corpus {
  records: PremiseRecord[];
  /** Files read (not counting the skipped ones). */
  files: number;
  skippedFiles: number;
  /** Links not followed, their target outside the source root walked (each also a warning). */
  linksSkipped: number;
  /** Source directories whose module names count from a package root above them (extract/walk.ts `moduleRootOf`). */
  moduleRoots: Discovered['moduleRoots'];
  duplicates: number;
  warnings: string[];
  /** Names declared by the sources themselves (not by a Lake project's `.lake/packages`). */
  own: Set<string>;
  /** Each record's formal BM25 terms (made during extraction; see ExtractedDecl.formalTerms). */
  formalTerms: TermRun[];
  /** The sources' `export NS (a)` names and the declarations they name (kept in the index's `exports.json`). */
  exports: Map<string, string>;
  /** Each module read to the modules it imports (`imports.json`, ./module-imports.ts). */
  imports: ModuleImports;
}

/** Is `path` one of the inputs' own files rather than a file of their `.lake/packages`? */
function isOwnFile(path: string, inputs: string[]): boolean {
  return inputs.some((input) => {
    const rel = relative(resolve(input), resolve(path));
    return rel === '' || (!rel.startsWith('..') && !rel.startsWith(`.lake${sep}`));
  });
}

/**
 * Extracts every discovered file (on worker threads when there are many, see
 * ./extract/parallel.ts; the result is the same). Files that are not read (not
 * regular files, over 4 MiB, binary, unreadable) are counted in `skippedFiles`,
 * each with a warning.
 */
export async function extractCorpus(
  inputs: string[],
  onProgress?: OnProgress,
  discover: DiscoverOptions = {},
  external: Iterable<string> = [],
  parallel: ParallelOptions = {},
  externalStatement?: AliasTargets,
  externalExports?: ReadonlyMap<string, string>,
): Promise<Corpus> {
  const prof = phaseTimer('extract');
  const { files, warnings, skipped, links = [], moduleRoots = [] } = discoverSources(inputs, discover);
  for (const w of skipped) warnings.push(w); // not push(...skipped): a tree can hold more entries than a call takes arguments
  for (const w of links) warnings.push(w);
  prof.lap('walk');
  const decls: ExtractedDecl[] = [];
  const own = new Set<string>();
  const imports = new ModuleImportsBuilder();
  let skippedFiles = skipped.length;
  await extractFiles(files, (i, r) => {
    const f = files[i]!;
    for (const d of r.decls) decls.push(d);
    if (!r.skipped && isOwnFile(f.path, inputs)) for (const d of r.decls) own.add(d.name);
    for (const w of r.warnings) warnings.push(w);
    if (r.skipped) skippedFiles++;
    else imports.add(f.module, r.imports ?? []);
    if (onProgress && (i % 50 === 0 || i === files.length - 1)) onProgress({ phase: 'extract', done: i + 1, total: files.length });
  }, parallel);
  prof.lap('read+extract');
  // the resolver also keeps one record per name (hand-written over generated) and drops alias records
  const exports = new Map<string, string>();
  const records = resolveRefs(decls, external, externalStatement, { external: externalExports, own: exports });
  prof.lap('resolve');
  const duplicates = decls.length - records.length;
  decls.length = 0;
  // out of the records: they are not part of a premise record (`extract` writes records as they are)
  const formalTerms = records.map((r) => {
    const x = r as { formalTerms?: TermRun };
    const t = x.formalTerms!;
    x.formalTerms = undefined;
    return t;
  });
  if (process.env.PREMISE_LSP_MEMTRACE) process.stderr.write(`memtrace resolved: rss ${Math.round(process.memoryUsage().rss / 2 ** 20)} MB\n`);
  return { records, files: files.length + skipped.length - skippedFiles, skippedFiles, linksSkipped: links.length, moduleRoots, duplicates, warnings, own, formalTerms, exports, imports: imports.done() };
}

export interface BuildOptions {
  sources: string[];
  out: string;
  encoder?: Encoder;
  /** Recorded in the manifest as a bring-your-own encoder's location; leave it out for a shipped encoder (found by id). */
  encoderDir?: string;
  onProgress?: OnProgress;
  /** Also index each source's `.lake/packages/*` (default true). */
  packages?: boolean;
  /** Follow links whose target leaves the source root being walked (default false; see extract/walk.ts). */
  followLinks?: boolean;
  /**
   * Index directories whose premises this corpus's proofs may reference (a
   * workspace's dependencies): such references are kept in `external-refs.json`.
   */
  resolveAgainst?: string[];
  /**
   * Runs after extraction, before anything is indexed, and may add to the records
   * (e.g. LLM-written `informal` statements; network I/O belongs to the caller).
   * `own`: the names the sources declare themselves, not their packages.
   */
  enrich?: (records: PremiseRecord[], own: ReadonlySet<string>) => Promise<void>;
  /**
   * Leave the informal field empty and keep what it needs in
   * `deferred-informal.json`, for addDense to fill in (an index to serve first;
   * see ./deferred-informal.ts). Only without an encoder.
   */
  deferInformal?: boolean;
}

export interface BuildSummary {
  manifest: Manifest;
  files: number;
  declarations: number;
  skipped: number;
  /** Links not followed (their target leaves the source root walked); also among `warnings`. */
  linksSkipped: number;
  /** Source directories whose module names count from a package root above them (for the build's output). */
  moduleRoots?: Discovered['moduleRoots'];
  warnings: string[];
  seconds: number;
}

/** What the manifest says of the encoder: its content id and dimension, and where a bring-your-own one was. */
const encoderRef = (encoder: Encoder, dir: string | undefined): EncoderRef => ({ ...(dir ? { dir } : {}), id: encoder.id, dim: encoder.dim });

/** `PREMISE_LSP_MEMTRACE=1`: heap and resident memory after each build step, on stderr. */
const memtrace = (step: string) => {
  if (!process.env.PREMISE_LSP_MEMTRACE) return;
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  process.stderr.write(`memtrace ${step}: heap ${Math.round(m.heapUsed / 2 ** 20)} MB, rss ${Math.round(m.rss / 2 ** 20)} MB\n`);
};

/** Writes beside the index already in `opts.out` and moves in when complete (./store/staging.ts): a failed or interrupted build leaves it as it was. */
export async function buildIndex(opts: BuildOptions): Promise<BuildSummary> {
  return buildBeside(opts.out, (out) => buildInto({ ...opts, out }));
}

async function buildInto(opts: BuildOptions): Promise<BuildSummary> {
  const t0 = performance.now();
  rememberIdentifiers(CORPUS_IDENTIFIERS);
  const prof = phaseTimer('build');
  const against = openExternal(opts.resolveAgainst ?? []);
  const external = against.names;
  let corpus: Corpus;
  try {
    corpus = await extractCorpus(opts.sources, opts.onProgress, { packages: opts.packages, followLinks: opts.followLinks }, external, {}, against.statementOf, against.exports);
  } finally {
    against.close();
  }
  // an index of nothing is a mistake (a wrong path), not a result
  if (!corpus.files) {
    const skipped = corpus.skippedFiles ? ` (${corpus.skippedFiles} skipped: binary, over 4 MiB or not regular files)` : '';
    throw new Error(`no .lean or .thy files in ${opts.sources.join(', ')}${skipped}: nothing to index, no index written`);
  }
  memtrace('extracted');
  prof.lap('extract+resolve');
  await opts.enrich?.(corpus.records, corpus.own);
  const infos = toInfos(corpus.records);
  const xrefs = externalRefs(corpus.records, external);
  external.clear();
  const graph = proofGraph(corpus.records);
  // records carry the prose context, which infos do not keep
  const contexts = deferredInformal(corpus.records);
  corpus.records.length = 0; // infos, graph and contexts hold what is still needed
  const n = infos.length;
  memtrace('infos');
  prof.lap('infos+graph');
  // premises.bin first: the BM25 fields are then built from it a record at a time, without the corpus in memory
  prepareOutDir(opts.out);
  const premisesFile = join(opts.out, 'premises.bin');
  writePremisesFile(opts.out, infos, graph);
  let dense: { vectors: Float32Array; dim: number; encoder: EncoderRef } | undefined;
  if (opts.encoder && n) {
    const vectors = await embedPremises(infos, opts.encoder, opts.onProgress);
    dense = { vectors, dim: opts.encoder.dim, encoder: encoderRef(opts.encoder, opts.encoderDir) };
  }
  infos.length = 0;
  memtrace('premises');
  prof.lap('premises+dense');
  const table = PremiseTable.open(premisesFile);
  const defer = opts.deferInformal && !opts.encoder;
  try {
    // the terms made during extraction, unless the enrich hook changed the records' number
    const formal = corpus.formalTerms.length === n ? formalField(corpus.formalTerms) : buildFormalField(table.scan());
    writeFieldFile(opts.out, 'sparse.bin', formal);
    memtrace('formal');
    prof.lap('bm25 formal');
    // the usage model: the formal field's terms are its features, the proof graph its uses
    writeMashFile(opts.out, fitMash(formal, graph));
    memtrace('mash');
    prof.lap('mash');
    writeFieldFile(opts.out, 'informal.bin', defer ? emptyField(n) : informalFromTable(table, contexts));
    memtrace('informal');
    prof.lap(defer ? 'bm25 informal (deferred)' : 'bm25 informal');
    // the pattern search's and the baselines' symbol sets, so that no process builds them on its first search
    writeSymbolsFile(opts.out, SymbolSets.build(table));
    prof.lap('symbols');
  } finally {
    table.close();
  }
  opts.onProgress?.({ phase: 'write', done: 0, total: 1 });
  if (dense) await writeDenseFiles(opts.out, dense, (done, total) => opts.onProgress?.({ phase: 'ann', done, total }));
  // sidecars before the manifest, which marks the directory complete
  if (xrefs) writeExternalRefs(opts.out, xrefs);
  if (corpus.exports.size) writeExports(opts.out, corpus.exports);
  if (defer) writeDeferredInformal(opts.out, contexts);
  writeModuleImports(opts.out, corpus.imports);
  const manifest = writeManifest(opts.out, {
    premises: n,
    symbols: true,
    encoder: dense?.encoder,
    sources: opts.sources,
    stats: {
      files: corpus.files,
      declarations: n,
      skippedFiles: corpus.skippedFiles,
      duplicates: corpus.duplicates,
      warnings: corpus.warnings.length,
    },
  });
  prof.lap('write');
  return {
    manifest,
    files: corpus.files,
    declarations: n,
    skipped: corpus.skippedFiles + corpus.warnings.length,
    linksSkipped: corpus.linksSkipped,
    moduleRoots: corpus.moduleRoots,
    warnings: corpus.warnings,
    seconds: (performance.now() - t0) / 1000,
  };
}

/** The formal field from the terms made during extraction, each run dropped once read. */
function formalField(runs: TermRun[]): Bm25Index {
  return Bm25Index.buildFromRuns((function* () {
    for (let i = 0; i < runs.length; i++) {
      const run = runs[i]!;
      (runs as unknown[])[i] = undefined;
      yield run;
    }
  })());
}

export interface AddDenseOptions {
  /** A finished sparse-only index directory. */
  from: string;
  out: string;
  encoder: Encoder;
  encoderDir?: string;
  onProgress?: OnProgress;
}

/**
 * The dense side for a sparse-only index: the same premises, postings, graph
 * and external references, plus premise vectors and their ANN graph. Reads the
 * finished index, not the sources, so it needs no extraction (and far less memory).
 */
export async function addDense(opts: AddDenseOptions): Promise<BuildSummary> {
  return buildBeside(opts.out, (out) => addDenseInto({ ...opts, out }));
}

async function addDenseInto(opts: AddDenseOptions): Promise<BuildSummary> {
  const t0 = performance.now();
  rememberIdentifiers(CORPUS_IDENTIFIERS);
  const m = readManifest(opts.from);
  const table = PremiseTable.open(join(dataDir(opts.from), 'premises.bin'));
  const n = table.size;
  const dim = opts.encoder.dim;
  // the informal field when the sparse-only build left it for this step
  let informal: Bm25Index | undefined;
  if (hasDeferredInformal(opts.from)) {
    const deferred = readDeferredInformal(opts.from, n);
    opts.onProgress?.({ phase: 'informal', done: 0, total: n });
    informal = informalFromTable(table, deferred, (done) => opts.onProgress?.({ phase: 'informal', done, total: n }));
  }
  // premise records are read a batch at a time: only the vectors are held
  const vectors = new Float32Array(n * dim);
  const batch = 4096;
  for (let i = 0; i < n; i += batch) {
    const slice = Array.from({ length: Math.min(batch, n - i) }, (_, j) => table.get(i + j));
    vectors.set(await embedPremises(slice, opts.encoder), i * dim);
    opts.onProgress?.({ phase: 'embed', done: i + slice.length, total: n });
  }
  opts.onProgress?.({ phase: 'write', done: 0, total: 1 });
  prepareOutDir(opts.out);
  for (const f of [EXTERNAL_REFS_FILE, EXPORTS_FILE, IMPORTS_FILE]) {
    // checked as it is read (a regular file of its listed size), written as it was
    const text = readSidecarText(opts.from, f);
    if (text !== undefined) writeFileSync(join(opts.out, f), text);
  }
  const encoder = encoderRef(opts.encoder, opts.encoderDir);
  const manifest = n
    ? await writeDenseCopy(opts.out, opts.from, { vectors, dim, encoder }, (done, total) => opts.onProgress?.({ phase: 'ann', done, total }), informal)
    : await writeIndexDir(opts.out, { infos: [], graph: { offsets: new Uint32Array(1), targets: new Uint32Array(0) }, ...emptyFields(opts.from), sources: m.sources, stats: m.stats });
  return { manifest, files: m.stats.files ?? 0, declarations: n, skipped: m.stats.skippedFiles ?? 0, linksSkipped: 0, warnings: [], seconds: (performance.now() - t0) / 1000 };
}

function emptyFields(dir: string) {
  const { sparse, informal } = readIndexDir(dir, { dense: false });
  return { sparse, informal };
}
