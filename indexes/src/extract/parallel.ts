/**
 * Source files extracted on worker threads, results handed back in file order.
 *
 * Invariant: the results are the serial ones (extractBatch per batch, in the
 * order of `files`), whatever the number of workers and however the batches
 * interleave; test/unit/extract-parallel.test.ts compares the two.
 */
import { existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { extractBatch, type FileResult } from './file.js';
import type { SourceFile } from './walk.js';
import type { BatchReply, BatchRequest } from './worker.js';

/** Files per message: small enough to balance the workers, large enough to keep messages few. */
const DEFAULT_BATCH = 16;
/** Below this many files the workers' start-up is not worth it... */
const MIN_FILES = 64;
/**
 * ...unless one is this large: it goes to a worker, under its memory limit, even
 * among few files (the largest real source, Mathlib.lean's import list, is 291 KiB).
 */
const BIG_FILE_BYTES = 1024 * 1024;

const anyBig = (files: SourceFile[]) =>
  files.some((f) => {
    try {
      return statSync(f.path).size > BIG_FILE_BYTES;
    } catch {
      return false; // the extraction says why
    }
  });

/**
 * The worker script next to the bundle (dist/extract-worker.js); undefined when
 * running from sources (tests), where extraction stays on this thread.
 */
export function workerScript(): string | undefined {
  const path = fileURLToPath(new URL('./extract-worker.js', import.meta.url));
  return existsSync(path) ? path : undefined;
}

/** `PREMISE_LSP_INDEX_THREADS`, else the cores (at most 4); 1 = serial. */
export function extractionThreads(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.PREMISE_LSP_INDEX_THREADS);
  if (Number.isInteger(n) && n >= 1) return Math.min(n, 16);
  return Math.min(4, availableParallelism());
}

/**
 * Old-generation heap of one extraction worker, in MB. Extracting the heaviest of
 * Mathlib's 150 largest files allocates at most 17 MB (garbage included;
 * Mathlib/Analysis/Normed/Group/Basic.lean), and a worker keeps a 16-file batch and
 * its memo of binder terms besides; a hostile 4 MiB source can need 850 MB or more,
 * times the workers. A file that needs more than this is skipped with a warning,
 * and the build goes on with a fresh worker.
 */
export const WORKER_HEAP_MB = 256;

/** The end of the warning of a file skipped for the memory limit (the CLIs print these even without --verbose). */
export const MEMORY_SKIP = "an extraction worker's memory limit";

export interface ParallelOptions {
  threads?: number;
  /** The worker script (default workerScript()). */
  script?: string;
  /** Use workers even for few files (tests). */
  always?: boolean;
  /** Files per message (default 16). */
  batch?: number;
  /** Each worker's old-generation heap in MB (default WORKER_HEAP_MB). */
  heapMb?: number;
}

/** A message's worth of work: a whole batch, or one file of a batch being redone file by file. */
interface Job {
  batch: number;
  /** The file's place in its batch, for a job of one file of a batch redone. */
  single?: number;
}

/**
 * `onResult(i, result)` for every file, in order of `i`. Serial when one thread
 * is asked for, the files are few (and none over 1 MiB), or there is no worker
 * script; serial extraction has no memory bound. A worker that
 * runs out of its heap (`heapMb`) is replaced: its batch is redone one file per
 * message, and a file that exhausts a worker alone is skipped with a warning.
 */
export async function extractFiles(files: SourceFile[], onResult: (i: number, r: FileResult) => void, opts: ParallelOptions = {}): Promise<void> {
  const threads = opts.threads ?? extractionThreads();
  const script = opts.script ?? workerScript();
  const BATCH = opts.batch ?? DEFAULT_BATCH;
  const heapMb = opts.heapMb ?? WORKER_HEAP_MB;
  if (threads < 2 || !script || (files.length < MIN_FILES && !opts.always && !anyBig(files))) {
    for (let b = 0; b * BATCH < files.length; b++) extractBatch(files.slice(b * BATCH, (b + 1) * BATCH)).forEach((r, j) => onResult(b * BATCH + j, r));
    return;
  }
  const batches = Math.ceil(files.length / BATCH);
  const filesOf = (b: number) => files.slice(b * BATCH, (b + 1) * BATCH);
  const pending = new Map<number, FileResult[]>(); // finished batches not yet handed on
  const redone = new Map<number, { results: FileResult[]; left: number }>(); // batches being redone file by file
  const retries: Job[] = []; // single-file jobs, sent before further batches
  const idle: (() => void)[] = []; // workers that found nothing to do
  let next = 0; // next batch to send
  let handed = 0; // next batch to hand on
  const workers = new Set<Worker>();
  try {
    await new Promise<void>((resolve, reject) => {
      const finish = (b: number, results: FileResult[]) => {
        pending.set(b, results);
        while (pending.has(handed)) {
          const rs = pending.get(handed)!;
          pending.delete(handed);
          rs.forEach((r, j) => onResult(handed * BATCH + j, r));
          handed++;
        }
        if (handed === batches) resolve();
      };
      const done = (job: Job, results: FileResult[]) => {
        if (job.single === undefined) return finish(job.batch, results);
        const r = redone.get(job.batch)!;
        r.results[job.single] = results[0]!;
        if (--r.left === 0) {
          redone.delete(job.batch);
          finish(job.batch, r.results);
        }
      };
      const take = (): Job | undefined => retries.shift() ?? (next < batches ? { batch: next++ } : undefined);
      const start = () => {
        let job: Job | undefined;
        const w = new Worker(script, { resourceLimits: { maxOldGenerationSizeMb: heapMb } });
        workers.add(w);
        const send = () => {
          job = take();
          if (!job) return void idle.push(send);
          const batchFiles = filesOf(job.batch);
          const req: BatchRequest = { batch: job.batch, files: job.single === undefined ? batchFiles : [batchFiles[job.single]!] };
          w.postMessage(req);
        };
        w.on('message', (m: BatchReply) => {
          const j = job!;
          job = undefined;
          done(j, m.results);
          send();
        });
        w.on('error', (e: Error & { code?: string }) => {
          if (e.code !== 'ERR_WORKER_OUT_OF_MEMORY') return reject(e);
          const j = job;
          job = undefined;
          workers.delete(w);
          if (idle.includes(send)) idle.splice(idle.indexOf(send), 1);
          if (j && j.single === undefined && filesOf(j.batch).length > 1) {
            // which of the batch's files: each again, alone, in a fresh worker
            const n = filesOf(j.batch).length;
            redone.set(j.batch, { results: new Array<FileResult>(n), left: n });
            for (let i = 0; i < n; i++) retries.push({ batch: j.batch, single: i });
            idle.splice(0).forEach((wake) => wake());
          } else if (j) {
            const f = filesOf(j.batch)[j.single ?? 0]!;
            const warning = `${f.path}: skipped, its extraction needs more than ${heapMb} MB (${MEMORY_SKIP})`;
            done(j, [{ decls: [], warnings: [warning], skipped: true }]);
          }
          if (handed < batches) start();
        });
        w.on('exit', (code) => {
          if (workers.has(w) && handed < batches) reject(new Error(`an extraction worker stopped (exit code ${code})`));
        });
        send();
      };
      for (let t = 0; t < Math.min(threads, batches); t++) start();
    });
  } finally {
    await Promise.all([...workers].map((w) => w.terminate()));
  }
}
