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

export class Scopes {
  readonly frames: Frame[] = [{ kind: 'root', name: '', opens: [], vars: [], includes: [] }];
  private readonly cache = new Map<string, Scope>();

  push(kind: Frame['kind'], name: string): void {
    this.frames.push({ kind, name, opens: [], vars: [], includes: [] });
  }

  top(): Frame {
    return this.frames[this.frames.length - 1];
  }

  /** `end name`; `warn` reports a stray or mismatched `end`. */
  end(name: string, tok: Tok, warn: (msg: string, tok?: Tok) => void): void {
    const frames = this.frames;
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
    if (kw === 'open') target.opens.push(...parseOpens(toks, a, b));
    else if (kw === 'variable') addVariables(target.vars, parseBinders(toks, a, b), this.allVars(local ? target : null));
    else if (kw === 'include') {
      for (let m = a; m < b; m++) if (toks[m].k === T.Id) target.includes.push(toks[m].v);
    } else if (kw === 'omit') {
      const omitted = new Set<string>();
      for (let m = a; m < b; m++) if (toks[m].k === T.Id) omitted.add(toks[m].v);
      for (const f of local ? [target] : this.frames) f.includes = f.includes.filter((n) => !omitted.has(n));
    }
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
    const nss: string[] = [];
    const addPrefixes = (n: string): void => {
      let p = n;
      while (p) {
        if (!nss.includes(p)) nss.push(p);
        const d = p.lastIndexOf('.');
        p = d < 0 ? '' : p.slice(0, d);
      }
    };
    const dot = full.lastIndexOf('.');
    if (dot > 0) addPrefixes(full.slice(0, dot));
    addPrefixes(this.currentNs());
    const opens: string[] = [];
    for (const f of this.frames) for (const o of f.opens) if (!opens.includes(o)) opens.push(o);
    if (pending) for (const o of pending.opens) if (!opens.includes(o)) opens.push(o);
    const key = `${nss.join(',')}|${opens.join(',')}`;
    let sc = this.cache.get(key);
    if (!sc) {
      sc = { namespaces: nss, opens };
      this.cache.set(key, sc);
    }
    return sc;
  }
}
