/**
 * What an open document can use: its header's imports (Lean `import` lines,
 * Isabelle `imports`) closed over the loaded indexes' module imports. A premise
 * outside that closure needs an import: it is marked, ranked by the `imports`
 * setting (`prefer`: after the usable ones; `only`: left out; `any`: as found),
 * and picking it adds the import in the same edit, after the other imports.
 */
import { fileURLToPath } from 'node:url';
import type { TextEdit } from 'vscode-languageserver';
import { sourceOf } from '../../../../indexes/src/extract/walk.js';
import { importableNames, orderByImports, textScope, type ImportPolicy, type ImportScope } from '../../../../indexes/src/module-imports.js';
import type { ModuleImports, PremiseInfo, PremiseSearch, SearchOptions } from '../../engine/types.js';
import { langFor, type FeatureContext } from './context.js';

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
}

const cache = new Map<string, { version: number; graph: ModuleImports; value: FileImports }>();
const MAX_CACHED = 64;

/** The module an open document is, as the index would name it (none for an unsaved buffer). */
function ownModule(uri: string): string | undefined {
  try {
    return uri.startsWith('file:') ? sourceOf(fileURLToPath(uri))?.module : undefined;
  } catch {
    return undefined;
  }
}

/** The import scope of an open document, from its current text (cached per version and index); undefined without a document, an engine or a language. */
export function fileImports(ctx: FeatureContext, uri: string | undefined): FileImports | undefined {
  if (!uri) return undefined;
  const doc = ctx.docs.get(uri);
  const engine = ctx.engines.now();
  const lang = langFor(ctx, uri);
  if (!doc || !engine || !lang) return undefined;
  const policy = ctx.config().imports;
  const graph = engine.moduleImports();
  const hit = cache.get(uri);
  if (hit && hit.version === doc.version && hit.graph === graph && hit.value.policy === policy) return hit.value;
  const { scope, header } = textScope(graph, doc.getText(), lang, ownModule(uri));
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
  };
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
  cache.delete(uri);
  cache.set(uri, { version: doc.version, graph, value });
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
