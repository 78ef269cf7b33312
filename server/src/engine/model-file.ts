/**
 * The common part of reading a learned model's JSON file (`fusion.json`, `ranker.json`): it
 * exists, parses, has the expected format at version 1 and names its encoder; every error
 * names the file. What the model itself holds is checked by its reader.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ModelFile {
  file: string;
  /** The parsed object, its fields unchecked but for `format`, `version` and `encoder_id`. */
  m: Record<string, unknown>;
  encoderId: string;
  /** An Error naming the file and what is wrong with it. */
  bad(why: string): Error;
}

/** Reads `dir/name`, a `format` v1 file of the model called `what` (e.g. "learned ranker"). */
export function readModelFile(dir: string, name: string, what: string, format: string): ModelFile {
  const file = join(dir, name);
  if (!existsSync(file)) throw new Error(`${what} file missing: ${file}`);
  let m: Record<string, unknown> | null;
  try {
    m = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${what} ${file} is not valid JSON: ${(e as Error).message}`);
  }
  const bad = (why: string) => new Error(`${what} ${file}: ${why}`);
  if (!m || typeof m !== 'object' || m.format !== format || m.version !== 1) throw bad(`not a ${format} v1 file`);
  if (typeof m.encoder_id !== 'string' || !m.encoder_id) throw bad('encoder_id missing');
  return { file, m, encoderId: m.encoder_id, bad };
}

/** Does a model's list of feature names equal the ones this version computes, in order? */
export const sameNames = (a: unknown, b: readonly string[]): boolean => Array.isArray(a) && a.length === b.length && a.every((x, i) => x === b[i]);
