/**
 * Structure fields and inductive constructors for the Lean extractor.
 */
import { firstAtDepth0, T, matchClose, type Tok } from './lex.js';
import { isBinderOpen, parseGroup, readBinders, type Binder } from './binders.js';

export const MODIFIERS = new Set([
  'private', 'protected', 'noncomputable', 'nonrec', 'partial', 'unsafe', 'scoped', 'local', 'public', 'meta',
]);

export interface Member {
  /** Index of the name token. */
  nameIdx: number;
  name: string;
  binders: Binder[];
  /** Type token range (empty when none was written). */
  typeA: number;
  typeB: number;
  doc?: string;
  /** Token range of the whole member, for `range` and `statement`. */
  a: number;
  b: number;
}

/** End of the depth-0 region starting at `a` before an `:=` (or `b`). */
function untilAssign(toks: Tok[], a: number, b: number): number {
  const m = firstAtDepth0(toks, a, b, (t) => t.k === T.Assign);
  return m < 0 ? b : m;
}

/** First depth-0 `deriving` at the start of a line in [a, b), or `b`. */
export function untilDeriving(toks: Tok[], a: number, b: number): number {
  const m = firstAtDepth0(toks, a, b, (t) => t.k === T.Id && t.nl && t.v === 'deriving');
  return m < 0 ? b : m;
}

function isModsOnly(toks: Tok[], a: number, b: number): boolean {
  for (let m = a; m < b; m++) {
    const t = toks[m];
    if (t.k !== T.Doc && !(t.k === T.Id && MODIFIERS.has(t.v))) return false;
  }
  return true;
}

/** Split a structure body into per-line entries at the field indentation. */
function splitEntries(toks: Tok[], a: number, b: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  if (a >= b) return out;
  let baseCol = Infinity;
  for (let m = a; m < b; m++) {
    if (toks[m].nl) {
      baseCol = toks[m].col;
      break;
    }
  }
  let start = a;
  let depth = 0;
  for (let m = a; m < b; m++) {
    const t = toks[m];
    if (m > start && depth === 0 && t.nl && t.col <= baseCol && !isModsOnly(toks, start, m)) {
      out.push([start, m]);
      start = m;
    }
    if (t.k === T.Open || t.k === T.Attr) depth++;
    else if (t.k === T.Close) depth = Math.max(0, depth - 1);
  }
  out.push([start, b]);
  return out;
}

export interface FieldParse {
  fields: Member[];
  ctorName?: string;
  ctorDoc?: string;
}

/** Fields of a `structure`/`class` body (tokens after `where`). */
export function parseFields(toks: Tok[], a: number, b: number): FieldParse {
  const res: FieldParse = { fields: [] };
  for (const [ea, eb] of splitEntries(toks, a, b)) parseFieldEntry(toks, ea, eb, res);
  return res;
}

function parseFieldEntry(toks: Tok[], a: number, b: number, res: FieldParse): void {
  let i = a;
  let doc: string | undefined;
  while (i < b) {
    const t = toks[i];
    if (t.k === T.Doc) {
      doc = t.v.trim();
      i++;
    } else if (t.k === T.Id && MODIFIERS.has(t.v)) i++;
    else if (t.k === T.Id && toks[i + 1]?.k === T.Op && toks[i + 1].v === '::' && i + 1 < b) {
      res.ctorName = t.v;
      res.ctorDoc = doc;
      doc = undefined;
      i += 2;
    } else if (isBinderOpen(t)) {
      const j = Math.min(matchClose(toks, i, b), b - 1);
      const g = parseGroup(toks, i, j);
      if (!g.untyped && g.names.length > 0) {
        const typeB = untilAssign(toks, g.ra + 1, g.rb);
        let nameIdx = i + 1;
        for (const name of g.names) {
          while (nameIdx < j && toks[nameIdx].v !== name) nameIdx++;
          res.fields.push({ nameIdx, name, binders: [], typeA: g.ra + 1, typeB, doc, a: i, b: j + 1 });
        }
      }
      i = j + 1;
    } else if (t.k === T.Id) {
      const nameIdx = i;
      const { binders, next } = readBinders(toks, i + 1, b);
      i = next;
      if (toks[i]?.k === T.Colon && i < b) {
        const typeB = untilAssign(toks, i + 1, b);
        res.fields.push({ nameIdx, name: t.v, binders, typeA: i + 1, typeB, doc, a: nameIdx, b: typeB });
      }
      return; // `x := v` overrides a parent default: not a new field
    } else return;
  }
}

/** Constructors of an inductive body: `| ctor binders : type` segments in [a, b). */
export function parseCtors(toks: Tok[], a: number, b: number): Member[] {
  const out: Member[] = [];
  const bars: number[] = [];
  let depth = 0;
  for (let m = a; m < b; m++) {
    const k = toks[m].k;
    if (k === T.Open || k === T.Attr) depth++;
    else if (k === T.Close) depth = Math.max(0, depth - 1);
    else if (depth === 0 && k === T.Bar) bars.push(m);
  }
  for (let n = 0; n < bars.length; n++) {
    const p = bars[n];
    let end = n + 1 < bars.length ? bars[n + 1] : b;
    while (end > p + 1 && toks[end - 1].k === T.Doc) end--;
    const doc = p > 0 && toks[p - 1].k === T.Doc ? toks[p - 1].v.trim() : undefined;
    let i = p + 1;
    while (i < end && toks[i].k === T.Id && MODIFIERS.has(toks[i].v)) i++;
    const nameTok = toks[i];
    if (i >= end || nameTok.k !== T.Id) continue;
    const nameIdx = i;
    const { binders, next } = readBinders(toks, i + 1, end);
    i = next;
    let typeA = i;
    let typeB = i;
    if (i < end && toks[i].k === T.Colon) {
      typeA = i + 1;
      typeB = end;
    }
    out.push({ nameIdx, name: nameTok.v, binders, typeA, typeB, doc, a: p, b: end });
  }
  return out;
}
