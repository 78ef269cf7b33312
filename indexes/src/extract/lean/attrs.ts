/**
 * Attribute lists (`@[simp, to_additive (attr := simp) foo "doc", simps apply]`).
 */
import { T, matchClose, type Tok } from './lex.js';

export interface AttrEntry {
  name: string;
  /** Argument token range (after the attribute name). */
  a: number;
  b: number;
}

/** Split the inside of `@[ … ]` (tokens [a, b)) into attribute entries. */
export function parseAttrList(toks: Tok[], a: number, b: number): AttrEntry[] {
  const out: AttrEntry[] = [];
  let start = a;
  let depth = 0;
  const flush = (end: number): void => {
    let x = start;
    while (x < end && toks[x].k === T.Id && (toks[x].v === 'scoped' || toks[x].v === 'local')) x++;
    if (x < end && toks[x].k === T.Op && (toks[x].v === '-' || toks[x].v === '←')) x++;
    if (x < end && toks[x].k === T.Id) out.push({ name: toks[x].v, a: x + 1, b: end });
  };
  for (let m = a; m < b; m++) {
    const k = toks[m].k;
    if (k === T.Open || k === T.Attr) depth++;
    else if (k === T.Close) depth--;
    else if (k === T.Comma && depth === 0) {
      flush(m);
      start = m + 1;
    }
  }
  flush(b);
  return out;
}

export interface ToAdditive {
  existing: boolean;
  name?: string;
  doc?: string;
  attrs: string[];
}

function unquote(s: string): string {
  return s
    .slice(1, s.endsWith('"') && s.length > 1 ? -1 : undefined)
    .replace(/\\(.)/g, (_m, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c))
    .trim();
}

export function parseToAdditive(toks: Tok[], e: AttrEntry): ToAdditive {
  const res: ToAdditive = { existing: false, attrs: [] };
  for (let m = e.a; m < e.b; m++) {
    const t = toks[m];
    if (t.k === T.Id) {
      if (t.v === 'existing' || t.v === 'self') res.existing = true;
      else if (res.name === undefined) res.name = t.v;
    } else if (t.k === T.Open) {
      const close = Math.min(matchClose(toks, m, e.b), e.b);
      if (toks[m + 1]?.v === 'attr' && toks[m + 2]?.k === T.Assign) {
        for (const x of parseAttrList(toks, m + 3, close)) res.attrs.push(x.name);
      }
      m = close;
    } else if (t.k === T.Str) res.doc = unquote(t.v);
    else if (t.k === T.Doc) res.doc = t.v.trim();
  }
  return res;
}

/** Projection names listed in `@[simps foo bar]` (options and config skipped). */
export function parseSimps(toks: Tok[], e: AttrEntry): string[] {
  const out: string[] = [];
  for (let m = e.a; m < e.b; m++) {
    const t = toks[m];
    if (t.k === T.Open) m = Math.min(matchClose(toks, m, e.b), e.b);
    else if (t.k === T.Op && (t.v === '-' || t.v === '+')) m++;
    else if (t.k === T.Id && !t.v.startsWith('.')) out.push(t.v);
  }
  return out;
}

export function isToAdditive(name: string): boolean {
  return name === 'to_additive' || name === 'to_additive?';
}
export function isSimps(name: string): boolean {
  return name === 'simps' || name === 'simps!' || name === 'simps?' || name === 'simps!?';
}
