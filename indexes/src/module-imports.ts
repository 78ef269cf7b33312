/**
 * The modules' own imports, kept beside an index in `imports.json` (module →
 * the modules its header imports, both sorted: the same bytes however the build
 * ran), and what a file can use: the import closure of its imports over the
 * graph of every opened index. Indexes built before this file existed have
 * none: their modules are unknown to the graph, and a premise of an unknown
 * module counts as importable (nothing is hidden or marked that could not be
 * judged).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { headerImports, type HeaderImports } from './extract/imports.js';
import type { Lang } from './extract/record.js';
import { readSidecarText } from './store/sidecar.js';

export const IMPORTS_FILE = 'imports.json';
const FORMAT = 'premise-lsp-imports';

/** Module → the modules it imports. */
export type ModuleImports = ReadonlyMap<string, readonly string[]>;

/** Collects each file's imports by module (two files of one module: their imports together). */
export class ModuleImportsBuilder {
  private readonly byModule = new Map<string, Set<string>>();

  add(module: string, imports: readonly string[]): void {
    let set = this.byModule.get(module);
    if (!set) this.byModule.set(module, (set = new Set()));
    for (const m of imports) if (m !== module) set.add(m);
  }

  done(): ModuleImports {
    const out = new Map<string, string[]>();
    for (const m of [...this.byModule.keys()].sort()) out.set(m, [...this.byModule.get(m)!].sort());
    return out;
  }
}

export function writeModuleImports(dir: string, imports: ModuleImports): void {
  const modules: Record<string, readonly string[]> = {};
  for (const m of [...imports.keys()].sort()) modules[m] = [...imports.get(m)!].sort();
  writeFileSync(join(dir, IMPORTS_FILE), JSON.stringify({ format: FORMAT, modules }) + '\n');
}

/**
 * An index directory's module imports; empty for an index without them (built before they were
 * recorded). Read only as a regular file of the size its manifest lists (./store/sidecar.ts).
 */
export function readModuleImports(dir: string): ModuleImports {
  const path = join(dir, IMPORTS_FILE);
  const text = readSidecarText(dir, IMPORTS_FILE);
  if (text === undefined) return new Map();
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new Error(`${path}: not valid JSON (${(e as Error).message}); rebuild the index`);
  }
  const modules = (data as { format?: unknown; modules?: unknown } | null)?.modules;
  if ((data as { format?: unknown })?.format !== FORMAT || typeof modules !== 'object' || modules === null || Array.isArray(modules)) {
    throw new Error(`${path}: not a premise-lsp imports file; rebuild the index`);
  }
  const out = new Map<string, string[]>();
  for (const [m, list] of Object.entries(modules)) {
    if (Array.isArray(list)) out.set(m, list.filter((x): x is string => typeof x === 'string'));
  }
  return out;
}

/** Several indexes' imports as one graph (a module in two: both lists). */
export function mergeModuleImports(parts: readonly ModuleImports[]): ModuleImports {
  if (parts.length === 1) return parts[0]!;
  const b = new ModuleImportsBuilder();
  for (const p of parts) for (const [m, list] of p) b.add(m, list);
  return b.done();
}

/** The modules reachable from `roots` through `graph` (the roots included). */
export function importClosure(graph: ModuleImports, roots: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length) {
    const m = stack.pop()!;
    if (seen.has(m)) continue;
    seen.add(m);
    for (const n of graph.get(m) ?? []) if (!seen.has(n)) stack.push(n);
  }
  return seen;
}

/** What a file can use without a new import. */
export interface ImportScope {
  /** Whether a premise of `module` is usable as the file stands: in the closure, or of a module the graph does not know. */
  importable(module: string): boolean;
  /** The modules in the closure (for tests and messages). */
  readonly closure: ReadonlySet<string>;
}

/**
 * The scope of a file that imports `imports` (Lean: `Init` too unless the file is
 * a `prelude`, as Lean does) and is module `own` (its own premises are usable;
 * its indexed imports are not followed: the open text says what it imports now).
 */
export function importScope(graph: ModuleImports, imports: readonly string[], opts: { own?: string; implicit?: readonly string[] } = {}): ImportScope {
  const closure = importClosure(graph, [...imports, ...(opts.implicit ?? [])]);
  if (opts.own) closure.add(opts.own);
  return { closure, importable: (module) => closure.has(module) || !graph.has(module) };
}

/** Lean's implicit import (none in a `prelude` file). */
export const leanImplicitImports = (prelude: boolean): string[] => (prelude ? [] : ['Init']);

/** The scope of a file with this header (its imports, Lean's implicit `Init` unless a prelude) that is module `own`. */
export function headerScope(graph: ModuleImports, lang: Lang, header: Pick<HeaderImports, 'imports' | 'prelude'>, own?: string): ImportScope {
  return importScope(graph, header.imports, { own, implicit: lang === 'lean' ? leanImplicitImports(header.prelude) : [] });
}

/** The scope of a source text, and its header (where an import goes). */
export function textScope(graph: ModuleImports, text: string, lang: Lang, own?: string): { scope: ImportScope; header: HeaderImports } {
  const header = headerImports(text, lang);
  return { scope: headerScope(graph, lang, header, own), header };
}

/** The names a scope allows, for a search's `only`: a name whose module `moduleOf` does not know (a search's own new premises) is allowed. */
export function importableNames(scope: ImportScope, moduleOf: (name: string) => string | undefined): { has(name: string): boolean } {
  return { has: (name) => scope.importable(moduleOf(name) ?? '') };
}

/** What to do with premises outside a file's import closure: rank them after the rest, leave them out, or rank them alike. */
export type ImportPolicy = 'prefer' | 'only' | 'any';
export const IMPORT_POLICIES: readonly ImportPolicy[] = ['prefer', 'only', 'any'];

/** Hits in the policy's order: `prefer` moves those outside the scope after the rest (each part keeps its order), `only` drops them, `any` keeps the order. */
export function orderByImports<T extends { module: string }>(hits: T[], scope: ImportScope | undefined, policy: ImportPolicy): T[] {
  if (!scope || policy === 'any') return hits;
  const usable = hits.filter((h) => scope.importable(h.module));
  if (policy === 'only') return usable;
  return [...usable, ...hits.filter((h) => !scope.importable(h.module))];
}
