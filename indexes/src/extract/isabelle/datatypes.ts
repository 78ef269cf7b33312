/** `datatype` and its kin: one type record per specification, constructors as its goal. */
import { DIAGNOSTIC_COMMANDS, PROOF_START } from './keywords.js';
import { collapse } from './props.js';
import { isSym, isWord, type Draft, type SpecReader } from './reader.js';

export function datatype(sr: SpecReader): Draft[] {
  let [i] = sr.head(sr.cmd.start + 1);
  const specs: Array<{ name: string; ctors: string; from: number; to: number }> = [];
  while (i < sr.cmd.end) {
    const from = i;
    let name: string | undefined;
    while (i < sr.cmd.end && !isSym(sr.tok(i), '=')) {
      const t = sr.tok(i)!;
      if (isSym(t, '(')) i = sr.close(i);
      else if (t.kind === 'ident' || t.kind === 'str') {
        if (sr.isKeyword(t)) break;
        name = sr.nameAt(i) ?? name;
      }
      i++;
    }
    if (!isSym(sr.tok(i), '=') || !name) break;
    const cFrom = i + 1;
    i = cFrom;
    while (i < sr.cmd.end) {
      const t = sr.tok(i)!;
      if (
        t.kind === 'ident' &&
        (t.text === 'and' || t.text === 'for' || t.text === 'where' || PROOF_START.has(t.text) || DIAGNOSTIC_COMMANDS.has(t.text))
      ) {
        break;
      }
      if (isSym(t, '(')) i = sr.close(i);
      i++;
    }
    specs.push({ name, ctors: collapse(sr.slice(cFrom, i).replace(/"/g, '')), from, to: i });
    if (isWord(sr.tok(i), 'and')) i++;
    else break;
  }
  if (specs.length === 0) {
    sr.ctx.warn(`${sr.cmd.kw}: cannot parse the type specification`, sr.cmd.start);
    return [];
  }
  // trailing `for map: f rel: g` / `where "…" | "…"` clauses belong to the statement
  let end = specs[specs.length - 1]!.to;
  if (isWord(sr.tok(end), 'for')) {
    end++;
    while (sr.tok(end)?.kind === 'ident' && isSym(sr.tok(end + 1), ':') && sr.tok(end + 2)?.kind === 'ident') end += 3;
  }
  if (isWord(sr.tok(end), 'where')) {
    end++;
    for (;;) {
      const d = sr.thmDecl(end);
      const [ps, next] = sr.props(d ? d.next : end, sr.cmd.end);
      if (ps.length === 0) break;
      end = next;
      if (isSym(sr.tok(end), '|')) end++;
      else break;
    }
  }
  return specs.map((s) => sr.draft(s.name, 'definition', { stmtEndTok: end, endTok: end, goal: s.ctors }));
}
