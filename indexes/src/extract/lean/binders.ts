/**
 * Binder groups (`(a b : α)`, `{x}`, `[Group G]`, `⦃x⦄`, bare `x`) for the Lean
 * extractor, plus `variable` inclusion (which section variables a declaration uses).
 */
import { T, joinToks, matchClose, type Tok } from './lex.js';
import { translateName } from './names.js';
import { additiveText } from './additive.js';

export interface Binder {
  open: string;
  close: string;
  names: string[];
  /** Token range of the part after the names (`: α := 0`), or of the whole inner text for `[C α]`. */
  ra: number;
  rb: number;
  toks: Tok[];
  /** Instance-implicit (`[…]`). */
  inst: boolean;
  /** Identifiers mentioned in the type (and their first components). */
  typeIds: string[];
  /** No type given (`(x)`, `{R}`). */
  untyped: boolean;
  /** Text for binders made up by the extractor (`(self : S α)`). */
  synthetic?: string;
  /** `variable (R)` re-declaring the binder kind of an existing variable. */
  rebind?: boolean;
}

export function renderBinder(b: Binder, additive = false): string {
  if (b.synthetic !== undefined) {
    return additive ? b.synthetic.replace(/[A-Za-z_][A-Za-z0-9_.']*/g, (w) => translateName(w)) : b.synthetic;
  }
  const rest = b.rb > b.ra ? (additive ? additiveText(b.toks, b.ra, b.rb) : joinToks(b.toks, b.ra, b.rb)) : '';
  let inner = b.names.join(' ');
  if (rest) inner = inner ? `${inner} ${rest}` : rest;
  return `${b.open}${inner}${b.close}`;
}

export function syntheticBinder(text: string, names: string[], inst: boolean): Binder {
  return { open: '', close: '', names, ra: 0, rb: 0, toks: [], inst, typeIds: [], untyped: false, synthetic: text };
}

/** Identifier values in [a, b), with first components of dotted names. */
export function idsIn(toks: Tok[], a: number, b: number, out: string[] = []): string[] {
  for (let i = a; i < b; i++) {
    const t = toks[i];
    if (t.k !== T.Id || t.v.startsWith('.')) continue;
    out.push(t.v);
    const dot = t.v.indexOf('.');
    if (dot > 0) out.push(t.v.slice(0, dot));
  }
  return out;
}

const BINDER_OPENERS = new Set(['(', '{', '[', '⦃']);

export function isBinderOpen(t: Tok | undefined): boolean {
  return t !== undefined && t.k === T.Open && BINDER_OPENERS.has(t.v);
}

/** Parse the bracketed group opened at `i` and closed at `j`. */
export function parseGroup(toks: Tok[], i: number, j: number): Binder {
  const open = toks[i].v;
  const close = toks[j].k === T.Close ? toks[j].v : '';
  const innerEnd = toks[j].k === T.Close ? j : j + 1;
  let a = i + 1;
  let openText = open;
  let closeText = close;
  // `{{x}}` (old strict implicit)
  if (open === '{' && toks[a]?.k === T.Open && toks[a].v === '{' && matchClose(toks, a, innerEnd) === innerEnd - 1) {
    openText = '{{';
    closeText = '}}';
    a++;
  }
  const end = openText === '{{' ? innerEnd - 1 : innerEnd;
  let colon = -1;
  let depth = 0;
  for (let m = a; m < end; m++) {
    const k = toks[m].k;
    if (k === T.Open || k === T.Attr) depth++;
    else if (k === T.Close) depth--;
    else if (depth === 0 && k === T.Colon) {
      colon = m;
      break;
    }
  }
  const inst = open === '[';
  const names: string[] = [];
  if (colon >= 0) {
    for (let m = a; m < colon; m++) if (toks[m].k === T.Id) names.push(toks[m].v);
    return { open: openText, close: closeText, names, ra: colon, rb: end, toks, inst, typeIds: idsIn(toks, colon + 1, end), untyped: false };
  }
  if (inst) {
    return { open: openText, close: closeText, names, ra: a, rb: end, toks, inst, typeIds: idsIn(toks, a, end), untyped: false };
  }
  for (let m = a; m < end; m++) if (toks[m].k === T.Id) names.push(toks[m].v);
  return { open: openText, close: closeText, names, ra: end, rb: end, toks, inst, typeIds: [], untyped: true };
}

export function simpleBinder(toks: Tok[], i: number): Binder {
  return { open: '', close: '', names: [toks[i].v], ra: i + 1, rb: i + 1, toks, inst: false, typeIds: [], untyped: true };
}

/**
 * The run of binders starting at `i` (bracketed groups and bare names), up to the
 * first token that is neither or `end`; `next` is where the run stopped.
 * `stop` rejects bare names that end a header (`extends`, `where`…);
 * `onUnbalanced` hears of a group whose bracket is never closed.
 */
export function readBinders(
  toks: Tok[],
  i: number,
  end: number,
  opts: { stop?: (name: string) => boolean; onUnbalanced?: (open: Tok) => void } = {},
): { binders: Binder[]; next: number } {
  const binders: Binder[] = [];
  while (i < end) {
    const t = toks[i];
    if (isBinderOpen(t)) {
      const close = matchClose(toks, i, end);
      if (toks[close]?.k !== T.Close) opts.onUnbalanced?.(t);
      const j = Math.min(close, end - 1);
      binders.push(parseGroup(toks, i, j));
      i = j + 1;
    } else if (t.k === T.Id && !opts.stop?.(t.v)) {
      binders.push(simpleBinder(toks, i));
      i++;
    } else break;
  }
  return { binders, next: i };
}

/** Parse binder groups in [a, b) (as in a `variable` command), skipping anything else. */
export function parseBinders(toks: Tok[], a: number, b: number): Binder[] {
  const out: Binder[] = [];
  for (let i = a; i < b; ) {
    const run = readBinders(toks, i, b);
    out.push(...run.binders);
    i = run.next + 1;
  }
  return out;
}

/**
 * Add `groups` (from a `variable` command) to `vars`, treating typeless groups that
 * only name existing variables (`variable (R)`) as binder-kind updates.
 */
export function addVariables(vars: Binder[], groups: Binder[], all: Binder[]): void {
  for (const g of groups) {
    if (g.untyped && !g.inst && g.names.length > 0 && g.names.every((n) => all.some((v) => v.names.includes(n)))) {
      vars.push({ ...g, rebind: true });
    } else vars.push(g);
  }
}

/** Apply rebinding entries, producing the effective variable list. */
export function effectiveVars(vars: Binder[]): Binder[] {
  const out: Binder[] = [];
  for (const v of vars) {
    if (!v.rebind) {
      out.push(v);
      continue;
    }
    for (const n of v.names) {
      for (let k = out.length - 1; k >= 0; k--) {
        const g = out[k];
        if (!g.names.includes(n)) continue;
        const updated: Binder = { ...g, open: v.open, close: v.close, names: [n], rebind: false };
        if (g.names.length === 1) out[k] = updated;
        else {
          // split `(s t : α)` into `{s : α}` `(t : α)`, keeping the names' order
          const at = g.names.indexOf(n);
          const pieces: Binder[] = [];
          if (at > 0) pieces.push({ ...g, names: g.names.slice(0, at) });
          pieces.push(updated);
          if (at + 1 < g.names.length) pieces.push({ ...g, names: g.names.slice(at + 1) });
          out.splice(k, 1, ...pieces);
        }
        break;
      }
    }
  }
  return out;
}

/**
 * Variables a declaration uses: those named in `mentioned` (or `include`d), the
 * variables their types mention (transitively), and instance binders all of whose
 * variables are included.
 */
export function selectVariables(vars: Binder[], mentioned: Set<string>, includes: Iterable<string>): Binder[] {
  if (vars.length === 0) return [];
  const owner = new Map<string, Binder>();
  for (const v of vars) for (const n of v.names) owner.set(n, v);
  const included = new Set<string>();
  const queue: string[] = [];
  const mark = (n: string): void => {
    if (owner.has(n) && !included.has(n)) {
      included.add(n);
      queue.push(n);
    }
  };
  for (const n of includes) mark(n);
  for (const n of mentioned) mark(n);
  while (queue.length > 0) {
    const n = queue.pop()!;
    for (const id of owner.get(n)!.typeIds) mark(id);
  }
  const out: Binder[] = [];
  for (const v of vars) {
    if (v.inst) {
      let any = false;
      let all = true;
      for (const id of v.typeIds) {
        if (!owner.has(id)) continue;
        any = true;
        if (!included.has(id)) all = false;
      }
      const named = v.names.some((n) => included.has(n));
      if ((any && all) || named) out.push(v);
      continue;
    }
    const names = v.names.filter((n) => included.has(n) && owner.get(n) === v);
    if (names.length === v.names.length && names.length > 0) out.push(v);
    else if (names.length > 0) out.push({ ...v, names });
  }
  return out;
}
