/**
 * `theorem`/`lemma`/`corollary`/`proposition` (long and short statement forms,
 * named conclusions of unnamed theorems, `oops`) and `lemmas`/`theorems` fact lists.
 */
import type { DeclKind } from '../record.js';
import { CONTEXT_ELEMENTS } from './keywords.js';
import { splitPremises } from './props.js';
import { factListRefs, newLocals, RefSink } from './refs.js';
import { isSym, isWord, renderTokens, type Draft, type SpecReader } from './reader.js';

export function theorem(sr: SpecReader): Draft[] {
  const kw = sr.cmd.kw;
  const kind: DeclKind =
    kw === 'theorem' ? 'theorem' : kw === 'corollary' ? 'corollary' : kw === 'proposition' ? 'proposition' : 'lemma';
  let [i, locale] = sr.head(sr.cmd.start + 1);
  const d = sr.thmDecl(i);
  if (d) i = d.next;
  const end = sr.proofStart(i);
  const args: string[] = [];
  let groups: Array<{ name?: string; attrs: string[]; props: string[] }> = [];
  let obtains: string | undefined;

  const t = sr.tok(i);
  if (t && t.kind === 'ident' && CONTEXT_ELEMENTS.has(t.text)) {
    while (i < end) {
      const w = sr.toks[i]!;
      if (w.kind !== 'ident') {
        i++;
        continue;
      }
      if (w.text === 'fixes') {
        const [f, next] = sr.fixes(i + 1, end);
        args.push(...f);
        i = next;
      } else if (w.text === 'assumes' || w.text === 'defines') {
        const [g, next] = sr.namedProps(i + 1, end);
        for (const x of g) args.push(...x.props);
        i = Math.max(next, i + 1);
      } else if (w.text === 'shows') {
        const [g, next] = sr.namedProps(i + 1, end);
        groups.push(...g);
        i = Math.max(next, i + 1);
      } else if (w.text === 'obtains') {
        obtains = renderTokens(sr.toks, i + 1, end, false);
        i = end;
      } else i++;
    }
  } else {
    const [g, next] = sr.namedProps(i, end);
    groups = g;
    i = next;
    const ifArgs: string[] = [];
    const forArgs: string[] = [];
    while (i < end) {
      const w = sr.toks[i]!;
      if (isWord(w, 'if')) {
        const [ig, n2] = sr.namedProps(i + 1, end);
        for (const x of ig) ifArgs.push(...x.props);
        i = Math.max(n2, i + 1);
      } else if (isWord(w, 'for')) {
        const [f, n2] = sr.fixes(i + 1, end);
        forArgs.push(...f);
        i = Math.max(n2, i + 1);
      } else i++;
    }
    args.push(...forArgs, ...ifArgs);
  }

  const props = groups.flatMap((g) => g.props);
  const shape = (ps: string[], base: string[]): { args: string[]; goal: string } => {
    if (ps.length === 1) {
      const s = splitPremises(ps[0]!);
      return { args: [...base, ...s.args], goal: s.goal };
    }
    return { args: [...base], goal: ps.join('; ') };
  };

  // `oops` abandons the proof: no fact is stored
  for (let k = end; k < sr.cmd.end; k++) if (isWord(sr.toks[k], 'oops')) return [];
  const refs = () => sr.bodyRefs(sr.cmd.start + 1, end, sr.cmd.end);
  if (d?.name) {
    if (props.length === 0 && obtains === undefined) {
      sr.ctx.warn(`${kw} ${d.name}: no statement found`, sr.cmd.start);
      return [];
    }
    const sh = obtains !== undefined ? { args, goal: obtains } : shape(props, args);
    return [
      sr.draft(d.name, kind, {
        stmtEndTok: end,
        args: sh.args,
        goal: sh.goal,
        attrs: d.attrs,
        refs: refs(),
        locale,
      }),
    ];
  }
  // unnamed: named conclusions (`shows a: … and b: …`) still make facts
  const named = groups.filter((g) => g.name);
  if (named.length === 0) return [];
  const r = refs();
  return named.map((g) => {
    const sh = shape(g.props, args);
    return sr.draft(g.name!, kind, { stmtEndTok: end, args: sh.args, goal: sh.goal, attrs: g.attrs, refs: r, locale });
  });
}

export function lemmas(sr: SpecReader): Draft[] {
  let [i, locale] = sr.head(sr.cmd.start + 1);
  const t = sr.tok(i);
  if (!t || t.kind !== 'ident' || sr.isKeyword(t)) return [];
  const { attrs, next: k } = sr.optAttrs(i + 1);
  if (!isSym(sr.tok(k), '=')) return [];
  const sink = new RefSink(newLocals());
  const last = Math.max(factListRefs(sr.toks, k + 1, sr.cmd.end, sink), k + 1);
  return [sr.draft(t.text, 'lemma', { stmtEndTok: last, endTok: last, attrs, refs: sink.refs, locale })];
}
