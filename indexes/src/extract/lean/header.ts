/**
 * A declaration's header: name, binders, `extends` parents, type and where the
 * signature ends; and the docstring and attributes written before its keyword.
 */
import type { DeclKind } from '../record.js';
import { T, matchClose, type Tok } from './lex.js';
import { readBinders, type Binder } from './binders.js';
import { parseAttrList, type AttrEntry } from './attrs.js';
import type { LeanFile } from './state.js';

const HEADER_STOP = new Set(['where', 'extends', 'deriving', 'with', 'termination_by', 'decreasing_by']);

export interface Header {
  nameIdx: number;
  args: Binder[];
  parents: Array<[number, number]>;
  goalA: number;
  goalB: number;
  term: number;
}

export function readHeader(f: LeanFile, i: number, e: number, kind: DeclKind, inductiveLike: boolean, structLike: boolean): Header {
  const toks = f.toks;
  if (kind === 'instance' && toks[i]?.k === T.Open && toks[i].v === '(' && toks[i + 1]?.v === 'priority') {
    i = matchClose(toks, i, e) + 1;
  }
  let nameIdx = -1;
  if (i < e && toks[i].k === T.Id && !HEADER_STOP.has(toks[i].v)) {
    nameIdx = i++;
    if (i + 1 < e && toks[i].k === T.Op && toks[i].v === '.' && toks[i + 1].k === T.Open && toks[i + 1].v === '{') {
      i = matchClose(toks, i + 1, e) + 1;
    }
  }
  const run = readBinders(toks, i, e, {
    stop: (name) => HEADER_STOP.has(name),
    onUnbalanced: (t) => f.warn('unbalanced brackets in binder', t),
  });
  const args = run.binders;
  i = run.next;
  const parents: Array<[number, number]> = [];
  if (structLike && i < e && toks[i].k === T.Id && toks[i].v === 'extends') {
    let pa = i + 1;
    let depth = 0;
    let m = pa;
    for (; m < e; m++) {
      const t = toks[m];
      if (t.k === T.Open || t.k === T.Attr) depth++;
      else if (t.k === T.Close) depth = Math.max(0, depth - 1);
      else if (depth === 0) {
        if (t.k === T.Comma) {
          if (m > pa) parents.push([pa, m]);
          pa = m + 1;
        } else if (t.k === T.Colon && !(m === pa + 1 && toks[pa].k === T.Id)) break;
        else if (t.k === T.Assign || (t.k === T.Id && (t.v === 'where' || t.v === 'deriving'))) break;
      }
    }
    if (m > pa) parents.push([pa, m]);
    i = m;
  }
  let hasType = false;
  if (i < e && toks[i].k === T.Colon) {
    hasType = true;
    i++;
  }
  const term = terminator(toks, i, e, inductiveLike);
  return { nameIdx, args, parents, goalA: i, goalB: hasType ? term : i, term };
}

/** End of the signature: depth-0 `:=`, `where`, match-arm `|`, `deriving`, … */
function terminator(toks: Tok[], i: number, e: number, inductiveLike: boolean): number {
  let depth = 0;
  for (let m = i; m < e; m++) {
    const t = toks[m];
    if (t.k === T.Open || t.k === T.Attr) depth++;
    else if (t.k === T.Close) depth = Math.max(0, depth - 1);
    else if (depth > 0) continue;
    else if (t.k === T.Assign) return m;
    else if (t.k === T.Id) {
      if (t.v === 'where') return m;
      if (t.nl && (t.v === 'deriving' || t.v === 'termination_by' || t.v === 'decreasing_by')) return m;
    } else if (t.k === T.Bar && (inductiveLike || (t.nl && arrowAhead(toks, m + 1, e)))) return m;
  }
  return e;
}

function arrowAhead(toks: Tok[], a: number, e: number): boolean {
  let depth = 0;
  const limit = Math.min(e, a + 2000);
  for (let m = a; m < limit; m++) {
    const t = toks[m];
    if (t.k === T.Open || t.k === T.Attr) depth++;
    else if (t.k === T.Close) depth = Math.max(0, depth - 1);
    else if (depth === 0) {
      if (t.k === T.Op && (t.v === '=>' || t.v === '↦')) return true;
      if (t.k === T.Assign) return false;
    }
  }
  return false;
}

/** The docstring and attributes written before a declaration's keyword, in [s, kwIdx). */
export function modifiers(toks: Tok[], s: number, kwIdx: number): { doc?: string; attrs: AttrEntry[] } {
  let doc: string | undefined;
  const attrs: AttrEntry[] = [];
  for (let m = s; m < kwIdx; m++) {
    const t = toks[m];
    if (t.k === T.Doc) doc = t.v.trim();
    else if (t.k === T.Attr) {
      const close = matchClose(toks, m, kwIdx);
      attrs.push(...parseAttrList(toks, m + 1, close));
      m = close;
    }
  }
  return { doc, attrs };
}
