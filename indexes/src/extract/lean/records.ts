/**
 * A declaration before it is written out (`Proto`: token ranges and literal text)
 * and how it becomes an `ExtractedDecl`, plain or as an additive twin.
 */
import type { DeclKind, ExtractedDecl, Range } from '../record.js';
import { lex, offsetToPos, plainTok } from './lex.js';
import { renderBinder, type Binder } from './binders.js';
import { joinMapped } from './names.js';
import { additiveText } from './additive.js';
import type { Scope } from './scopes.js';
import type { LeanFile } from './state.js';

/** A text piece: a token range (optionally with the name token replaced) or literal text. */
export type Piece = { a: number; b: number; nameIdx?: number; text?: undefined } | { text: string };

export interface Proto {
  name: string;
  /** Short name as written (for the statement's name token). */
  short: string;
  kind: DeclKind;
  args: Binder[];
  goal: Piece;
  stmt: Piece[];
  doc?: string;
  attrs?: string[];
  refs: string[];
  origin?: string;
  ra: number;
  rb: number;
}

/** Translate identifier-like words and symbols of plain text for an additive twin. */
export function translateWords(text: string): string {
  const res = lex(text);
  return additiveText(res.toks, 0, res.toks.length);
}

function piece(f: LeanFile, p: Piece, additive: boolean, short: string): string {
  if (p.text !== undefined) return additive ? translateWords(p.text) : p.text;
  if (p.b <= p.a) return '';
  const nameIdx = p.nameIdx ?? -1;
  if (additive) return additiveText(f.toks, p.a, p.b, nameIdx, short);
  return joinMapped(f.toks, p.a, p.b, (toks, i) => (i === nameIdx ? short : plainTok(toks, i)));
}

function range(f: LeanFile, a: number, b: number): Range {
  const toks = f.toks;
  const first = toks[Math.min(a, toks.length - 1)];
  const last = toks[Math.max(Math.min(b, toks.length) - 1, 0)];
  return {
    start: offsetToPos(f.lineStarts, first ? first.s : 0),
    end: offsetToPos(f.lineStarts, last ? last.e : 0),
  };
}

export function toRecord(f: LeanFile, p: Proto, scope: Scope, additive: boolean): ExtractedDecl {
  const d: ExtractedDecl = {
    name: p.name,
    kind: p.kind,
    lang: 'lean',
    module: f.module,
    file: f.file,
    range: range(f, p.ra, p.rb),
    args: p.args.map((b) => renderBinder(b, additive)),
    goal: piece(f, p.goal, additive, p.short),
    statement: p.stmt.map((x) => piece(f, x, additive, p.short)).join(' '),
    refs: p.refs,
    scope,
  };
  if (p.doc) d.doc = p.doc;
  if (p.attrs) d.attrs = p.attrs;
  if (p.origin !== undefined) d.origin = p.origin;
  return d;
}
