/**
 * Sources → index: discover files, extract declarations, resolve proof
 * references (the proof graph gives each premise its `uses` count), build the
 * BM25 postings and, with an encoder, the fine-grained premise vectors
 * ½(f̂(Γp) + f̂(Gp)) and their ANN graph, then write the index directory.
 */
import { readFileSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import type { Encoder } from '../../models/src/encoder.js';
import { extractSource } from './extract/extract.js';
import type { ExtractedDecl, PremiseRecord } from './extract/record.js';
import { resolveRefs } from './extract/resolve.js';
import { discoverSources, type DiscoverOptions, type SourceFile } from './extract/walk.js';
import { embedPremises } from './embed.js';
import { proofGraph, toInfos } from './graph.js';
import { buildSparseFields } from './sparse/fields.js';
import { writeIndexDir, type Manifest } from './store/index-dir.js';
import type { OnProgress } from './progress.js';

export type { OnProgress, Progress } from './progress.js';

/** Files above this size are skipped (generated or binary files, not libraries). */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

export interface Corpus {
  records: PremiseRecord[];
  files: number;
  skippedFiles: number;
  duplicates: number;
  warnings: string[];
  /** Names declared by the sources themselves (not by a Lake project's `.lake/packages`). */
  own: Set<string>;
}

/** Is `path` one of the inputs' own files rather than a file of their `.lake/packages`? */
function isOwnFile(path: string, inputs: string[]): boolean {
  return inputs.some((input) => {
    const rel = relative(resolve(input), resolve(path));
    return rel === '' || (!rel.startsWith('..') && !rel.startsWith(`.lake${sep}`));
  });
}

function extractFile(f: SourceFile): { decls: ExtractedDecl[]; warnings: string[] } {
  const buf = readFileSync(f.path);
  if (buf.length > MAX_FILE_BYTES) return { decls: [], warnings: [`${f.path}: skipped, larger than 4 MiB`] };
  const text = buf.toString('utf8');
  if (text.includes('\u0000')) return { decls: [], warnings: [`${f.path}: skipped, binary content`] };
  const r = extractSource(text, f);
  return { decls: r.decls, warnings: r.warnings.map((w) => `${f.path}: ${w}`) };
}

export function extractCorpus(inputs: string[], onProgress?: OnProgress, discover: DiscoverOptions = {}): Corpus {
  const { files, warnings } = discoverSources(inputs, discover);
  const decls: ExtractedDecl[] = [];
  const own = new Set<string>();
  let skippedFiles = 0;
  files.forEach((f, i) => {
    try {
      const r = extractFile(f);
      decls.push(...r.decls);
      if (isOwnFile(f.path, inputs)) for (const d of r.decls) own.add(d.name);
      warnings.push(...r.warnings);
    } catch (e) {
      skippedFiles++;
      warnings.push(`${f.path}: skipped (${(e as Error).message})`);
    }
    if (onProgress && (i % 50 === 0 || i === files.length - 1)) onProgress({ phase: 'extract', done: i + 1, total: files.length });
  });
  // the resolver also keeps one record per name (hand-written over generated) and drops alias records
  const records = resolveRefs(decls);
  return { records, files: files.length, skippedFiles, duplicates: decls.length - records.length, warnings, own };
}

export interface BuildOptions {
  sources: string[];
  out: string;
  encoder?: Encoder;
  encoderDir?: string;
  onProgress?: OnProgress;
  /** Also index each source's `.lake/packages/*` (default true). */
  packages?: boolean;
  /**
   * Runs after extraction, before anything is indexed, and may add to the records
   * (e.g. LLM-written `informal` statements; network I/O belongs to the caller).
   * `own`: the names the sources declare themselves, not their packages.
   */
  enrich?: (records: PremiseRecord[], own: ReadonlySet<string>) => Promise<void>;
}

export interface BuildSummary {
  manifest: Manifest;
  files: number;
  declarations: number;
  skipped: number;
  warnings: string[];
  seconds: number;
}

export async function buildIndex(opts: BuildOptions): Promise<BuildSummary> {
  const t0 = performance.now();
  const corpus = extractCorpus(opts.sources, opts.onProgress, { packages: opts.packages });
  await opts.enrich?.(corpus.records, corpus.own);
  const infos = toInfos(corpus.records);
  // records carry the prose context, which infos do not keep
  const { sparse, informal } = buildSparseFields(corpus.records);
  let dense: Parameters<typeof writeIndexDir>[1]['dense'];
  if (opts.encoder && infos.length) {
    const vectors = await embedPremises(infos, opts.encoder, opts.onProgress);
    dense = { vectors, dim: opts.encoder.dim, encoder: { dir: opts.encoderDir ?? '', id: opts.encoder.id, dim: opts.encoder.dim } };
  }
  opts.onProgress?.({ phase: 'write', done: 0, total: 1 });
  const manifest = await writeIndexDir(opts.out, {
    infos,
    graph: proofGraph(corpus.records),
    sparse,
    informal,
    dense,
    sources: opts.sources,
    stats: {
      files: corpus.files,
      declarations: infos.length,
      skippedFiles: corpus.skippedFiles,
      duplicates: corpus.duplicates,
      warnings: corpus.warnings.length,
    },
  }, (done, total) => opts.onProgress?.({ phase: 'ann', done, total }));
  return {
    manifest,
    files: corpus.files,
    declarations: infos.length,
    skipped: corpus.skippedFiles + corpus.warnings.length,
    warnings: corpus.warnings,
    seconds: (performance.now() - t0) / 1000,
  };
}
