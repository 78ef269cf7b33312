/**
 * What an open document can use: its header's imports (Lean `import` lines,
 * Isabelle `imports`) closed over the loaded indexes' module imports. A premise
 * outside that closure needs an import: it is marked, ranked by the `imports`
 * setting (`prefer`: after the usable ones; `only`: left out; `any`: as found),
 * and picking it adds the import in the same edit, after the other imports.
 * The edit comes from `headerImports(…).add` alone, which writes only names
 * `module-names.ts` accepts and never inside a comment; a feature says it adds
 * an import only when it carries that edit.
 */
import { fileURLToPath } from 'node:url';
import type { TextEdit } from 'vscode-languageserver';
import { sourceOf } from '../../../../indexes/src/extract/walk.js';
import { LRUCache } from 'lru-cache';
import { headerImports, type HeaderImports } from '../../../../indexes/src/extract/imports.js';
import { importSyntax } from '../../../../indexes/src/extract/module-names.js';
import type { Lang } from '../../../../indexes/src/extract/record.js';
import { headerScope, importableNames, orderByImports, type ImportPolicy, type ImportScope } from '../../../../indexes/src/module-imports.js';
import type { ModuleImports, PremiseInfo, PremiseSearch, SearchOptions } from '../../engine/types.js';
import { docLanguage, langFor, type FeatureContext } from './context.js';

export interface FileImports {
  readonly policy: ImportPolicy;
  readonly scope: ImportScope;
  /** The module to import for a premise the document cannot use as it stands; undefined when it can. */
  needs(p: Pick<PremiseInfo, 'module'>): string | undefined;
  /**
   * The edit that imports `module`, placed with the other imports; none where the
   * header has no place for it, or where that place is not before `before` (an offset:
   * the edit it goes with must come later in the text, not overlap it).
   */
  edit(module: string, before?: number): TextEdit | undefined;
  /** How to show a needed module: as the import writes it, or quoted as data when it cannot be imported (`module-names.ts`). */
  label(module: string): string;
}

const MAX_CACHED = 64;
/** Per document: its scope at one version (an edit gives a new version, most keep the imports). */
const byDoc = new LRUCache<string, { version: number; graph: ModuleImports; value: FileImports }>({ max: MAX_CACHED });
/** Scopes by what decides them (graph, language, own module, header imports): typing in a proof keeps them. */
const scopes = new LRUCache<string, { graph: ModuleImports; scope: ImportScope }>({ max: MAX_CACHED });
/** Each document's own module (finding its package root looks at the disk). */
const owners = new LRUCache<string, { own: string | undefined }>({ max: 4 * MAX_CACHED });

/** The module an open document is, as the index would name it (none for an unsaved buffer). */
function ownModule(uri: string): string | undefined {
  let hit = owners.get(uri);
  if (!hit) {
    let own: string | undefined;
    try {
      own = uri.startsWith('file:') ? sourceOf(fileURLToPath(uri))?.module : undefined;
    } catch {
      own = undefined;
    }
    owners.set(uri, (hit = { own }));
  }
  return hit.own;
}

function scopeOf(graph: ModuleImports, lang: Lang, own: string | undefined, header: HeaderImports): ImportScope {
  const key = JSON.stringify([lang, own ?? null, header.prelude, header.imports]);
  const hit = scopes.get(key);
  if (hit && hit.graph === graph) return hit.scope;
  const scope = headerScope(graph, lang, header, own);
  scopes.set(key, { graph, scope });
  return scope;
}

/**
 * The import scope of an open document, from its current text (cached per version and index);
 * undefined without a document, an engine or a language, and for a document written in another
 * language than the premises searched (a `.thy` file served under `--lean`: no import of one
 * prover's module can be written in the other's file).
 */
export function fileImports(ctx: FeatureContext, uri: string | undefined): FileImports | undefined {
  if (!uri) return undefined;
  const doc = ctx.docs.get(uri);
  const engine = ctx.engines.now();
  const lang = langFor(ctx, uri);
  if (!doc || !engine || !lang || docLanguage(ctx, uri) !== lang) return undefined;
  const policy = ctx.config().imports;
  const graph = engine.moduleImports();
  const hit = byDoc.get(uri);
  if (hit && hit.version === doc.version && hit.graph === graph && hit.value.policy === policy) return hit.value;
  const header = headerImports(doc.getText(), lang);
  const scope = scopeOf(graph, lang, ownModule(uri), header);
  const value: FileImports = {
    policy,
    scope,
    needs: (p) => (scope.importable(p.module) ? undefined : p.module),
    edit: (module, before) => {
      const ins = header.add(module);
      if (!ins || (before !== undefined && ins.offset >= before)) return undefined;
      const at = doc.positionAt(ins.offset);
      return { range: { start: at, end: at }, newText: ins.text };
    },
    label: (module) => importSyntax(module, lang) ?? `${JSON.stringify(module)} (not importable: not a valid ${lang === 'lean' ? 'module' : 'theory'} name)`,
  };
  byDoc.set(uri, { version: doc.version, graph, value });
  return value;
}

/** Search options for the policy: `only` lets the engine return importable premises alone. */
export function importOptions(engine: PremiseSearch, fi: FileImports | undefined): Pick<SearchOptions, 'only'> {
  // an index without recorded imports hides nothing: no filter, and the search stays cacheable
  if (!fi || fi.policy !== 'only' || engine.moduleImports().size === 0) return {};
  return { only: importableNames(fi.scope, (name) => engine.lookup(name)?.module) };
}

/** Hits in the setting's order (`orderByImports`). */
export function rankByImports<T extends Pick<PremiseInfo, 'module'>>(hits: T[], fi: FileImports | undefined): T[] {
  return orderByImports(hits, fi?.scope, fi?.policy ?? 'any');
}
