/**
 * One source file read and extracted for an index build, the same on the main
 * thread and in an extraction worker (./worker.ts): files that are not read
 * (not regular, over 4 MiB, binary, unreadable) are `skipped` with a warning.
 */
import { readFileSync, statSync } from 'node:fs';
import { extractSource } from './extract.js';
import type { ExtractedDecl } from './record.js';
import type { SourceFile } from './walk.js';
import type { TermRun } from '../sparse/bm25.js';
import { flatCopy } from '../sparse/terms.js';
import { formalTerms } from './formal-terms.js';

/** Files above this size are skipped (generated or binary files, not libraries). */
export const MAX_FILE_BYTES = 4 * 1024 * 1024;

export interface FileResult {
  decls: ExtractedDecl[];
  warnings: string[];
  skipped: boolean;
  /** The modules the file imports (absent for a skipped file). */
  imports?: string[];
}

/**
 * Files extracted one after the other, each declaration with its formal terms
 * (they depend on the declaration alone, so they are made here, on the
 * extraction's threads) as ids into one term table for the batch: a compact
 * form to hand between threads.
 */
export function extractBatch(files: SourceFile[]): FileResult[] {
  const results = files.map(extractFile);
  const index = new Map<string, number>();
  const table = { terms: [] as string[], ids: new Uint32Array(0) };
  const ids: number[] = [];
  for (const r of results) {
    for (const d of r.decls) {
      const start = ids.length;
      for (const t of formalTerms(d)) {
        let id = index.get(t);
        if (id === undefined) {
          index.set(t, (id = table.terms.length));
          table.terms.push(t);
        }
        ids.push(id);
      }
      d.formalTerms = { table, start, end: ids.length } satisfies TermRun;
    }
  }
  table.ids = Uint32Array.from(ids);
  return results;
}

/** Never throws: a file that cannot be read is a skipped file with a warning. */
export function extractFile(f: SourceFile): FileResult {
  try {
    return readAndExtract(f);
  } catch (e) {
    return { decls: [], warnings: [`${f.path}: skipped (${(e as Error).message})`], skipped: true };
  }
}

function readAndExtract(f: SourceFile): FileResult {
  const skip = (why: string): FileResult => ({ decls: [], warnings: [`${f.path}: skipped, ${why}`], skipped: true });
  // stat first: a FIFO or device would block or never end when read, a huge file is not a library
  const st = statSync(f.path);
  if (!st.isFile()) return skip('not a regular file');
  if (st.size > MAX_FILE_BYTES) return skip('larger than 4 MiB');
  const buf = readFileSync(f.path);
  if (buf.length > MAX_FILE_BYTES) return skip('larger than 4 MiB');
  // a byte order mark is not text: editors drop it from the buffer, so columns count from after it
  const text = buf.toString('utf8').replace(/^\uFEFF/, '');
  if (text.includes('\u0000')) return skip('binary content');
  const r = extractSource(text, f);
  return { decls: r.decls.map(compact), warnings: r.warnings.map((w) => `${f.path}: ${w}`), skipped: false, imports: r.imports ?? [] };
}

/**
 * Fresh copies of a declaration's strings. Substrings of the file's text keep
 * the whole text alive (V8 sliced strings), and in two-byte form when the file
 * has any non-Latin-1 character; copies through UTF-8 are flat and one-byte
 * when they can be. On Mathlib this is most of the extraction's memory.
 */
function compact(d: ExtractedDecl): ExtractedDecl {
  const c = flatCopy;
  const out: ExtractedDecl = { ...d, name: c(d.name), statement: c(d.statement), goal: c(d.goal), args: d.args.map(c), refs: d.refs.map(c) };
  if (d.doc !== undefined) out.doc = c(d.doc);
  if (d.origin !== undefined) out.origin = c(d.origin);
  if (d.attrs !== undefined) out.attrs = d.attrs.map(c);
  if (d.context !== undefined) out.context = c(d.context);
  return out;
}
