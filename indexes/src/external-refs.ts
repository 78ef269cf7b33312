/**
 * References from one index into others (a workspace's proofs using its
 * dependencies' lemmas, Mathlib's proofs using Lean core's): kept beside the
 * index in `external-refs.json` as compressed rows of names, so the engine can
 * count them in the popularity prior and graph votes of the index they point
 * into when both are opened together.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AliasTargets } from './extract/alias-types.js';
import type { PremiseRecord } from './extract/record.js';
import { PremiseTable } from './store/premises.js';
import { dataDir } from './store/data-dir.js';
import { readSidecarText } from './store/sidecar.js';

export const EXTERNAL_REFS_FILE = 'external-refs.json';
const FORMAT = 'premise-lsp-external-refs';
/** An index's `export NS (a)` names and what each names (they are not premises: resolveRefs drops their records). */
export const EXPORTS_FILE = 'exports.json';
const EXPORTS_FORMAT = 'premise-lsp-exports';

/** Rows: premise `ids[i]` of this index references `names[targets[offsets[i]..offsets[i+1])]`. */
export interface ExternalRefs {
  names: string[];
  ids: number[];
  offsets: number[];
  targets: number[];
}

/** The indexes a build resolves against: every premise name, a premise's statement by name (an alias's target, ./extract/alias-types.ts), and their `export` names. */
export interface ExternalIndexes {
  names: Set<string>;
  statementOf: AliasTargets;
  exports: Map<string, string>;
  close(): void;
}

/** Opens the given index directories' premise tables (records read on demand) until `close`. */
export function openExternal(dirs: string[]): ExternalIndexes {
  const tables = dirs.map((dir) => PremiseTable.open(join(dataDir(dir), 'premises.bin')));
  const names = new Set<string>();
  for (const table of tables) for (let i = 0; i < table.size; i++) names.add(table.name(i));
  const statementOf: AliasTargets = (name) => {
    for (const table of tables) {
      const id = table.id(name);
      if (id !== undefined) return table.get(id);
    }
    return undefined;
  };
  const exports = new Map<string, string>();
  for (const dir of dirs) for (const [name, target] of readExports(dir)) if (!exports.has(name)) exports.set(name, target);
  return { names, statementOf, exports, close: () => tables.forEach((t) => t.close()) };
}

/** Writes an index's `export` names (name → target), sorted by name. */
export function writeExports(dir: string, exports: ReadonlyMap<string, string>): void {
  const rows = [...exports].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  writeFileSync(join(dir, EXPORTS_FILE), JSON.stringify({ format: EXPORTS_FORMAT, version: 1, names: rows.map((r) => r[0]), targets: rows.map((r) => r[1]) }));
}

/** An index's `export` names (empty without the file, as in an index built before it existed); throws, naming the file, when it is malformed. */
export function readExports(dir: string): Map<string, string> {
  const path = join(dataDir(dir), EXPORTS_FILE);
  const text = readSidecarText(dir, EXPORTS_FILE);
  if (text === undefined) return new Map();
  let x: { format?: unknown; names?: unknown; targets?: unknown };
  try {
    x = JSON.parse(text);
  } catch (e) {
    throw new Error(`${path}: not valid JSON (${(e as Error).message}); delete the index to rebuild it`);
  }
  const strings = (a: unknown): a is string[] => Array.isArray(a) && a.every((v) => typeof v === 'string');
  if (x.format !== EXPORTS_FORMAT || !strings(x.names) || !strings(x.targets) || x.names.length !== x.targets.length) {
    throw new Error(`${path}: not an exports file; delete the index to rebuild it`);
  }
  const targets = x.targets;
  return new Map(x.names.map((n, i) => [n, targets[i]!]));
}

/** The references of `records` (in index order) to `external` names they do not declare themselves; undefined when none. */
export function externalRefs(records: PremiseRecord[], external: Set<string>): ExternalRefs | undefined {
  if (!external.size) return undefined;
  const own = new Set(records.map((r) => r.name));
  const x: ExternalRefs = { names: [], ids: [], offsets: [0], targets: [] };
  const nameIdx = new Map<string, number>();
  records.forEach((r, id) => {
    const row = r.refs.filter((n) => external.has(n) && !own.has(n));
    if (!row.length) return;
    x.ids.push(id);
    for (const n of row) {
      let t = nameIdx.get(n);
      if (t === undefined) {
        nameIdx.set(n, (t = x.names.length));
        x.names.push(n);
      }
      x.targets.push(t);
    }
    x.offsets.push(x.targets.length);
  });
  return x.ids.length ? x : undefined;
}

export function writeExternalRefs(dir: string, x: ExternalRefs): void {
  writeFileSync(join(dir, EXTERNAL_REFS_FILE), JSON.stringify({ format: FORMAT, version: 1, ...x }));
}

/**
 * The external references of the index in `dir`, as names per premise id of an
 * index of `size` premises; undefined when it has none. Throws, naming the file,
 * when the file is malformed, not a regular file, or not the size its manifest
 * lists (./store/sidecar.ts).
 */
export function readExternalRefs(dir: string, size: number): Map<number, string[]> | undefined {
  const path = join(dataDir(dir), EXTERNAL_REFS_FILE);
  const text = readSidecarText(dir, EXTERNAL_REFS_FILE);
  if (text === undefined) return undefined;
  const bad = (why: string) => new Error(`${path}: ${why}; delete the index to rebuild it`);
  let x: Partial<ExternalRefs> & { format?: unknown };
  try {
    x = JSON.parse(text);
  } catch (e) {
    throw bad(`not valid JSON (${(e as Error).message})`);
  }
  const ints = (a: unknown): a is number[] => Array.isArray(a) && a.every((v) => Number.isInteger(v) && v >= 0);
  if (x.format !== FORMAT || !Array.isArray(x.names) || !x.names.every((n) => typeof n === 'string')) throw bad('not an external references file');
  const { names, ids, offsets, targets } = x;
  if (!ints(ids) || !ints(offsets) || !ints(targets) || offsets.length !== ids.length + 1 || offsets[ids.length] !== targets.length) throw bad('tables disagree');
  const out = new Map<number, string[]>();
  for (let i = 0; i < ids.length; i++) {
    if (ids[i]! >= size || offsets[i]! > offsets[i + 1]!) throw bad(`row ${i} is out of range`);
    const row: string[] = [];
    for (let j = offsets[i]!; j < offsets[i + 1]!; j++) {
      const n = names[targets[j]!];
      if (n === undefined) throw bad(`row ${i} names #${targets[j]} of ${names.length}`);
      row.push(n);
    }
    out.set(ids[i]!, row);
  }
  return out;
}
