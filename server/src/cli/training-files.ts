/**
 * What the training-data commands (`rerank-data`, `tower-data`, `fusion-data`)
 * share: the holdout list they read and the JSON lines they write.
 */
import { existsSync, readFileSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../paths.js';
import { UsageError } from './args.js';
import { readHoldoutList } from '../eval/statements.js';
import { holdOutRule, type HoldOutRule } from '../eval/holdout.js';

/** Non-blank lines of a text file. */
export function readLines(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim());
}

/** The holdout list: `--holdout FILE`, else ../shared/data/holdout_theorems.txt (a usage error when absent). */
export function readHoldout(file: string | undefined): Set<string> {
  const holdoutFile = file ?? join(packageRoot(), '..', 'shared', 'data', 'holdout_theorems.txt');
  if (!existsSync(holdoutFile)) throw new UsageError(`holdout list not found: ${holdoutFile} (pass --holdout FILE)`);
  return readHoldoutList(holdoutFile);
}

/**
 * The one hold-out rule (eval/holdout.ts) for a training-data command: the evaluation sets
 * read from `--shared DIR`, else ../shared/data (absent: the hash rule alone, with a line on
 * stderr); `fileOf` gives a declaration's file in the corpus.
 */
export function readRule(shared: string | undefined, fileOf: (name: string) => string | undefined): HoldOutRule {
  if (shared !== undefined && !existsSync(shared)) throw new UsageError(`shared data directory not found: ${shared}`);
  const dir = shared ?? join(packageRoot(), '..', 'shared', 'data');
  if (!existsSync(dir)) process.stderr.write(`note: ${dir} not found: only the hash rule holds files out (pass --shared DIR)\n`);
  return holdOutRule(dir, fileOf);
}

/** Writes one line, waiting when the stream's buffer is full. */
export async function write(out: WriteStream, line: string): Promise<void> {
  if (!out.write(line + '\n')) await new Promise<void>((res) => out.once('drain', () => res()));
}

export const close = (out: WriteStream) => new Promise<void>((res, rej) => out.end((e?: Error) => (e ? rej(e) : res())));

/** Feature values as written: five decimals. */
export const round = (x: number) => Math.round(x * 1e5) / 1e5;
