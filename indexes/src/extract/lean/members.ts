/**
 * Names a structure, class or inductive type declares besides itself: `extends`
 * parents (`toParent`), fields, the structure constructor, inductive constructors.
 */
import { T } from './lex.js';
import { renderBinder, syntheticBinder, type Binder } from './binders.js';
import { parseCtors, parseFields, untilDeriving, type Member } from './struct.js';
import type { Header } from './header.js';
import type { Proto } from './records.js';
import type { LeanFile } from './state.js';

/** The type applied to its non-instance parameters: `Foo α β` for `structure Foo (α β) [inst]`. */
function appliedType(main: Proto): string {
  const params: string[] = [];
  for (const b of main.args) if (!b.inst) params.push(...b.names);
  return [main.short, ...params].join(' ');
}

function selfBinder(main: Proto, inst: boolean): Binder {
  const ty = appliedType(main);
  return syntheticBinder(inst ? `[self : ${ty}]` : `(self : ${ty})`, ['self'], inst);
}

export function structMembers(f: LeanFile, main: Proto, h: Header, e: number): Proto[] {
  const toks = f.toks;
  const out: Proto[] = [];
  const self = selfBinder(main, main.kind === 'class');
  const withSelf = [...main.args, self];
  for (const [pa, pb] of h.parents) {
    let name: string;
    let ga = pa;
    if (toks[pa].k === T.Id && toks[pa + 1]?.k === T.Colon && pa + 1 < pb) {
      name = toks[pa].v;
      ga = pa + 2;
    } else {
      const head = toks[pa].k === T.Id ? toks[pa].v : '';
      if (!head) continue;
      name = 'to' + head.slice(head.lastIndexOf('.') + 1);
    }
    out.push({
      name: `${main.name}.${name}`,
      short: name,
      kind: 'field',
      args: withSelf,
      goal: { a: ga, b: pb },
      stmt: [{ text: name }, { text: ':' }, { a: ga, b: pb }],
      refs: [],
      origin: main.name,
      ra: pa,
      rb: pb,
    });
  }
  let fields: Member[] = [];
  let ctorName: string | undefined;
  let ctorDoc: string | undefined;
  const termTok = toks[h.term];
  if (h.term < e && (termTok.k === T.Assign || (termTok.k === T.Id && termTok.v === 'where'))) {
    const fp = parseFields(toks, h.term + 1, untilDeriving(toks, h.term + 1, e));
    fields = fp.fields;
    ctorName = fp.ctorName;
    ctorDoc = fp.ctorDoc;
  }
  for (const fl of fields) {
    out.push({
      name: `${main.name}.${fl.name}`,
      short: fl.name,
      kind: 'field',
      args: [...withSelf, ...fl.binders],
      goal: { a: fl.typeA, b: fl.typeB },
      stmt: [{ text: fl.name }, ...fl.binders.map((b) => ({ text: renderBinder(b) })), { text: ':' }, { a: fl.typeA, b: fl.typeB }],
      doc: fl.doc,
      refs: [],
      origin: main.name,
      ra: fl.a,
      rb: fl.b,
    });
  }
  const ctor = ctorName ?? 'mk';
  const fieldBinders: Binder[] = fields.map((fl) => ({
    open: '(',
    close: ')',
    names: [fl.name],
    ra: fl.typeA - 1,
    rb: fl.typeB,
    toks,
    inst: false,
    typeIds: [],
    untyped: false,
  }));
  out.push({
    name: `${main.name}.${ctor}`,
    short: ctor,
    kind: 'constructor',
    args: [...main.args, ...fieldBinders],
    goal: { text: appliedType(main) },
    stmt: [{ text: `${ctor} ::` }],
    doc: ctorDoc,
    refs: [],
    origin: main.name,
    ra: main.ra,
    rb: main.rb,
  });
  return out;
}

export function ctorMembers(f: LeanFile, main: Proto, h: Header, e: number): Proto[] {
  const toks = f.toks;
  const defGoal = appliedType(main);
  return parseCtors(toks, h.term, untilDeriving(toks, h.term, e)).map((c) => ({
    name: `${main.name}.${c.name}`,
    short: c.name,
    kind: 'constructor' as const,
    args: [...main.args, ...c.binders],
    goal: c.typeB > c.typeA ? { a: c.typeA, b: c.typeB } : { text: defGoal },
    stmt: [{ a: c.nameIdx, b: c.typeB }],
    doc: c.doc,
    refs: [],
    origin: main.name,
    ra: c.a,
    rb: c.b,
  }));
}
