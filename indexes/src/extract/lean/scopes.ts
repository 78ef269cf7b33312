/**
 * The Lean scope stack: `namespace`/`section`/`mutual` frames with their `open`s,
 * `variable`s and `include`s, what `… in` adds for one command (`Prefix`), and
 * the names and resolver scope a declaration gets from them.
 */
import type { ExtractedDecl } from '../record.js';
import { firstAtDepth0, T, matchClose, type Tok } from './lex.js';
import { addVariables, parseBinders, type Binder } from './binders.js';

export interface Frame {
  kind: 'root' | 'ns' | 'sec' | 'mutual';
  name: string;
  opens: string[];
  vars: Binder[];
  includes: string[];
  /** `@[expose] section`: the definitions in it expose their bodies (Lean's module system). */
  expose?: boolean;
}

/** What a scope command before `in` adds for the command after it. */
export interface Prefix {
  opens: string[];
  vars: Binder[];
  includes: string[];
}

export type Scope = ExtractedDecl['scope'];

/** The depth-0 `in` of `open Foo in …` in [a, e), or -1. */
export function findIn(toks: Tok[], a: number, e: number): number {
  return firstAtDepth0(toks, a, e, (t) => t.k === T.Id && t.v === 'in');
}

function parseOpens(toks: Tok[], a: number, b: number): string[] {
  const out: string[] = [];
  if (toks[a]?.v === 'scoped') return out;
  for (let m = a; m < b; m++) {
    const t = toks[m];
    if (t.k === T.Open) m = matchClose(toks, m, b);
    else if (t.k === T.Id) {
      if (t.v === 'hiding' || t.v === 'renaming') break;
      out.push(t.v);
    }
  }
  return out;
}

/**
 * What one file can put in force at once: nesting depth, and `open`ed names,
 * `variable` groups and `include`d names in force. Real files stay far below
 * (Mathlib: under 10 frames, a few dozen opens); past them a hostile file would
 * make every declaration's scope (and its references' lookups) cost time and
 * memory in proportion to the file.
 * What goes past is ignored, with one warning each.
 */
export const MAX_FRAMES = 64;
export const MAX_IN_FORCE = 256;

export class Scopes {
  readonly frames: Frame[] = [{ kind: 'root', name: '', opens: [], vars: [], includes: [] }];
  private readonly cache = new Map<string, Scope>();
  /** Frames opened past MAX_FRAMES (not kept; their `end`s close nothing kept). */
  private overflow = 0;
  private readonly warned = new Set<string>();

  /** `warn`: told once per limit that something past it was ignored. */
  constructor(private readonly warn: (msg: string) => void = () => {}) {}

  private pastLimit(what: string): void {
    if (this.warned.has(what)) return;
    this.warned.add(what);
    this.warn(`more than ${what === 'frames' ? `${MAX_FRAMES} nested namespaces/sections` : `${MAX_IN_FORCE} ${what} in force`}: the rest are ignored`);
  }

  push(kind: Frame['kind'], name: string, expose = false): void {
    if (this.frames.length > MAX_FRAMES) {
      this.overflow++;
      this.pastLimit('frames');
      return;
    }
    this.frames.push({ kind, name, opens: [], vars: [], includes: [], ...(expose ? { expose } : {}) });
  }

  /** Is an `@[expose] section` open? */
  exposed(): boolean {
    return this.frames.some((f) => f.expose);
  }

  top(): Frame {
    return this.frames[this.frames.length - 1];
  }

  /** `end name`; `warn` reports a stray or mismatched `end`. */
  end(name: string, tok: Tok, warn: (msg: string, tok?: Tok) => void): void {
    const frames = this.frames;
    if (this.overflow > 0) {
      this.overflow--;
      return;
    }
    if (frames.length <= 1) {
      warn(`stray end${name ? ' ' + name : ''}`, tok);
      return;
    }
    const top = frames[frames.length - 1];
    if (!name) {
      if (top.name && top.kind !== 'mutual') warn(`end without name closes ${top.name}`, tok);
      frames.pop();
      return;
    }
    if (top.name === name) {
      frames.pop();
      return;
    }
    if (top.kind !== 'mutual' && top.name.endsWith('.' + name)) {
      top.name = top.name.slice(0, top.name.length - name.length - 1);
      return;
    }
    // `end A.B` closing `namespace A` + `namespace B`
    let acc = '';
    for (let k = frames.length - 1; k >= 1; k--) {
      acc = acc ? `${frames[k].name}.${acc}` : frames[k].name;
      if (acc === name) {
        frames.length = k;
        return;
      }
      if (!name.endsWith(acc)) break;
    }
    warn(`end ${name} does not match ${top.name || 'anonymous section'}`, tok);
    frames.pop();
  }

  /**
   * `open`, `variable`, `include`, `omit` (keyword `kw`, arguments in [a, b)) into
   * `target`: the innermost frame, or with `local` the prefix of one command.
   */
  scopeCommand(toks: Tok[], kw: string, a: number, b: number, target: Prefix, local: boolean): void {
    const pending = local ? target : null;
    if (kw === 'open') {
      let room = MAX_IN_FORCE - this.count('opens', pending);
      for (const o of parseOpens(toks, a, b)) {
        if (target.opens.includes(o)) continue;
        if (room-- <= 0) return this.pastLimit('opened names');
        target.opens.push(o);
      }
    } else if (kw === 'variable') {
      const groups = parseBinders(toks, a, b);
      const room = MAX_IN_FORCE - this.count('vars', pending);
      if (groups.length > room) this.pastLimit('variable groups');
      addVariables(target.vars, groups.slice(0, Math.max(0, room)), this.allVars(pending));
    } else if (kw === 'include') {
      let room = MAX_IN_FORCE - this.count('includes', pending);
      for (let m = a; m < b; m++) {
        if (toks[m].k !== T.Id) continue;
        if (room-- <= 0) return this.pastLimit('included variables');
        target.includes.push(toks[m].v);
      }
    } else if (kw === 'omit') {
      const omitted = new Set<string>();
      for (let m = a; m < b; m++) if (toks[m].k === T.Id) omitted.add(toks[m].v);
      for (const f of local ? [target] : this.frames) f.includes = f.includes.filter((n) => !omitted.has(n));
    }
  }

  /** How many opens, variable groups or includes are in force (with those of a `… in` prefix). */
  private count(what: 'opens' | 'vars' | 'includes', pending: Prefix | null): number {
    let n = pending ? pending[what].length : 0;
    for (const f of this.frames) n += f[what].length;
    return n;
  }

  allVars(pending: Prefix | null): Binder[] {
    const out: Binder[] = [];
    for (const f of this.frames) out.push(...f.vars);
    if (pending) out.push(...pending.vars);
    return out;
  }

  includes(pending: Prefix | null): string[] {
    const out: string[] = [];
    for (const f of this.frames) out.push(...f.includes);
    if (pending) out.push(...pending.includes);
    return out;
  }

  currentNs(): string {
    let ns = '';
    for (const f of this.frames) if (f.kind === 'ns') ns = ns ? `${ns}.${f.name}` : f.name;
    return ns;
  }

  qualify(raw: string): string {
    if (raw.startsWith('_root_.')) return raw.slice(7);
    const ns = this.currentNs();
    return ns ? `${ns}.${raw}` : raw;
  }

  /** The resolver scope of declaration `full`: its namespaces and the `open`s in force (shared objects). */
  scope(full: string, pending: Prefix | null): Scope {
    const dot = full.lastIndexOf('.');
    const own = dot > 0 ? full.slice(0, dot) : '';
    const ns = this.currentNs();
    const opens = [...new Set([...this.frames.flatMap((f) => f.opens), ...(pending?.opens ?? [])])];
    // the key is what the scope is made of (linear in it), the scope made only once per key
    const key = `${own}|${ns}|${opens.join(',')}`;
    let sc = this.cache.get(key);
    if (!sc) {
      const nss: string[] = [];
      const seen = new Set<string>();
      const addPrefixes = (n: string): void => {
        let p = n;
        while (p) {
          if (!seen.has(p)) {
            seen.add(p);
            nss.push(p);
          }
          const d = p.lastIndexOf('.');
          p = d < 0 ? '' : p.slice(0, d);
        }
      };
      addPrefixes(own);
      addPrefixes(ns);
      sc = { namespaces: nss, opens };
      this.cache.set(key, sc);
    }
    return sc;
  }
}
