/**
 * The one hold-out rule of every learned part (the encoder, the text tower, the
 * reranker, a learned fusion) and of the evaluation sets. A source file is held
 * out when
 *  - SHA-1(its path) mod 20 = 0 (first four bytes, big-endian): the files whose
 *    statements `eval --dataset heldout` and the bench query (and, for an
 *    Isabelle index, whose lemmas `eval --dataset afp` queries: the path taken
 *    inside the AFP's `thys/`), or
 *  - it is the file of a query of another evaluation set in the shared data
 *    directory (`../shared/data`): a LeanDojo step's `file_path`, a MathlibQR
 *    answer's `file`, the file that declares a MathlibMPR main result.
 * No training data ever comes from a held-out file: neither queries, nor
 * positives, nor premise texts. Training recipes in Python never compute this:
 * they read the list `premise-lsp holdout-files` writes (HOLDOUT_FILES).
 * Names on the holdout list (`holdout_theorems.txt`) stay excluded on top.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const VAL_MOD = 20;

/** A stable 32-bit hash (first 4 bytes of SHA-1), for splits and sampling. */
export function stableHash(s: string): number {
  return createHash('sha1').update(s).digest().readUInt32BE(0);
}

/** A file's path as the rule reads it: an AFP theory's path inside `thys/`. */
const rulePath = (file: string) => file.replace(/^thys\//, '');

/** Whether a file's statements are the held-out evaluation queries (stable hash 0 mod 20). */
export const isValidationFile = (file: string) => stableHash(rulePath(file)) % VAL_MOD === 0;

/** The dev split of the training files (stable hash 1 mod 20), for choices made while training. */
export const isDevFile = (file: string) => stableHash(rulePath(file)) % VAL_MOD === 1;

/** The held-out AFP set's half a theory file belongs to: `dev` (choose on it) or `test` (report it). */
export const afpHalf = (file: string): 'dev' | 'test' => (createHash('sha1').update(rulePath(file)).digest()[19]! % 2 === 0 ? 'dev' : 'test');

/** Which files the evaluation sets of a shared data directory query, and how many of their queries had no file. */
export interface EvalSetFiles {
  files: Set<string>;
  /** per set: queries seen, files found, queries whose file is unknown (a MathlibMPR result the corpus does not declare) */
  sets: Record<string, { queries: number; files: number; unknown: number }>;
}

/**
 * The files of the evaluation sets' queries in `dataDir` (`leandojo/dev_steps.jsonl`,
 * `mathlibqr/MathlibQR.json`, `mathlibqr/MathlibMPR.json`; a missing one adds none).
 * `fileOf` gives a declaration's file in the corpus (for MathlibMPR, whose rows name no file).
 */
export function evalSetFiles(dataDir: string, fileOf: (name: string) => string | undefined): EvalSetFiles {
  const files = new Set<string>();
  const sets: EvalSetFiles['sets'] = {};
  const add = (set: string, file: string | undefined) => {
    const s = (sets[set] ??= { queries: 0, files: 0, unknown: 0 });
    s.queries++;
    if (!file) s.unknown++;
    else if (!files.has(file)) {
      files.add(file);
      s.files++;
    }
  };
  const dojo = join(dataDir, 'leandojo', 'dev_steps.jsonl');
  if (existsSync(dojo)) {
    for (const line of readFileSync(dojo, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const row = JSON.parse(line) as { file_path?: string; theorem?: string };
      add('leandojo', row.file_path || (row.theorem ? fileOf(row.theorem) : undefined));
    }
  }
  const qr = join(dataDir, 'mathlibqr', 'MathlibQR.json');
  if (existsSync(qr)) {
    for (const row of JSON.parse(readFileSync(qr, 'utf8')) as { full_name?: string; file?: string }[]) {
      add('mathlibqr', row.file?.replace(/:\d+$/, '') || (row.full_name ? fileOf(row.full_name) : undefined));
    }
  }
  const mpr = join(dataDir, 'mathlibqr', 'MathlibMPR.json');
  if (existsSync(mpr)) {
    for (const row of JSON.parse(readFileSync(mpr, 'utf8')) as { formal_main_result?: string }[]) {
      add('mathlibmpr', row.formal_main_result ? fileOf(row.formal_main_result) : undefined);
    }
  }
  return { files, sets };
}

/** The rule over a corpus: validation files by hash, plus the evaluation sets' files. */
export class HoldOutRule {
  constructor(readonly evalFiles: ReadonlySet<string> = new Set()) {}

  /** Whether nothing of `file` may be training data. */
  isHeldOut(file: string): boolean {
    return isValidationFile(file) || this.evalFiles.has(file);
  }

  /** The held-out files among `corpusFiles`, with the evaluation sets' files, sorted: what `holdout-files` writes. */
  list(corpusFiles: Iterable<string>): string[] {
    const out = new Set(this.evalFiles);
    for (const f of corpusFiles) if (this.isHeldOut(f)) out.add(f);
    return [...out].sort();
  }
}

/** The rule for a corpus, the evaluation sets read from `dataDir` when it exists. */
export function holdOutRule(dataDir: string | undefined, fileOf: (name: string) => string | undefined): HoldOutRule {
  return new HoldOutRule(dataDir && existsSync(dataDir) ? evalSetFiles(dataDir, fileOf).files : new Set());
}
