/**
 * `query`'s import options: `--imported-modules A,B` and `--imports-from FILE`
 * (a .lean or .thy file's own imports) say what the caller can use; `--imports`
 * says what to do with the rest (`only`, the default: leave them out;
 * `prefer`: rank them after; `any`: rank alike), as the server's `imports`
 * setting does for an open file. The file is read only when it is a regular
 * one of at most 4 MiB (a FIFO hung `query`).
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { headerImports } from '../../../indexes/src/extract/imports.js';
import { sourceOf } from '../../../indexes/src/extract/walk.js';
import {
  IMPORT_POLICIES,
  headerScope,
  importableNames,
  type ImportPolicy,
  type ImportScope,
} from '../../../indexes/src/module-imports.js';
import type { PremiseSearch, SearchOptions } from '../engine/types.js';
import { choice, UsageError } from './args.js';

/** A source larger than this is not indexed either (indexes/src/extract/file.ts). */
const MAX_IMPORTS_FROM_BYTES = 4 * 1024 * 1024;

export const IMPORT_FLAGS = {
  'imported-modules': { type: 'string' },
  'imports-from': { type: 'string' },
  imports: { type: 'string' },
} as const;

interface ImportFlagValues {
  'imported-modules'?: string;
  'imports-from'?: string;
  imports?: string;
}

export interface ImportChoice {
  scope: ImportScope;
  policy: ImportPolicy;
}

/** What the import flags say, read (and the file read) before any index is opened: a bad value is a usage error at once. */
export interface ImportRequest {
  policy: ImportPolicy;
  /** The modules imported (`--imported-modules`, and the file's header imports). */
  imports: string[];
  lang: 'lean' | 'isabelle';
  prelude: boolean;
  /** The file's own module (`--imports-from`). */
  own?: string;
}

/** The import flags; undefined when none is given. Usage errors for bad values. */
export function importRequest(values: ImportFlagValues): ImportRequest | undefined {
  const policy = choice(values.imports, 'imports', IMPORT_POLICIES);
  const listed = values['imported-modules'];
  const from = values['imports-from'];
  if (listed === undefined && from === undefined) {
    if (policy) throw new UsageError('--imports needs --imported-modules or --imports-from (what the query can use)');
    return undefined;
  }
  const modules = (listed ?? '').split(',').map((m) => m.trim()).filter(Boolean);
  if (listed !== undefined && !modules.length) throw new UsageError('--imported-modules takes module names separated by commas, e.g. Mathlib.Order.Basic,Mathlib.Data.Nat.Basic');
  if (from === undefined) return { policy: policy ?? 'only', imports: modules, lang: 'lean', prelude: false };
  const path = resolve(from);
  const src = sourceOf(path);
  if (!src) throw new UsageError(`--imports-from takes a .lean or .thy file, got ${JSON.stringify(from)}`);
  let text: string;
  try {
    // looked at before it is opened: a FIFO would block the open for ever
    const st = statSync(path);
    if (!st.isFile()) throw new Error(st.isDirectory() ? 'a directory' : 'not a regular file');
    if (st.size > MAX_IMPORTS_FROM_BYTES) throw new Error('larger than 4 MiB');
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`--imports-from: cannot read ${from} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const header = headerImports(text, src.lang);
  return { policy: policy ?? 'only', imports: [...header.imports, ...modules], lang: src.lang, prelude: header.prelude, own: src.module };
}

/** The request's scope over the engine's module imports (Lean's implicit `Init` unless the file is a prelude). */
export function importChoice(req: ImportRequest | undefined, engine: PremiseSearch): ImportChoice | undefined {
  if (!req) return undefined;
  return { scope: headerScope(engine.moduleImports(), req.lang, req, req.own), policy: req.policy };
}

/** The search's `only` for the `only` policy (names whose module the scope allows). */
export function importSearchOptions(choice: ImportChoice | undefined, engine: PremiseSearch): Pick<SearchOptions, 'only'> {
  return choice?.policy === 'only' && engine.moduleImports().size ? { only: importableNames(choice.scope, (name) => engine.lookup(name)?.module) } : {};
}
