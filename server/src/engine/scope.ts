/**
 * Scope filters: a search restricted to module prefixes (`in:Mathlib.Topology`),
 * namespace prefixes (`ns:Finset`) and declaration kinds (`kind:theorem`), with
 * deprecated declarations left out unless asked (`deprecated:yes`). Written in the
 * query text or given as `SearchOptions.scope`; both are merged. A segment's
 * filter is a mask over its premise ids (`ScopeMasks`), built from one scan of its
 * records on the first scoped search, so the retrievers skip what is out of
 * scope before they keep their best (k results come back when k match).
 */
import { LRUCache } from 'lru-cache';
import { MAX_SCOPE_ENTRIES, type ScopeFilter } from './types.js';
import { QueryError } from './query-error.js';

/** `kind:theorem` also takes Lean's `lemma` (Mathlib's `lemma` is a theorem). */
const KIND_ALIASES: Readonly<Record<string, readonly string[]>> = { theorem: ['theorem', 'lemma'] };

const TERM = /(^|\s)(in|ns|kind|deprecated):(\S+)(?=\s|$)/g;
const YES = new Set(['yes', 'true', 'on', '1']);
const NO = new Set(['no', 'false', 'off', '0']);

/** The query text without its `in:`/`ns:`/`kind:`/`deprecated:` terms, and the filter they say. */
export function readScopeTerms(text: string): { text: string; scope: ScopeFilter } {
  const scope: ScopeFilter = {};
  const rest = text.replace(TERM, (all, lead: string, key: string, value: string) => {
    const values = value.split(',').filter(Boolean);
    if (key === 'in') (scope.modules ??= []).push(...values);
    else if (key === 'ns') (scope.namespaces ??= []).push(...values);
    else if (key === 'kind') (scope.kinds ??= []).push(...values);
    else if (YES.has(value.toLowerCase())) scope.deprecated = true;
    else if (NO.has(value.toLowerCase())) scope.deprecated = false;
    else return all;
    return lead;
  });
  return { text: rest.trim() === text.trim() ? text : rest.trim(), scope };
}

/** Both filters at once: lists joined (any prefix of either), deprecated allowed if either allows it. */
export function mergeScope(a: ScopeFilter | undefined, b: ScopeFilter | undefined): ScopeFilter {
  const join = (x?: readonly string[], y?: readonly string[]) => (x?.length || y?.length ? [...(x ?? []), ...(y ?? [])] : undefined);
  const out: ScopeFilter = {};
  const modules = join(a?.modules, b?.modules);
  const namespaces = join(a?.namespaces, b?.namespaces);
  const kinds = join(a?.kinds, b?.kinds);
  if (modules) out.modules = modules;
  if (namespaces) out.namespaces = namespaces;
  if (kinds) out.kinds = kinds;
  if (a?.deprecated || b?.deprecated) out.deprecated = true;
  return out;
}

/**
 * Throws a QueryError when a list of the filter has more than MAX_SCOPE_ENTRIES
 * entries: the bound holds for the merged filter, whether the entries came from
 * the options, from terms in the query text, or both.
 */
export function checkScopeSize(s: ScopeFilter): void {
  const lists: [string, readonly string[] | undefined][] = [
    ['modules (in:)', s.modules],
    ['namespaces (ns:)', s.namespaces],
    ['kinds (kind:)', s.kinds],
  ];
  for (const [what, list] of lists) {
    if (list && list.length > MAX_SCOPE_ENTRIES) {
      throw new QueryError(`the search names ${list.length} ${what}, more than the ${MAX_SCOPE_ENTRIES} allowed (terms in the query and the scope options together)`);
    }
  }
}

/** Whether the filter restricts by module, namespace or kind (deprecated premises are left out of every search). */
export const restricts = (s: ScopeFilter) => !!(s.modules?.length || s.namespaces?.length || s.kinds?.length);

/** A stable key of a filter (result cache, mask cache). */
export const scopeKey = (s: ScopeFilter) =>
  JSON.stringify([[...(s.modules ?? [])].sort(), [...(s.namespaces ?? [])].sort(), [...(s.kinds ?? [])].sort(), !!s.deprecated]);

/** `Mathlib.Topology` covers itself and `Mathlib.Topology.*`. */
const underPrefix = (name: string, prefixes: readonly string[]) => prefixes.some((p) => name === p || name.startsWith(p.endsWith('.') ? p : p + '.'));

/** Namespace `Finset` holds `Finset.x` and `Finset.Nat.x`, not `Finset` itself. */
const inNamespace = (name: string, prefixes: readonly string[]) => prefixes.some((p) => name.startsWith(p.endsWith('.') ? p : p + '.'));

/** `inNamespace` for many names: each name's dotted prefixes looked up in a set (its cost does not grow with the list). */
function namespaceTest(prefixes: readonly string[]): (name: string) => boolean {
  const set = new Set(prefixes.map((p) => (p.endsWith('.') ? p.slice(0, -1) : p)));
  return (name) => {
    for (let i = name.indexOf('.'); i >= 0; i = name.indexOf('.', i + 1)) if (set.has(name.slice(0, i))) return true;
    return false;
  };
}

export function kindsOf(kinds: readonly string[]): Set<string> {
  return new Set(kinds.flatMap((k) => KIND_ALIASES[k] ?? [k]));
}

/** Whether a premise is in scope (for premises read one at a time: per-search ones, hits already read). */
export function inScope(s: ScopeFilter, p: { name: string; module: string; kind: string; deprecated?: boolean }): boolean {
  if (p.deprecated && !s.deprecated) return false;
  if (s.modules?.length && !underPrefix(p.module, s.modules)) return false;
  if (s.namespaces?.length && !inNamespace(p.name, s.namespaces)) return false;
  if (s.kinds?.length && !kindsOf(s.kinds).has(p.kind)) return false;
  return true;
}

interface ScopeSource {
  readonly size: number;
  name(id: number): string;
  scan(): Iterable<{ module: string; kind: string; deprecated?: boolean }>;
}

/** What a scope filter reads of each premise of a segment, read once. */
interface Facts {
  modules: string[];
  moduleOf: Uint32Array;
  kinds: string[];
  kindOf: Uint8Array;
  deprecated: Uint8Array;
}

/** Per segment: its premises' modules, kinds and deprecation (one scan), and recent filters' masks. */
export class ScopeMasks {
  private facts?: Facts;
  private readonly masks = new LRUCache<string, Uint8Array>({ max: 8 });

  constructor(private readonly table: ScopeSource) {}

  private read(): Facts {
    if (this.facts) return this.facts;
    const n = this.table.size;
    const moduleIds = new Map<string, number>();
    const kindIds = new Map<string, number>();
    const moduleOf = new Uint32Array(n);
    const kindOf = new Uint8Array(n);
    const deprecated = new Uint8Array(n);
    let id = 0;
    for (const p of this.table.scan()) {
      let m = moduleIds.get(p.module);
      if (m === undefined) moduleIds.set(p.module, (m = moduleIds.size));
      let k = kindIds.get(p.kind);
      if (k === undefined) kindIds.set(p.kind, (k = kindIds.size));
      moduleOf[id] = m;
      kindOf[id] = k;
      if (p.deprecated) deprecated[id] = 1;
      id++;
    }
    return (this.facts = { modules: [...moduleIds.keys()], moduleOf, kinds: [...kindIds.keys()], kindOf, deprecated });
  }

  /** 1 for each premise out of scope (a mask shared by searches with this filter: never modified). */
  outside(s: ScopeFilter): Uint8Array {
    const key = scopeKey(s);
    let mask = this.masks.get(key);
    if (mask) return mask;
    const f = this.read();
    const n = this.table.size;
    mask = new Uint8Array(n);
    const moduleOk = s.modules?.length ? f.modules.map((m) => underPrefix(m, s.modules!)) : undefined;
    const want = s.kinds?.length ? kindsOf(s.kinds) : undefined;
    const kindOk = want ? f.kinds.map((k) => want.has(k)) : undefined;
    const nsOk = s.namespaces?.length ? namespaceTest(s.namespaces) : undefined;
    for (let id = 0; id < n; id++) {
      const out =
        (!s.deprecated && f.deprecated[id] === 1) ||
        (moduleOk !== undefined && !moduleOk[f.moduleOf[id]!]) ||
        (kindOk !== undefined && !kindOk[f.kindOf[id]!]) ||
        (nsOk !== undefined && !nsOk(this.table.name(id)));
      if (out) mask[id] = 1;
    }
    this.masks.set(key, mask);
    return mask;
  }
}
