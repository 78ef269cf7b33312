/**
 * `export NS (a b)` and `alias a := b`: records that only name another
 * declaration (no binders, no goal); the resolver follows their `origin`, and
 * gives an alias its target's binders and conclusion (../alias-types.ts).
 */
import { T, matchClose } from './lex.js';
import { modifiers } from './header.js';
import { toRecord, type Proto } from './records.js';
import type { Prefix } from './scopes.js';
import type { LeanFile } from './state.js';

/**
 * `export NS (a b)`: records named `a`, `b` whose statement starts with `export`
 * and whose origin is `NS.a`; the resolver redirects references through them and
 * drops them from its output.
 */
export function exportCommand(f: LeanFile, s: number, j: number, e: number, pending: Prefix | null): void {
  const toks = f.toks;
  let ns = '';
  for (let m = j + 1; m < e; m++) {
    const t = toks[m];
    if (t.k === T.Id) ns = t.v;
    else if (t.k === T.Open && t.v === '(' && ns) {
      const close = matchClose(toks, m, e);
      for (let x = m + 1; x < close; x++) {
        if (toks[x].k !== T.Id) continue;
        const short = toks[x].v;
        pushAlias(f, short, `export ${ns} (${short})`, { refs: [], origin: `${ns}.${short}` }, s, e, pending);
      }
      m = close;
      ns = '';
    }
  }
}

export function aliasCommand(f: LeanFile, s: number, j: number, e: number, pending: Prefix | null): void {
  const toks = f.toks;
  const { doc, attrs: entries } = modifiers(toks, s, j);
  const attrs = entries.map((x) => x.name);
  const names: number[] = [];
  // `alias ⟨mp, mpr⟩ := h`: the two directions of an iff, `_` for one not named
  let directions: string | undefined;
  let i = j + 1;
  if (toks[i]?.k === T.Open && i < e) {
    const close = matchClose(toks, i, e);
    const written: string[] = [];
    for (let m = i + 1; m < close; m++) {
      if (toks[m].k !== T.Id) continue;
      written.push(toks[m].v);
      if (toks[m].v !== '_') names.push(m);
    }
    directions = `⟨${written.join(', ')}⟩`;
    i = close + 1;
  } else if (toks[i]?.k === T.Id && i < e) names.push(i++);
  if (toks[i]?.k !== T.Assign || toks[i + 1]?.k !== T.Id || i + 1 >= e) {
    f.warn('unparsed alias', toks[j]);
    return;
  }
  const target = toks[i + 1].v;
  for (const m of names) {
    const short = toks[m].v;
    pushAlias(f, short, `alias ${directions ?? short} := ${target}`, { doc, attrs: attrs.length ? attrs : undefined, refs: [target], origin: target }, s, e, pending);
  }
}

/** A record that only names another declaration (`export`, `alias`): no binders, no goal; the resolver follows `origin`. */
function pushAlias(
  f: LeanFile,
  short: string,
  stmt: string,
  extra: Pick<Proto, 'doc' | 'attrs' | 'refs' | 'origin'>,
  s: number,
  e: number,
  pending: Prefix | null,
): void {
  const full = f.scopes.qualify(short);
  const p: Proto = { name: full, short, kind: 'theorem', args: [], goal: { text: '' }, stmt: [{ text: stmt }], ...extra, ra: s, rb: e };
  f.decls.push(toRecord(f, p, f.scopes.scope(full, pending), false));
}
