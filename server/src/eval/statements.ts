/**
 * Mathlib theorems as queries: a theorem's statement as the proof state at its
 * start, the premises its proof references as gold. The reranker's and the
 * learned fusion's training data (`rerank-data`, `fusion-data`, from extracted
 * records) and the held-out statements that `eval --dataset heldout` and the
 * bench score (from an index's own records) are made by the same rules: Lean
 * theorems and lemmas with a conclusion, never an alias (it restates its target,
 * its only premise), none on the holdout list, files split by a stable hash
 * (0 mod 20 validation, 1 mod 20 dev), queries ordered by a stable hash of the name
 * so that any prefix is a fixed sample.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAliasRecord } from '../../../indexes/src/extract/alias-types.js';
import { binderToHyp } from '../../../indexes/src/extract/lean/signature.js';
import type { PremiseRecord } from '../../../indexes/src/extract/record.js';
import { readExternalRefs } from '../../../indexes/src/external-refs.js';
import { PremiseTable } from '../../../indexes/src/store/premises.js';
import { dataDir } from '../../../indexes/src/store/data-dir.js';
import type { EvalQuery } from './datasets.js';

export const VAL_MOD = 20;
const STATEMENT_KINDS = new Set(['theorem', 'lemma']);

/** A stable 32-bit hash (first 4 bytes of SHA-1), for splits and sampling. */
export function stableHash(s: string): number {
  return createHash('sha1').update(s).digest().readUInt32BE(0);
}

/** The holdout list (`../shared/data/holdout_theorems.txt`): one theorem name a line. */
export function readHoldoutList(file: string): Set<string> {
  return new Set(
    readFileSync(file, 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean),
  );
}

export const isValidationFile = (file: string) => stableHash(file) % VAL_MOD === 0;

/** The dev split of the training files (stable hash 1 mod 20), for choices made while training. */
export const isDevFile = (file: string) => stableHash(file) % VAL_MOD === 1;

/** A theorem statement as the proof state at its start. */
export function statementState(r: Pick<PremiseRecord, 'args' | 'goal'>): string {
  const hyps = r.args.map(binderToHyp).join('\n');
  return `${hyps ? hyps + '\n' : ''}⊢ ${r.goal}`;
}

export interface TrainQuery {
  name: string;
  file: string;
  split: 'train' | 'val';
  text: string;
  gold: Set<string>;
}

type Statement = Pick<PremiseRecord, 'name' | 'kind' | 'lang' | 'file' | 'statement' | 'args' | 'goal'>;

/** Whether a declaration can be a statement query at all (before the holdout list and its gold). */
const isStatement = (r: Statement) => r.lang === 'lean' && STATEMENT_KINDS.has(r.kind) && !!r.goal.trim() && !isAliasRecord(r);

/** The query a declaration makes with `refs` (its proof's references the index has), or undefined without any. */
function statementQuery(r: Statement, refs: Iterable<string>): TrainQuery | undefined {
  const gold = new Set([...refs].filter((n) => n !== r.name));
  if (!gold.size) return undefined;
  return { name: r.name, file: r.file, split: isValidationFile(r.file) ? 'val' : 'train', text: statementState(r), gold };
}

const byStableHash = (a: { name: string }, b: { name: string }) => stableHash(a.name) - stableHash(b.name) || a.name.localeCompare(b.name);

/** Statement queries from extracted records (`has`: the premises the index has); how many the holdout list removed. */
export function recordQueries(records: Iterable<PremiseRecord>, holdout: Set<string>, has: (name: string) => boolean): { queries: TrainQuery[]; skippedHoldout: number } {
  const queries: TrainQuery[] = [];
  let skippedHoldout = 0;
  for (const r of records) {
    if (!isStatement(r)) continue;
    if (holdout.has(r.name)) {
      skippedHoldout++;
      continue;
    }
    const q = statementQuery(r, r.refs.filter(has));
    if (q) queries.push(q);
  }
  queries.sort(byStableHash);
  return { queries, skippedHoldout };
}

/**
 * The held-out statements of an index directory (from its `premises.bin`): the first `limit`
 * validation-file queries, as `rerank-data --val-dojo` writes them from the
 * records the index was built from.
 */
export function heldOutStatements(indexDir: string, holdout: Set<string>, limit = 2000): EvalQuery[] {
  const table = PremiseTable.open(join(dataDir(indexDir), 'premises.bin'));
  try {
    const queries: TrainQuery[] = [];
    let id = 0;
    for (const info of table.scan()) {
      const i = id++;
      if (!isStatement(info) || !isValidationFile(info.file) || holdout.has(info.name)) continue;
      const q = statementQuery(info, Array.from(table.refs(i), (t) => table.name(t)));
      if (q) queries.push(q);
    }
    queries.sort(byStableHash);
    return queries.slice(0, limit).map((q) => ({ id: q.name, style: 'statement', text: q.text, gold: [...q.gold].map((n) => [n]), theorem: q.name }));
  } finally {
    table.close();
  }
}

/** Which half of a project's theorems a query is in, by a stable hash of its name: `dev` for choices, `test` to report. */
export type ProjectHalf = 'dev' | 'test';
export const projectHalf = (name: string): ProjectHalf => (stableHash(`half:${name}`) % 2 === 0 ? 'dev' : 'test');

/**
 * A Lake project's own theorems as queries (`eval --project`), from the
 * workspace entry of its automatic index: every theorem or lemma with a
 * conclusion (never an alias), its statement as the proof state at its start;
 * gold = every name its proof references that the entries resolve (`has`): the
 * workspace's own premises (`workspace`) and those of the entries before it,
 * the toolchain's and the dependencies' (`dependency`; the index's
 * external references). Ordered by a stable hash of the name, so that any
 * prefix (`limit`) is a fixed sample; `half`: only that half (each query's
 * style is its half, so that a report on both gives each alone too).
 */
export function projectStatements(workspaceDir: string, has: (name: string) => boolean, opts: { limit?: number; half?: ProjectHalf } = {}): EvalQuery[] {
  const table = PremiseTable.open(join(workspaceDir, 'premises.bin'));
  try {
    const external = readExternalRefs(workspaceDir, table.size);
    const queries: { name: string; text: string; workspace: string[]; dependency: string[] }[] = [];
    let id = 0;
    for (const info of table.scan()) {
      const i = id++;
      if (!isStatement(info) || (opts.half && projectHalf(info.name) !== opts.half)) continue;
      const keep = (names: Iterable<string>) => [...new Set(names)].filter((n) => n !== info.name && has(n));
      const workspace = keep(Array.from(table.refs(i), (t) => table.name(t)));
      const dependency = keep(external?.get(i) ?? []).filter((n) => !workspace.includes(n));
      if (!workspace.length && !dependency.length) continue;
      queries.push({ name: info.name, text: statementState(info), workspace, dependency });
    }
    queries.sort(byStableHash);
    return queries.slice(0, opts.limit ?? queries.length).map((q) => ({
      id: q.name,
      style: projectHalf(q.name),
      text: q.text,
      theorem: q.name,
      gold: [...q.dependency, ...q.workspace].map((n) => [n]),
      goldParts: { dependency: q.dependency.map((n) => [n]), workspace: q.workspace.map((n) => [n]) },
    }));
  } finally {
    table.close();
  }
}

/** The workspace theorems of an opened project (`projectStatements` over its workspace entry, gold the names its engine resolves). */
export function projectQueries(project: { engine: { lookup(name: string): unknown }; workspaceDir?: string }, opts: { limit?: number; half?: ProjectHalf } = {}): EvalQuery[] {
  if (!project.workspaceDir) throw new Error('the project has no Lean sources of its own: nothing to evaluate');
  return projectStatements(project.workspaceDir, (n) => !!project.engine.lookup(n), opts);
}
