/**
 * Source files extracted on worker threads, results handed back in file order.
 *
 * Invariant: the results are the serial ones (extractBatch per batch, in the
 * order of `files`), whatever the number of workers and however the batches
 * interleave; test/unit/extract-parallel.test.ts compares the two.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { extractBatch, type FileResult } from './file.js';
import type { SourceFile } from './walk.js';
import type { BatchReply, BatchRequest } from './worker.js';

/** Files per message: small enough to balance the workers, large enough to keep messages few. */
const DEFAULT_BATCH = 16;
/** Below this many files the workers' start-up is not worth it. */
const MIN_FILES = 64;

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

export interface ParallelOptions {
  threads?: number;
  /** The worker script (default workerScript()). */
  script?: string;
  /** Use workers even for few files (tests). */
  always?: boolean;
  /** Files per message (default 16). */
  batch?: number;
}

/**
 * `onResult(i, result)` for every file, in order of `i`. Serial when one thread
 * is asked for, the files are few, or there is no worker script.
 */
export async function extractFiles(files: SourceFile[], onResult: (i: number, r: FileResult) => void, opts: ParallelOptions = {}): Promise<void> {
  const threads = opts.threads ?? extractionThreads();
  const script = opts.script ?? workerScript();
  const BATCH = opts.batch ?? DEFAULT_BATCH;
  if (threads < 2 || !script || (files.length < MIN_FILES && !opts.always)) {
    for (let b = 0; b * BATCH < files.length; b++) extractBatch(files.slice(b * BATCH, (b + 1) * BATCH)).forEach((r, j) => onResult(b * BATCH + j, r));
    return;
  }
  const batches = Math.ceil(files.length / BATCH);
  const pending = new Map<number, FileResult[]>(); // finished batches not yet handed on
  let next = 0; // next batch to send
  let handed = 0; // next batch to hand on
  const workers: Worker[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      const send = (w: Worker) => {
        if (next >= batches) return;
        const b = next++;
        const req: BatchRequest = { batch: b, files: files.slice(b * BATCH, (b + 1) * BATCH) };
        w.postMessage(req);
      };
      for (let t = 0; t < Math.min(threads, batches); t++) {
        const w = new Worker(script);
        workers.push(w);
        w.on('message', (m: BatchReply) => {
          pending.set(m.batch, m.results);
          send(w);
          while (pending.has(handed)) {
            const results = pending.get(handed)!;
            pending.delete(handed);
            results.forEach((r, j) => onResult(handed * BATCH + j, r));
            handed++;
          }
          if (handed === batches) resolve();
        });
        w.on('error', reject);
        w.on('exit', (code) => {
          if (handed < batches) reject(new Error(`an extraction worker stopped (exit code ${code})`));
        });
        send(w);
      }
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
