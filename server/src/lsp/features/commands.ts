/**
 * `premise-lsp.search` (free text or the goal at uri/position → results for
 * pickers; `in`, `ns`, `kinds`, `deprecated` restrict them, `pattern` reads the text as a pattern; each with the `uri` of its source when known; with the `llm` settings, fused with the LLM's rewrites of the query) and `premise-lsp.insert` (apply an insertion through
 * `workspace/applyEdit`).
 */
import { pathToFileURL } from 'node:url';
import { ErrorCodes, RpcError } from '../../jsonrpc/messages.js';
import type { EditorChannel } from '../editor.js';
import { codePointBoundary, cursorContext } from '../text/context.js';
import { MAX_QUERY_CHARS, MAX_SCOPE_ENTRIES, type PremiseSearch, type ScopeFilter, type SearchHit } from '../../engine/types.js';
import { QueryError } from '../../engine/open.js';
import { langFor, syntaxFor, type FeatureContext } from './context.js';
import { location } from './present.js';
import { llmClientFor } from './llm.js';
import { searchWithLlm } from '../../llm/search.js';
import { fileImports, importOptions, rankByImports } from './imports.js';
import { inScope, queryAt, type Query } from './query.js';
import { isabelleInsertion, leanInsertion, separatorBefore } from './tactics.js';

const MAX_K = 200;

interface SearchArgs {
  query?: string;
  uri?: string;
  position?: { line: number; character: number };
  k?: number;
  /** The tactic whose argument is wanted (`rw`, `exact`…); unset, the slot at uri/position if any. */
  slot?: string;
  /** Module prefixes, namespaces, kinds (each a string or a list), deprecated declarations too. */
  scope?: ScopeFilter;
  /** Read the query as a pattern (true), never (false), or when written as one (unset). */
  pattern?: boolean;
}

/** A scope list argument: a name or a list of names. */
function names(a: Record<string, unknown>, key: string): string[] | undefined {
  const v = a[key];
  if (v === undefined || v === null) return undefined;
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list) || list.length > MAX_SCOPE_ENTRIES || !list.every((x) => typeof x === 'string' && x.length > 0 && x.length <= 1024)) {
    throw new RpcError(ErrorCodes.InvalidParams, `premise-lsp.search: ${key} must be a name or a list of at most ${MAX_SCOPE_ENTRIES} names`);
  }
  return list.length ? (list as string[]) : undefined;
}

function scopeOf(a: Record<string, unknown>): ScopeFilter | undefined {
  const scope: ScopeFilter = {};
  const modules = names(a, 'in');
  const namespaces = names(a, 'ns');
  const kinds = names(a, 'kinds') ?? names(a, 'kind');
  if (modules) scope.modules = modules;
  if (namespaces) scope.namespaces = namespaces;
  if (kinds) scope.kinds = kinds;
  if (a.deprecated === true) scope.deprecated = true;
  return Object.keys(scope).length ? scope : undefined;
}

function argsOf(raw: unknown): SearchArgs {
  const first = Array.isArray(raw) ? raw[0] : raw;
  if (typeof first === 'string') return { query: first };
  if (typeof first !== 'object' || first === null) throw new RpcError(ErrorCodes.InvalidParams, 'premise-lsp.search expects a query string or {query?, uri?, position?, k?, slot?}');
  const a = first as Record<string, unknown>;
  const pos = a.position as { line?: unknown; character?: unknown } | undefined;
  return {
    query: typeof a.query === 'string' ? a.query : undefined,
    uri: typeof a.uri === 'string' ? a.uri : undefined,
    position: pos && typeof pos.line === 'number' && typeof pos.character === 'number' ? { line: pos.line, character: pos.character } : undefined,
    k: typeof a.k === 'number' && a.k > 0 ? Math.min(Math.floor(a.k), MAX_K) : undefined,
    slot: typeof a.slot === 'string' ? a.slot : typeof a.tactic === 'string' ? a.tactic : undefined,
    scope: scopeOf(a),
    pattern: typeof a.pattern === 'boolean' ? a.pattern : undefined,
  };
}

/**
 * Where the editor opens a hit: the open document that declares it (live index),
 * else its file under its index's source roots; nothing when neither is known.
 */
function uriOf(ctx: FeatureContext, engine: PremiseSearch, h: SearchHit): { uri?: string } {
  const doc = ctx.live.documentOf(h.name);
  if (doc) return { uri: doc };
  const path = engine.sourcePath(h);
  return path ? { uri: pathToFileURL(path).href } : {};
}

export async function searchCommand(ctx: FeatureContext, rawArgs: unknown) {
  const a = argsOf(rawArgs);
  const engine = await ctx.engines.get();
  if (!engine) throw new RpcError(ErrorCodes.RequestFailed, `premise index not available${ctx.engines.error ? `: ${ctx.engines.error}` : ''}`);
  let query: Query | undefined;
  let slot = a.slot;
  if (a.query && a.query.trim()) query = { text: a.query.slice(0, MAX_QUERY_CHARS), source: 'text' };
  else if (a.uri && a.position) {
    if (!ctx.docs.get(a.uri)) throw new RpcError(ErrorCodes.InvalidParams, `unknown document ${a.uri} (not open in the editor)`);
    query = await queryAt(ctx, a.uri, a.position, ctx.config().goalTimeoutMs);
    const doc = ctx.docs.get(a.uri)!;
    slot ??= cursorContext(doc.getText(), doc.offsetAt(a.position), syntaxFor(ctx, a.uri)).slot?.tactic;
  } else throw new RpcError(ErrorCodes.InvalidParams, 'premise-lsp.search needs a query or a uri and position');
  if (!query) return { query: '', source: 'none', results: [] };
  const cfg = ctx.config();
  // with the document known, its imports say what it can use (ranked by the `imports` setting)
  const searched = a.uri ? ctx.docs.get(a.uri) : undefined;
  const fi = searched ? fileImports(ctx, a.uri) : undefined;
  // an import edit must come before the place the picked name goes
  const before = searched && a.position ? searched.offsetAt(a.position) : undefined;
  const importOf = (h: SearchHit) => {
    const module = fi?.needs(h);
    if (!module) return {};
    const edit = fi!.edit(module, before);
    return { needsImport: fi!.label(module), ...(edit ? { importEdit: edit } : {}) };
  };
  // a pattern search that ran out of its time budget: the answer says so
  let partial: string | undefined;
  const onPartial = (why: string) => (partial = why);
  const opts = { k: a.k ?? cfg.k, mode: cfg.mode, rerank: cfg.rerank, lang: langFor(ctx, a.uri), slot, ...inScope(query), ...importOptions(engine, fi), scope: a.scope, pattern: a.pattern ?? (query.source === 'text' ? undefined : false), onPartial };
  const llm = llmClientFor(cfg.llm);
  let found: { hits: SearchHit[]; augmentation?: unknown };
  try {
    found = llm
      ? await searchWithLlm(engine, llm, query.text, opts, (line) => ctx.log.warn(line))
      : { hits: await engine.search(query.text, opts), augmentation: undefined };
  } catch (e) {
    if (e instanceof QueryError) throw new RpcError(ErrorCodes.InvalidParams, `premise-lsp.search: ${e.message}`);
    throw e;
  }
  const { augmentation } = found;
  const hits = rankByImports(found.hits, fi);
  return {
    query: query.text,
    ...(augmentation ? { llm: augmentation } : {}),
    ...(partial ? { partial } : {}),
    source: query.goalSource ? `${query.source}:${query.goalSource}` : query.source,
    results: hits.map((h, i) => ({
      name: h.name,
      rank: i + 1,
      score: h.score,
      kind: h.kind,
      statement: h.statement,
      doc: h.doc,
      module: h.module,
      file: h.file,
      range: h.range,
      location: location(h),
      ...uriOf(ctx, engine, h),
      ...importOf(h),
    })),
  };
}

/** `{uri, position, name}` → the fitting insertion, applied by the editor. */
export async function insertCommand(ctx: FeatureContext, editor: EditorChannel, rawArgs: unknown) {
  const first = (Array.isArray(rawArgs) ? rawArgs[0] : rawArgs) as { uri?: unknown; position?: { line?: unknown; character?: unknown }; name?: unknown; text?: unknown } | undefined;
  const doc = ctx.docs.get(first?.uri);
  const pos = first?.position;
  if (!doc || typeof pos?.line !== 'number' || typeof pos.character !== 'number') {
    throw new RpcError(ErrorCodes.InvalidParams, 'premise-lsp.insert expects {uri, position, name} for an open document');
  }
  const text = doc.getText();
  const offset = codePointBoundary(text, doc.offsetAt({ line: pos.line, character: pos.character }));
  const { slot } = cursorContext(text, offset, syntaxFor(ctx, doc.uri));
  let insertion: string;
  // the premise picked (by name; a `text` insertion names one too when it is given)
  const info = typeof first!.name === 'string' ? (await ctx.engines.get())?.lookup(first!.name) : undefined;
  if (typeof first!.text === 'string') insertion = first!.text;
  else if (typeof first!.name === 'string') {
    if (!info) insertion = first!.name;
    else insertion = syntaxFor(ctx, doc.uri) === 'isabelle' ? isabelleInsertion(info, slot).text : leanInsertion(info, slot, undefined).text;
  } else throw new RpcError(ErrorCodes.InvalidParams, 'premise-lsp.insert needs a name or a text');
  const newText = separatorBefore(text.slice(0, offset), slot) + insertion;
  const at = doc.positionAt(offset);
  // a premise of a module the document does not import brings its import along, in the same edit
  const fi = info ? fileImports(ctx, doc.uri) : undefined;
  const needs = info && fi?.needs(info);
  const importEdit = needs ? fi!.edit(needs, offset) : undefined;
  const edits = [...(importEdit ? [importEdit] : []), { range: { start: at, end: at }, newText }];
  const edit = { documentChanges: [{ textDocument: { uri: doc.uri, version: doc.version }, edits }] };
  const r = await editor.request<{ applied?: boolean; failureReason?: string }>('workspace/applyEdit', { label: `Insert ${insertion}`, edit });
  return { applied: Boolean(r?.applied), text: newText, failureReason: r?.failureReason, ...(importEdit ? { import: fi!.label(needs!) } : {}) };
}
