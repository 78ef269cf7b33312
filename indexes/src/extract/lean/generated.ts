/**
 * Names attributes generate: `@[to_additive]` twins (on a declaration and through
 * `attribute [to_additive] foo`), `@[simps]` projections, `@[reassoc]` and
 * `@[ext]` lemmas.
 */
import type { ExtractedDecl } from '../record.js';
import { T, matchClose, plainTok } from './lex.js';
import { joinMapped, translateComponent, translateName, translateNamespace } from './names.js';
import { isSimps, isToAdditive, parseAttrList, parseSimps, parseToAdditive, type AttrEntry } from './attrs.js';
import { toRecord, translateWords, type Proto } from './records.js';
import type { Scope } from './scopes.js';
import type { LeanFile } from './state.js';

/** `name` (a `to_additive` argument) in the namespace of `src`, translated; `_root_.` names as written. */
function qualifyLike(src: string, name: string): string {
  if (name.startsWith('_root_.')) return name.slice(7);
  const dot = src.lastIndexOf('.');
  return dot < 0 ? name : `${translateNamespace(src.slice(0, dot))}.${name}`;
}

/** `@[simps]`, `@[reassoc]`, `@[ext]` lemmas. */
export function attrGenerated(f: LeanFile, main: Proto, attrs: AttrEntry[], structLike: boolean): Proto[] {
  const out: Proto[] = [];
  const gen = (suffix: string, refs: string[]): void => {
    const name = main.name + suffix;
    const short = main.short + suffix;
    out.push({
      name,
      short,
      kind: 'theorem',
      args: main.args,
      goal: { text: '' },
      stmt: [{ text: `theorem ${short}` }],
      refs,
      origin: main.name,
      ra: main.ra,
      rb: main.rb,
    });
  };
  for (const a of attrs) {
    if (isSimps(a.name)) {
      let projs = parseSimps(f.toks, a);
      if (projs.length === 0) {
        const goal = main.goal.text ?? joinMapped(f.toks, main.goal.a, main.goal.b, plainTok);
        if (goal.includes('≃')) projs = ['apply', 'symm_apply'];
        else if (goal.includes('⥤')) projs = ['obj', 'map'];
        else if (goal.includes('≅')) projs = ['hom', 'inv'];
        else if (/→|↪/.test(goal)) projs = ['apply'];
      }
      for (const p of projs) gen(`_${p}`, []);
    } else if (a.name === 'reassoc') gen('_assoc', [main.name]);
    else if (a.name === 'ext') {
      if (structLike) {
        gen('.ext', []);
        gen('.ext_iff', []);
      } else if (main.kind === 'theorem' || main.kind === 'lemma') gen('_iff', [main.name]);
    }
  }
  return out;
}

/** The `@[to_additive]` twins of a declaration (`main`) and its members, as records. */
export function additiveTwins(f: LeanFile, main: Proto, members: Proto[], attrs: AttrEntry[], scope: Scope): ExtractedDecl[] {
  const out: ExtractedDecl[] = [];
  const ta = attrs.find((a) => isToAdditive(a.name));
  if (!ta) return out;
  const info = parseToAdditive(f.toks, ta);
  if (info.existing) return out;
  const full = main.name;
  const mainName = info.name !== undefined ? qualifyLike(full, info.name) : translateName(full);
  if (mainName === full) return out;
  for (const p of [main, ...members]) {
    const isMain = p === main;
    const name = isMain ? mainName : `${mainName}.${translateComponent(p.name.slice(full.length + 1))}`;
    const twin: Proto = {
      ...p,
      name,
      short: isMain ? (info.name ?? translateName(main.short)) : p.short,
      doc: isMain ? info.doc : p.doc,
      attrs: isMain ? (info.attrs.length ? info.attrs : undefined) : p.attrs,
      refs: p.refs.map(translateName),
      origin: isMain ? full : p.origin !== undefined ? mainName : undefined,
    };
    out.push(toRecord(f, twin, scope, true));
  }
  return out;
}

/** `attribute [to_additive] foo` (attribute list and names in [a, b)): additive twins of declarations of this file. */
export function attributeCommand(f: LeanFile, a: number, b: number): void {
  const toks = f.toks;
  if (toks[a]?.k !== T.Open || toks[a].v !== '[') return;
  const close = matchClose(toks, a, b);
  const ta = parseAttrList(toks, a + 1, close).find((x) => isToAdditive(x.name));
  if (!ta) return;
  const info = parseToAdditive(toks, ta);
  if (info.existing) return;
  const ns = f.scopes.currentNs();
  for (let m = close + 1; m < b; m++) {
    const t = toks[m];
    if (t.k !== T.Id) continue;
    const cands = [t.v, ns ? `${ns}.${t.v}` : t.v];
    const src = f.firstOwnNamed(cands);
    if (!src) continue;
    const name = info.name !== undefined && b - close === 2 ? qualifyLike(src.name, info.name) : translateName(src.name);
    if (name === src.name || f.hasDecl(name)) continue;
    f.decls.push({
      ...src,
      name,
      args: src.args.map((x) => translateWords(x)),
      goal: translateWords(src.goal),
      statement: translateWords(src.statement),
      doc: info.doc,
      attrs: info.attrs.length ? info.attrs : undefined,
      refs: src.refs.map(translateName),
      origin: src.name,
    });
  }
}
