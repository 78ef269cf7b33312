/**
 * Constants and their defining facts: `definition`/`abbreviation`, `fun` and its
 * kin, `inductive` (with named rules), `inductive_cases`/`inductive_simps`,
 * `axiomatization`, `lift_definition`.
 */
import type { DeclKind } from '../record.js';
import { isText, tokenBody } from './lexer.js';
import { normaliseProp, splitPremises } from './props.js';
import { isabelleToUnicode } from '../symbols.js';
import { isSym, isWord, type Draft, type SpecReader } from './reader.js';

const HEAD_RE = /^[\s(]*([\p{L}][\p{L}\p{N}_'.₀-₉]*)/u;
/** Head constant of a definition's left-hand side `c x y = …`, unless it is written infix. */
const DEF_HEAD_RE = /^([\p{L}][\p{L}\p{N}_'.₀-₉]*)\s*([^\s])?/u;
function definedConstant(eq: string): string | undefined {
  const m = DEF_HEAD_RE.exec(eq);
  if (!m) return undefined;
  const next = m[2];
  if (next === undefined || next === '=' || next === '≡' || /[\p{L}\p{N}_(\[{'"?‹]/u.test(next)) return m[1];
  return undefined;
}

export function definition(sr: SpecReader): Draft[] {
  const kw = sr.cmd.kw;
  let [i, locale] = sr.head(sr.cmd.start + 1);
  let name: string | undefined;
  let typed: string | undefined;
  // decl form: `c :: T (mixfix) where`
  if (!sr.thmDecl(i)) {
    const c = sr.constDecl(i);
    if (c && (isWord(sr.tok(c[1]), 'where') || c[0][0]!.typed !== undefined)) {
      // `c :: T (mixfix) where`, or old syntax without `where`
      ({ name, typed } = c[0][0]!);
      i = isWord(sr.tok(c[1]), 'where') ? c[1] + 1 : c[1];
    }
  }
  const d = sr.thmDecl(i);
  if (d) i = d.next;
  const [props, next] = sr.props(i, sr.cmd.end);
  if (props.length === 0) {
    sr.ctx.warn(`${kw}${name ? ' ' + name : ''}: no defining proposition`, sr.cmd.start);
    return [];
  }
  let end = next;
  if (isWord(sr.tok(end), 'for')) end = sr.fixes(end + 1, sr.cmd.end)[1];
  const goal = props[0]!;
  // without a declaration the fact name (`foo_def: …`) or the head constant names it;
  // overloaded instance definitions like `"0 = …"` have neither and are skipped
  if (!name) name = d?.name;
  if (!name) {
    const head = definedConstant(splitPremises(goal).goal);
    if (!head) return [];
    // overloaded definitions in `instantiation T :: c` are named `c_T` (fact `c_T_def`)
    name = sr.cmd.instType ? `${head}_${sr.cmd.instType}` : head;
  }
  return [
    sr.draft(name, 'definition', {
      stmtEndTok: end,
      endTok: end,
      args: typed ? [typed] : [],
      goal,
      attrs: d?.attrs ?? [],
      locale,
    }),
  ];
}

export function fun(sr: SpecReader): Draft[] {
  const kw = sr.cmd.kw;
  const { consts, locale, next } = sr.constHeader();
  let i = next;
  if (consts.length === 0 || !isWord(sr.tok(i), 'where')) {
    sr.ctx.warn(`${kw}${consts[0] ? ' ' + consts[0].name : ''}: expected \`where\``, sr.cmd.start);
    return [];
  }
  const body = sr.clauses(i + 1);
  i = body.next;
  const eqs = body.clauses.flatMap((c) => c.props);
  if (eqs.length === 0) {
    sr.ctx.warn(`${kw} ${consts[0]!.name}: no equations`, sr.cmd.start);
    return [];
  }
  const stmtEnd = i;
  const hasProof = kw === 'function' || kw === 'nominal_primrec' || kw === 'corecursive' || kw === 'primcorecursive';
  const endTok = hasProof ? sr.cmd.end : stmtEnd;
  const refs = hasProof ? sr.bodyRefs(sr.cmd.start + 1, stmtEnd, sr.cmd.end) : [];
  const heads = eqs.map((e) => HEAD_RE.exec(splitPremises(e).goal)?.[1]);
  return consts.map((c) => {
    let mine = consts.length === 1 ? eqs : eqs.filter((_, k) => heads[k] === c.name);
    if (mine.length === 0) mine = eqs;
    return sr.draft(c.name, 'fun', {
      stmtEndTok: stmtEnd,
      endTok,
      args: c.typed ? [c.typed] : [],
      goal: mine.join('; '),
      refs,
      locale,
    });
  });
}

export function inductive(sr: SpecReader): Draft[] {
  const kw = sr.cmd.kw;
  const { consts: preds, locale, next } = sr.constHeader();
  let i = next;
  if (preds.length === 0) {
    sr.ctx.warn(`${kw}: no predicate name`, sr.cmd.start);
    return [];
  }
  let rules: Array<{ name?: string; attrs: string[]; prop: string; from: number; to: number }> = [];
  if (isWord(sr.tok(i), 'where')) {
    const body = sr.clauses(i + 1);
    rules = body.clauses.map((c) => ({ ...c, prop: c.props.join('; ') }));
    i = body.next;
  }
  if (isWord(sr.tok(i), 'monos')) {
    i++;
    while (i < sr.cmd.end && sr.tok(i)!.kind === 'ident' && !sr.isKeyword(sr.tok(i))) i++;
  }
  const stmtEnd = i;
  const out: Draft[] = preds.map((p) =>
    sr.draft(p.name, 'definition', {
      stmtEndTok: stmtEnd,
      endTok: stmtEnd,
      args: p.typed ? [p.typed] : [],
      goal: rules.map((r) => r.prop).join('; '),
      locale,
    }),
  );
  for (const r of rules) {
    if (!r.name) continue;
    const sp = splitPremises(r.prop);
    const head = HEAD_RE.exec(sp.goal)?.[1];
    const origin = preds.find((p) => p.name === head)?.name ?? preds[0]!.name;
    out.push(
      sr.draft(r.name, 'lemma', {
        startTok: r.from,
        endTok: r.to,
        stmtEndTok: r.to,
        args: sp.args,
        goal: sp.goal,
        attrs: r.attrs,
        origin,
        locale,
      }),
    );
  }
  return out;
}

/** `inductive_cases` / `inductive_simps`: named facts from propositions. */
export function namedFacts(sr: SpecReader, kind: DeclKind): Draft[] {
  const [start, locale] = sr.head(sr.cmd.start + 1);
  const out: Draft[] = [];
  for (const c of sr.clauses(start, 'and').clauses) {
    if (!c.name) continue;
    const sh = c.props.length === 1 ? splitPremises(c.props[0]!) : { args: [], goal: c.props.join('; ') };
    out.push(sr.draft(c.name, kind, { startTok: c.from, endTok: c.to, stmtEndTok: c.to, args: sh.args, goal: sh.goal, attrs: c.attrs, locale }));
  }
  return out;
}

export function axiomatization(sr: SpecReader): Draft[] {
  let i = sr.cmd.start + 1;
  while (i < sr.cmd.end && !isWord(sr.tok(i), 'where')) {
    if (isSym(sr.tok(i), '(')) i = sr.close(i);
    i++;
  }
  if (i >= sr.cmd.end) return [];
  sr.cmd = { ...sr.cmd, start: i };
  return namedFacts(sr, 'axiom');
}

export function liftDefinition(sr: SpecReader): Draft[] {
  let [i, locale] = sr.head(sr.cmd.start + 1);
  const c = sr.constDecl(i);
  if (!c) {
    sr.ctx.warn('lift_definition: no constant name', sr.cmd.start);
    return [];
  }
  const { name, typed } = c[0][0]!;
  i = c[1];
  let goal = '';
  if (isWord(sr.tok(i), 'is')) {
    i++;
    const t = sr.tok(i);
    if (t) {
      goal = isText(t) ? normaliseProp(tokenBody(t)) : isabelleToUnicode(t.text);
      i++;
    }
  }
  if (isWord(sr.tok(i), 'parametric')) {
    i++;
    while (i < sr.cmd.end && sr.tok(i)!.kind === 'ident' && !sr.isKeyword(sr.tok(i))) i++;
  }
  const refs = sr.bodyRefs(sr.cmd.start + 1, i, sr.cmd.end);
  return [sr.draft(name, 'definition', { stmtEndTok: i, args: typed ? [typed] : [], goal, refs, locale })];
}
