/**
 * The HTTP contract of LeanHammer's cloud premise selector
 * (hanwenzhu/premise-selection, `PremiseSelection/Cloud.lean`), answered from
 * the local index, so that `set_option premiseSelection.apiBaseUrl
 * "http://127.0.0.1:PORT"` points LeanHammer's `hammer` and `premises` at
 * premise-lsp:
 *   GET  /indexed-premises  → [name]   (a premise's index is its position here)
 *   GET  /indexed-modules   → [module]
 *   GET  /max-new-premises  → number
 *   POST /retrieve {state, local_premises?: [index | name], new_premises?: [{name, decl}], k?,
 *                   imported_modules?, caller_in_module_system?, imported_all_modules?, slot?|tactic?, llm?,
 *                   in?: [module prefix], ns?: [namespace], kinds?: [kind], deprecated?, pattern?} → [{name, score}]
 * LeanHammer's client sends every field of its own on every call (docs/http-api.md has its
 * body); every list is read as its reference server (hanwenzhu/lean-premise-server
 * `app/retrieve.py`) reads it: positions past the list and unknown names are ignored, and
 * `k` above MAX_K is answered with MAX_K (test/cli/http.test.ts sends the client's body).
 * `local_premises` (when given) limits the answer to those indexed premises plus
 * the new ones; `imported_modules` (names or positions in /indexed-modules; when
 * a non-empty list, and `imported_all_modules` is not the older `true`) to premises of those
 * modules and of what they import, through the index's recorded module imports
 * (a premise of a module the index has no imports for, as in an index built
 * before they were recorded, is kept; so are the new ones); with both, a premise
 * either allows is kept (two scopes, as LeanHammer's server reads them);
 * `caller_in_module_system: true` also leaves out the definitions whose bodies their
 * module-system file hides, unless their module is in `imported_all_modules` (`visible`);
 * `slot` (or `tactic`, premise-lsp's own addition) names the tactic
 * whose argument is wanted (`rw`, `simp`, `exact`, `apply`…); `in`, `ns`, `kinds`
 * and `deprecated` restrict the answer (scope filters, also as `in:`… terms in
 * `state`), `pattern: true` reads `state` as a Loogle-style pattern (recognised
 * without it when written as one); lean-lsp-mcp sends
 * only `{state, new_premises, k}`. A request's new premises are searched with the
 * index for that request only (the engine's `extra`), never stored, so callers
 * never see each other's. A server started with `--llm` fuses in the LLM's
 * rewrites of the state (../llm/search.ts) unless the request says `llm: false`.
 * Transport-free:
 * `server.ts` puts it on node:http.
 */
import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import type { PremiseRecord } from '../../../indexes/src/extract/record.js';
import { isPatternQuery, QueryError, slotChoices, slotOf, withNotation } from '../engine/open.js';
import { MAX_SCOPE_ENTRIES, type Mode, type PremiseSearch, type ScopeFilter } from '../engine/types.js';
import { newPremiseRecord } from './new-premises.js';
import { importableNames, importScope } from '../../../indexes/src/module-imports.js';
import type { LlmClient } from '../llm/client.js';
import { searchWithLlm } from '../llm/search.js';
import { RouteTable, jsonError as error, type ApiResponse, type Lane, type RouteSet } from './routes.js';

export type { ApiResponse };

/**
 * The header of an answer whose pattern search ran out of its time budget: its
 * value says why. The body keeps LeanHammer's shape (a list), with the matches
 * found by then first.
 */
export const PARTIAL_HEADER = 'x-premise-partial';

export interface LeanHammerOptions {
  /** Most new premises one request may carry (`GET /max-new-premises`). */
  maxNewPremises: number;
  /** Rerank answers (default: the engine's default). */
  rerank?: boolean;
  mode?: Mode;
  /** Query augmentation by this LLM (off without one). */
  llm?: LlmClient;
  /** Where the one-line notes of LLM fallbacks go (default stderr). */
  log?: (line: string) => void;
}

/** Premises per answer when the request does not say (LeanHammer's own default). */
const DEFAULT_K = 32;
const MAX_K = 1000;
/**
 * Longest `decl` (docstring and signature) one new premise may have, in characters.
 * Mathlib + Batteries' longest declaration as LeanHammer sends it (docstring and
 * signature) is 2,640 characters (`Lean.Meta.mkRichHCongr`), the longest signature
 * 1,460; 32 Ki leaves room for printed signatures 20 times longer. Reading a
 * declaration costs about 1 µs per character, so one 15 MB `decl` (within the body
 * limit) held the event loop, and every other caller, for 9 s or more.
 */
export const MAX_DECL_CHARS = 32 * 1024;
/**
 * Most `decl` characters all of one request's new premises may have together. The
 * 2,048 longest Mathlib + Batteries declarations (LeanHammer's most new premises per
 * request) come to 1.45 M characters; 4 Mi leaves room for printed signatures 2.9
 * times longer. Reading them into the request's own index runs partly in one piece
 * (about 0.1 s per Mi characters), so this bounds how long a request can keep other
 * callers waiting (16 Mi characters of them, within a 16 MiB body limit: 1.8 s).
 */
export const MAX_NEW_PREMISE_CHARS = 4 * 1024 * 1024;
/**
 * Most characters of a request's `state`. A printed Lean goal is rarely over a few
 * thousand characters (Mathlib's longest declaration, docstring and signature, has 2,640);
 * 256 Ki leaves a hundredfold room. Reading a query costs about 0.1 µs per character
 * in one piece, so a 15 MB state held every other caller for 1.3 s.
 */
export const MAX_STATE_CHARS = 256 * 1024;
/** Most characters of a new premise's `name` (Mathlib's longest name has about 100). */
export const MAX_NAME_CHARS = 1024;
/** Work on new premises gives other callers a turn after this long (ms). */
const SLICE_MS = 20;
/** Bound of the cache of new premises read into records (by name and decl; about 3 bytes per character). */
const RECORD_CACHE_BYTES = 16 * 1024 * 1024;

class BadRequest extends Error {}

function field<T>(body: Record<string, unknown>, key: string, check: (v: unknown) => v is T, what: string): T | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (!check(v)) throw new BadRequest(`${key} must be ${what}`);
  return v;
}

/** A scope list (`in`, `ns`, `kinds`): at most MAX_SCOPE_ENTRIES names (the engine's bound, types.ts) of at most MAX_NAME_CHARS each. */
const isNameList = (v: unknown): v is string[] =>
  Array.isArray(v) && v.length <= MAX_SCOPE_ENTRIES && v.every((x) => typeof x === 'string' && x.length > 0 && x.length <= MAX_NAME_CHARS);

/** The request's scope filter fields, checked. */
function scopeOf(b: Record<string, unknown>): ScopeFilter | undefined {
  const what = `a list of at most ${MAX_SCOPE_ENTRIES} non-empty names`;
  const scope: ScopeFilter = {};
  const modules = field(b, 'in', isNameList, what);
  const namespaces = field(b, 'ns', isNameList, what);
  const kinds = field(b, 'kinds', isNameList, what);
  const deprecated = field(b, 'deprecated', (v): v is boolean => typeof v === 'boolean', 'true or false');
  if (modules?.length) scope.modules = modules;
  if (namespaces?.length) scope.namespaces = namespaces;
  if (kinds?.length) scope.kinds = kinds;
  if (deprecated) scope.deprecated = true;
  return Object.keys(scope).length ? scope : undefined;
}

/** `local_premises`: positions in /indexed-premises or names (LeanHammer's server takes either); what names nothing is ignored. */
const isIndexList = (v: unknown): v is (number | string)[] => Array.isArray(v) && v.every((x) => Number.isInteger(x) || typeof x === 'string');
/**
 * Most entries of `local_premises`: 4 times the index's premises (at least 65,536). A
 * client relays at most each indexed premise once by position, but a list of names may
 * hold constants the index does not have (ignored, as LeanHammer's server ignores them:
 * an environment holds auxiliary and generated constants no index keeps).
 */
const maxLocalPremises = (indexSize: number) => Math.max(65_536, 4 * indexSize);
/** Most indices the allowed set of `local_premises` takes in one turn before giving other callers theirs. */
const SET_SLICE = 64 * 1024;
const isPremiseList = (v: unknown): v is { name: string; decl: string }[] =>
  Array.isArray(v) && v.every((x) => x && typeof x === 'object' && typeof x.name === 'string' && x.name && typeof x.decl === 'string');
/** Most entries of `imported_modules` (Mathlib has about 8,000 modules). */
const MAX_MODULES = 100_000;
const isModuleList = (v: unknown): v is (string | number)[] =>
  Array.isArray(v) && v.length <= MAX_MODULES && v.every((x) => typeof x === 'string' || Number.isInteger(x));
/** `k`: at least 1; more than MAX_K is answered with MAX_K (LeanHammer's server takes up to 1,024). */
const isK = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 1;
const isBool = (v: unknown): v is boolean => typeof v === 'boolean';
/** `imported_all_modules`: LeanHammer's list of modules imported with `import all`, or premise-lsp's older `true`/`false`. */
const isAllModules = (v: unknown): v is boolean | (string | number)[] => isBool(v) || isModuleList(v);

export class LeanHammerApi implements RouteSet {
  /** Records of new premises by name and decl: a pure function of both, so shared safely between callers. */
  private readonly records = new LRUCache<string, PremiseRecord>({ maxSize: RECORD_CACHE_BYTES, sizeCalculation: (_, key) => 3 * key.length + 256 });
  /** The allowed set of the last `local_premises` (LeanHammer sends the same list every time). */
  private allowed?: { key: string; names: Set<string> };

  constructor(
    private readonly engine: PremiseSearch,
    private readonly opts: LeanHammerOptions,
  ) {}

  /** LeanHammer's routes, for the server's route table (routes.ts). */
  readonly routes: RouteSet['routes'] = {
    '/indexed-premises': { GET: () => ({ status: 200, body: this.engine.indexedNames() }) },
    '/indexed-modules': { GET: () => ({ status: 200, body: this.engine.indexedModules() }) },
    '/max-new-premises': { GET: () => ({ status: 200, body: this.opts.maxNewPremises }) },
    '/retrieve': {
      POST: async ({ body }) => {
        try {
          const r = await this.retrieve(body);
          return { status: 200, body: r.hits, ...(r.partial ? { headers: { [PARTIAL_HEADER]: r.partial } } : {}) };
        } catch (e) {
          if (e instanceof BadRequest) return error(400, e.message);
          throw e;
        }
      },
    },
  };

  /** These routes alone, as a table (tests; the server puts every contract in one table). */
  handle(method: string, path: string, body: string): Promise<ApiResponse> {
    return new RouteTable([this]).handle(method, path, body);
  }

  /**
   * How a `/retrieve` waits (routes.ts `Lane`): a pattern search (`pattern: true`, or a
   * `state` written as one) in the pattern lane, so that waiting pattern searches never
   * hold the places of other requests; any other as a prover's, ahead of the search
   * clients. Bodies over MAX_STATE_CHARS + 64 Ki (those with new premises) are not read
   * for this.
   */
  lane(method: string, path: string, body: string): Lane {
    if (method !== 'POST' || path !== '/retrieve') return 'normal';
    if (body.length > MAX_STATE_CHARS + 65_536) return 'prover';
    try {
      const b = JSON.parse(body) as Record<string, unknown>;
      if (!b || typeof b !== 'object' || typeof b.state !== 'string' || b.pattern === false) return 'prover';
      return b.pattern === true || isPatternQuery(withNotation(b.state)) ? 'pattern' : 'prover';
    } catch {
      return 'prover';
    }
  }

  private async retrieve(raw: string): Promise<{ hits: { name: string; score: number }[]; partial?: string }> {
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch (e) {
      throw new BadRequest(`the body is not JSON (${(e as Error).message})`);
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new BadRequest('the body must be a JSON object');
    const b = body as Record<string, unknown>;
    const state = field(b, 'state', (v): v is string => typeof v === 'string' && v.trim().length > 0, 'a non-empty string');
    if (state === undefined) throw new BadRequest('state is required (the goal, as Lean prints it)');
    if (state.length > MAX_STATE_CHARS) throw new BadRequest(`state has ${state.length} characters, more than the ${MAX_STATE_CHARS} allowed`);
    const k = Math.min(MAX_K, field(b, 'k', isK, `a positive integer (at most ${MAX_K} are answered)`) ?? DEFAULT_K);
    // bounded by the index's size (maxLocalPremises) before any entry is looked at: a list of millions (within the body
    // limit) would otherwise be checked and turned into names in one long synchronous step
    const localRaw = b.local_premises;
    const maxLocal = maxLocalPremises(this.engine.indexedNames().length);
    if (Array.isArray(localRaw) && localRaw.length > maxLocal) {
      const size = this.engine.indexedNames().length;
      throw new BadRequest(`local_premises has ${localRaw.length} entries, more than the ${maxLocal} allowed (4 times the index's ${size} premises, /indexed-premises)`);
    }
    const local = field(b, 'local_premises', isIndexList, 'a list of premise indices (positions in /indexed-premises) or names');
    const fresh = field(b, 'new_premises', isPremiseList, 'a list of {name, decl}') ?? [];
    if (fresh.length > this.opts.maxNewPremises) {
      throw new BadRequest(`new_premises has ${fresh.length} entries, more than /max-new-premises (${this.opts.maxNewPremises})`);
    }
    const longName = fresh.findIndex((p) => p.name.length > MAX_NAME_CHARS);
    if (longName >= 0) {
      throw new BadRequest(`new_premises[${longName}] has a name of ${fresh[longName]!.name.length} characters, more than the ${MAX_NAME_CHARS} allowed`);
    }
    const long = fresh.findIndex((p) => p.decl.length > MAX_DECL_CHARS);
    if (long >= 0) {
      const name = fresh[long]!.name;
      throw new BadRequest(
        `new_premises[${long}] (${JSON.stringify(name.length > 80 ? name.slice(0, 80) + '…' : name)}) has a decl of ${fresh[long]!.decl.length} characters, ` +
          `more than the ${MAX_DECL_CHARS} allowed per declaration`,
      );
    }
    const total = fresh.reduce((n, p) => n + p.decl.length, 0);
    if (total > MAX_NEW_PREMISE_CHARS) {
      throw new BadRequest(`new_premises' decls have ${total} characters in all, more than the ${MAX_NEW_PREMISE_CHARS} allowed per request`);
    }
    const isTactic = (v: unknown): v is string => typeof v === 'string' && v.length <= 40;
    const slotKey = b.slot !== undefined && b.slot !== null ? 'slot' : 'tactic';
    const slot = field(b, slotKey, isTactic, 'a tactic name such as "rw"');
    // the list the CLI's --slot checks against (engine/slot.ts): an unknown tactic would rank as if none were given
    if (slot !== undefined && !slotOf(slot)) throw new BadRequest(`${slotKey} ${JSON.stringify(slot)} is not a tactic with a premise slot; one of: ${slotChoices()}`);
    const moduleList = `a list of at most ${MAX_MODULES} module names or indices (positions in /indexed-modules)`;
    const importedList = this.moduleNames(field(b, 'imported_modules', isModuleList, moduleList));
    const importedAll = field(b, 'imported_all_modules', isAllModules, `${moduleList}, or true or false`);
    const inModuleSystem = field(b, 'caller_in_module_system', isBool, 'true or false') ?? false;
    // the new premises are the caller's own: never left out
    const freshNames = new Set(fresh.map((p) => p.name));
    const byImports =
      importedList?.length && importedAll !== true
        ? importableNames(importScope(this.engine.moduleImports(), importedList), (name) => (freshNames.has(name) ? undefined : this.engine.lookup(name)?.module))
        : undefined;
    const byLocal = local ? await this.allowedSet(local, fresh) : undefined;
    // two scopes, as LeanHammer's own server reads them: what the imported modules declare, and the local premises
    const scoped = byLocal && byImports ? { has: (name: string) => byLocal.has(name) || byImports.has(name) } : (byLocal ?? byImports);
    // a caller in the module system sees a definition of a module-system file only when its body is
    // exposed, or when it imports that module with `import all` (LeanHammer's server reads the list then only)
    const only = inModuleSystem ? this.visible(scoped, new Set(this.moduleNames(Array.isArray(importedAll) ? importedAll : [])), freshNames) : scoped;
    const extra = await this.readRecords(fresh);
    const useLlm = field(b, 'llm', (v): v is boolean => typeof v === 'boolean', 'true or false') ?? true;
    const scope = scopeOf(b);
    const pattern = field(b, 'pattern', (v): v is boolean => typeof v === 'boolean', 'true or false');
    let partial: string | undefined;
    const onPartial = (why: string) => (partial = why);
    const opts = { k, lang: 'lean', only, extra, rerank: this.opts.rerank, mode: this.opts.mode, slot, scope, pattern, onPartial } as const;
    const query = withNotation(state);
    try {
      const hits =
        this.opts.llm && useLlm
          ? (await searchWithLlm(this.engine, this.opts.llm, query, opts, this.opts.log)).hits
          : await this.engine.search(query, opts);
      return { hits: hits.map((h) => ({ name: h.name, score: h.score })), ...(partial ? { partial } : {}) };
    } catch (e) {
      if (e instanceof QueryError) throw new BadRequest(e.message);
      throw e;
    }
  }

  /**
   * A module list as names: an entry may be a name (`Mathlib.Order.Basic`, or as a path,
   * `Mathlib/Order/Basic.lean`) or a position in /indexed-modules (LeanHammer sends either).
   * A position outside the list is ignored, as LeanHammer's server ignores it (an unknown
   * name matches no module).
   */
  private moduleNames(list: (string | number)[]): string[];
  private moduleNames(list: (string | number)[] | undefined): string[] | undefined;
  private moduleNames(list: (string | number)[] | undefined): string[] | undefined {
    if (!list) return undefined;
    const modules = list.some((x) => typeof x === 'number') ? this.engine.indexedModules() : [];
    const out: string[] = [];
    for (const x of list) {
      if (typeof x === 'string') out.push(x.replace(/\.lean$/, '').split('/').join('.'));
      else if (x >= 0 && x < modules.length) out.push(modules[x]!);
    }
    return out;
  }

  /**
   * LeanHammer's module-system visibility, for a caller inside the module system: every
   * premise `scoped` allows (all, without a scope) except a definition whose body its
   * module-system file does not expose (`unexposed`, recorded by the extractor) and whose
   * module the caller does not import with `import all`. Theorems, premises of files
   * outside the module system and the caller's new premises are always visible.
   */
  private visible(scoped: { has(name: string): boolean } | undefined, importAll: ReadonlySet<string>, fresh: ReadonlySet<string>): { has(name: string): boolean } {
    return {
      has: (name) => {
        if (scoped && !scoped.has(name)) return false;
        if (fresh.has(name)) return true;
        const p = this.engine.lookup(name);
        return !p?.unexposed || importAll.has(p.module);
      },
    };
  }

  /** The new premises as records, read in slices that give other callers a turn. */
  private async readRecords(fresh: { name: string; decl: string }[]): Promise<PremiseRecord[]> {
    const out: PremiseRecord[] = [];
    let since = Date.now();
    for (const p of fresh) {
      out.push(this.record(p.name, p.decl));
      if (Date.now() - since >= SLICE_MS) {
        await nextTurn();
        since = Date.now();
      }
    }
    return out;
  }

  private record(name: string, decl: string): PremiseRecord {
    const key = `${name}\u0000${decl}`;
    let r = this.records.get(key);
    if (!r) this.records.set(key, (r = newPremiseRecord(name, decl)));
    return r;
  }

  /** The names `local_premises` allows (at most the index's size of them), built in slices that give other callers a turn. */
  private async allowedSet(local: (number | string)[], fresh: { name: string }[]): Promise<{ has(name: string): boolean }> {
    const names = this.engine.indexedNames();
    // a position outside /indexed-premises and a name the index does not have are ignored, as
    // LeanHammer's server ignores them (the client's list is of what it imports, indexed or not)
    const numeric = local.every((x) => typeof x === 'number');
    const key = createHash('sha1')
      .update(numeric ? 'n' : 'j')
      .update(numeric ? new Uint8Array(Float64Array.from(local as number[]).buffer) : JSON.stringify(local))
      .digest('hex');
    let indexed = this.allowed?.key === key ? this.allowed.names : undefined;
    if (!indexed) {
      indexed = new Set<string>();
      for (let at = 0; at < local.length; at += SET_SLICE) {
        if (at) await nextTurn();
        const end = Math.min(local.length, at + SET_SLICE);
        for (let i = at; i < end; i++) {
          const x = local[i]!;
          if (typeof x === 'string') indexed.add(x);
          else if (x >= 0 && x < names.length) indexed.add(names[x]!);
        }
      }
      this.allowed = { key, names: indexed };
    }
    const allowed = indexed;
    const added = new Set(fresh.map((p) => p.name));
    return { has: (name) => allowed.has(name) || added.has(name) };
  }
}
