/**
 * Reference resolution: rewrite each declaration's raw `refs` (as written in the
 * source) to full names of declarations in the set, following Lean's lookup order
 * (enclosing namespaces innermost first, the root, then `open`ed namespaces), and
 * drop what does not resolve. Also removes duplicate declarations (an explicit
 * declaration wins over a generated one of the same name), strips `scope`, and
 * gives aliases their target's statement (./alias-types.ts).
 */
import { inheritAliasTypes, type AliasTargets } from './alias-types.js';
import type { ExtractedDecl, PremiseRecord } from './record.js';

type Scope = ExtractedDecl['scope'];

const GENERATED_OK = new Set(['field', 'constructor']);

function priority(d: ExtractedDecl): number {
  return d.origin === undefined || GENERATED_OK.has(d.kind) ? 2 : 1;
}

/** Keep one declaration per name, preferring explicit ones; order is preserved. */
function dedupe(decls: ExtractedDecl[]): ExtractedDecl[] {
  const best = new Map<string, number>();
  for (let i = 0; i < decls.length; i++) {
    const prev = best.get(decls[i].name);
    if (prev === undefined || priority(decls[i]) > priority(decls[prev])) best.set(decls[i].name, i);
  }
  return decls.filter((d, i) => best.get(d.name) === i);
}

export class NameResolver {
  private readonly names = new Set<string>();
  /**
   * For every dot-suffix of every name (`A.B.c` → `A.B.c`, `B.c`, `c`), the names
   * ending with it. Short lists are scanned without allocating candidate strings.
   */
  private readonly bySuffix = new Map<string, Array<[full: string, prefix: string]>>();

  constructor(names: Iterable<string>) {
    for (const n of names) {
      if (this.names.has(n)) continue;
      this.names.add(n);
      let i = -1;
      do {
        const suf = n.slice(i + 1);
        const entry: [string, string] = [n, i < 0 ? '' : n.slice(0, i)];
        const list = this.bySuffix.get(suf);
        if (list) list.push(entry);
        else this.bySuffix.set(suf, [entry]);
        i = n.indexOf('.', i + 1);
      } while (i >= 0);
    }
  }

  has(name: string): boolean {
    return this.names.has(name);
  }

  /** Candidate prefixes of a scope in lookup order (`''` = the root) with their ranks, once per scope. */
  private readonly prefixCache = new WeakMap<Scope, { order: string[]; rank: Map<string, number> }>();

  private prefixes(scope: Scope): { order: string[]; rank: Map<string, number> } {
    let p = this.prefixCache.get(scope);
    if (p === undefined) {
      const order = [...scope.namespaces, ''];
      for (const o of scope.opens) {
        order.push(o);
        for (const ns of scope.namespaces) order.push(`${ns}.${o}`);
      }
      const rank = new Map<string, number>();
      for (const x of order) if (!rank.has(x)) rank.set(x, rank.size);
      p = { order: [...rank.keys()], rank };
      this.prefixCache.set(scope, p);
    }
    return p;
  }

  private lookup(r: string, scope: Scope): string | null {
    const list = this.bySuffix.get(r);
    if (list === undefined) return null;
    const { order, rank } = this.prefixes(scope);
    if (list.length <= 32) {
      let best: string | null = null;
      let bestRank = Infinity;
      for (const [full, prefix] of list) {
        const k = rank.get(prefix);
        if (k !== undefined && k < bestRank) {
          bestRank = k;
          best = full;
        }
      }
      return best;
    }
    for (const p of order) {
      const c = p === '' ? r : `${p}.${r}`;
      if (this.names.has(c)) return c;
    }
    return null;
  }

  /** Resolve one raw reference in `scope`, or null. */
  resolve(raw: string, scope: Scope): string | null {
    if (raw.startsWith('_root_.')) {
      const r = raw.slice(7);
      return this.names.has(r) ? r : null;
    }
    let r = raw.charCodeAt(0) === 64 /* @ */ ? raw.slice(1) : raw;
    if (r.charCodeAt(0) === 46) r = r.slice(1); // `.inl`: only resolvable through the scope
    // `foo.bar.baz` may be generalized field notation on `foo.bar` (`le_rfl.trans`)
    for (let guard = 0; r && guard < 8; guard++) {
      const hit = this.lookup(r, scope);
      if (hit !== null) return hit;
      const dot = r.lastIndexOf('.');
      if (dot <= 0) return null;
      r = r.slice(0, dot);
    }
    return null;
  }
}

function strip(d: ExtractedDecl, refs: string[], origin: string | undefined): PremiseRecord {
  const { scope: _scope, ...rest } = d;
  const out: PremiseRecord = { ...rest, refs };
  if (origin !== undefined) out.origin = origin;
  return out;
}

/** `export NS (a)` records from the Lean extractor: name aliases, not declarations. */
function isExportAlias(d: ExtractedDecl): boolean {
  return d.origin !== undefined && d.statement.startsWith('export ');
}

/**
 * `export NS (a)` names across indexes (name → the declaration it names): `external`,
 * those of the indexes a corpus resolves against (their `exports.json`); `own`, filled in
 * with the corpus's own, for its index to keep.
 */
export interface ExportAliases {
  external?: ReadonlyMap<string, string>;
  own?: Map<string, string>;
}

/**
 * `external`: names declared elsewhere (another index, e.g. the dependencies of
 * a workspace) that references may resolve to; they stay in `refs` and get no record.
 * `externalStatement`: their statements, for aliases of them. `exports`: `export`
 * names of those indexes (a reference to one is a reference to what it names), and
 * where to put this corpus's own.
 */
export function resolveRefs(decls: ExtractedDecl[], external: Iterable<string> = [], externalStatement?: AliasTargets, exports: ExportAliases = {}): PremiseRecord[] {
  const all = dedupe(decls);
  const resolver = new NameResolver([...all.map((d) => d.name), ...external, ...(exports.external?.keys() ?? [])]);
  // name → export target (null when the target is not in the set)
  const aliases = new Map<string, string | null>();
  for (const d of all) {
    if (!isExportAlias(d)) continue;
    const target = resolver.resolve(d.origin!, d.scope);
    aliases.set(d.name, target !== null && target !== d.name ? target : null);
    if (target !== null && target !== d.name) exports.own?.set(d.name, target);
  }
  if (exports.external?.size) {
    const own = new Set(all.map((d) => d.name));
    for (const [name, target] of exports.external) if (!own.has(name) && !aliases.has(name)) aliases.set(name, target);
  }
  const kept = aliases.size > 0 ? all.filter((d) => !isExportAlias(d)) : all;
  const out: PremiseRecord[] = new Array(kept.length);
  for (let i = 0; i < kept.length; i++) {
    const d = kept[i];
    const seen = new Set<string>();
    const refs: string[] = [];
    for (const raw of d.refs) {
      let full = resolver.resolve(raw, d.scope);
      // Isabelle: `foo_def` is the defining equation of the definition `foo`
      if (full === null && d.lang === 'isabelle' && raw.endsWith('_def')) full = resolver.resolve(raw.slice(0, -4), d.scope);
      if (full !== null && aliases.has(full)) full = aliases.get(full)!;
      if (full === null || full === d.name || seen.has(full)) continue;
      seen.add(full);
      refs.push(full);
    }
    let origin = d.origin;
    if (origin !== undefined && !resolver.has(origin)) origin = resolver.resolve(origin, d.scope) ?? origin;
    out[i] = strip(d, refs, origin);
  }
  inheritAliasTypes(out, externalStatement);
  return out;
}
