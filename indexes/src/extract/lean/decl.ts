/**
 * One declaration command (`theorem`, `def`, `structure`, `inductive`, …): its
 * record with the section variables its statement uses, its members, the names
 * its attributes generate and its `to_additive` twins.
 */
import type { DeclKind, ExtractedDecl } from '../record.js';
import { T } from './lex.js';
import { effectiveVars, idsIn, selectVariables } from './binders.js';
import { instanceName } from './names.js';
import { boundInBody, extractRefs } from './refs.js';
import { modifiers, readHeader } from './header.js';
import { ctorMembers, structMembers } from './members.js';
import { additiveTwins, attrGenerated } from './generated.js';
import { toRecord, type Proto } from './records.js';
import type { Prefix } from './scopes.js';
import type { LeanFile } from './state.js';

export const DECL_KW: Record<string, DeclKind> = {
  theorem: 'theorem',
  lemma: 'lemma',
  def: 'def',
  abbrev: 'abbrev',
  instance: 'instance',
  structure: 'structure',
  class: 'class',
  inductive: 'inductive',
  axiom: 'axiom',
  opaque: 'opaque',
  irreducible_def: 'def',
};

/** Kinds whose body Lean's module system hides unless exposed (`abbrev`s are always exposed; a theorem's proof never matters). */
const BODY_HIDDEN = new Set<DeclKind>(['def', 'instance']);

export function decl(f: LeanFile, s: number, kwIdx: number, e: number, pending: Prefix | null): void {
  const toks = f.toks;
  const { doc, attrs } = modifiers(toks, s, kwIdx);
  const kw = toks[kwIdx].v;
  let kind = DECL_KW[kw];
  let inductiveLike = kind === 'inductive';
  let structLike = kind === 'structure' || kind === 'class';
  let hdr = kwIdx + 1;
  if (kw === 'class' && toks[hdr]?.k === T.Id && (toks[hdr].v === 'inductive' || toks[hdr].v === 'abbrev')) {
    inductiveLike = toks[hdr].v === 'inductive';
    structLike = false;
    hdr++;
  }
  const h = readHeader(f, hdr, e, kind, inductiveLike, structLike);
  const own = new Set<string>();
  for (const b of h.args) for (const n of b.names) own.add(n);
  // section variables used by the statement
  const mentionedList: string[] = [];
  for (const b of h.args) idsIn(toks, b.ra, b.rb, mentionedList);
  idsIn(toks, h.goalA, h.goalB, mentionedList);
  for (const [pa, pb] of h.parents) idsIn(toks, pa, pb, mentionedList);
  const mentioned = new Set(mentionedList.filter((n) => !own.has(n)));
  const vars = effectiveVars(f.scopes.allVars(pending));
  const includes = f.scopes.includes(pending);
  const args = [...selectVariables(vars, mentioned, includes), ...h.args];
  const bound = new Set(own);
  for (const v of vars) for (const n of v.names) bound.add(n);

  let short: string;
  if (h.nameIdx >= 0) short = toks[h.nameIdx].v;
  else if (kind === 'instance') short = instanceName(toks, h.goalA, h.goalB, bound);
  else {
    if (kw !== 'instance') f.warn(`${kw} without a name`, toks[kwIdx]);
    return;
  }
  const full = f.scopes.qualify(short);
  const scope = f.scopes.scope(full, pending);
  const body = h.term < e ? (toks[h.term].k === T.Bar ? h.term : h.term + 1) : e;
  let refs: string[] = [];
  if (!structLike && !inductiveLike) {
    boundInBody(toks, body, e, bound);
    refs = extractRefs(toks, body, e, bound, short);
  }
  const attrNames = attrs.map((a) => a.name);
  let stmtEnd = h.term;
  while (stmtEnd > kwIdx + 1 && toks[stmtEnd - 1].k === T.Doc) stmtEnd--;
  const goalEnd = Math.min(h.goalB, stmtEnd);
  const main: Proto = {
    name: full,
    short,
    kind,
    args,
    goal: { a: h.goalA, b: Math.max(h.goalA, goalEnd) },
    stmt: [{ a: kwIdx, b: stmtEnd, nameIdx: h.nameIdx }],
    doc,
    attrs: attrNames.length ? attrNames : undefined,
    refs,
    ra: s,
    rb: e,
  };
  const members: Proto[] = [];
  // loops, not push(...xs): a structure can have more fields than a call takes arguments
  if (structLike) for (const m of structMembers(f, main, h, e)) members.push(m);
  if (inductiveLike) for (const m of ctorMembers(f, main, h, e)) members.push(m);
  const protos = [main, ...members, ...attrGenerated(f, main, attrs, structLike, h.term, e)];
  const twins = additiveTwins(f, main, members, attrs, scope);
  const records = protos.map((p) => toRecord(f, p, scope, false));
  // Lean's module system: a definition's body is hidden unless exposed (`@[expose]`, here or on its section)
  if (f.moduleSystem && BODY_HIDDEN.has(kind) && !attrNames.includes('expose') && !f.scopes.exposed()) {
    // the declaration and its `@[to_additive]` twin (a generated member has no body of its own)
    for (const d of [records[0]!, ...twins]) if (BODY_HIDDEN.has(d.kind)) d.unexposed = true;
  }
  for (const d of records) f.decls.push(d);
  for (const d of twins) f.decls.push(d);
}
