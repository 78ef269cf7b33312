/**
 * The full name of the declaration the cursor is in, spelled as the index
 * spells it (Lean: with its namespaces; Isabelle: `Theory.fact`), so that a
 * search can exclude the theorem being proved: it cannot prove itself, and its
 * proof in the index (from an earlier build) must not vote for its premises.
 */
import type { Lang } from '../../../../indexes/src/extract/record.js';

const LEAN_DECL =
  /(?:^|\n)[ \t]*(?:@\[[^\]\n]*\][ \t\n]*)?(?:(?:private|protected|noncomputable|nonrec|partial|unsafe)\s+)*(?:theorem|lemma|def|abbrev|instance|example)\b(?:[ \t]+([^\s:({[⦃]+))?/g;
const LEAN_SCOPE = /(?:^|\n)[ \t]*(namespace|section|noncomputable section|end)\b[ \t]*([^\s-]*)/g;
const ISA_DECL = /(?:^|\n)[ \t]*(?:lemma|theorem|corollary|proposition)\s+([^\s:[]+)\s*(?:\[[^\]\n]*\])?\s*:/g;
const ISA_THEORY = /(?:^|\n)[ \t]*theory\s+"?([\w.'-]+)/;

function lastMatch(re: RegExp, text: string): RegExpExecArray | undefined {
  let last: RegExpExecArray | undefined;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) last = m;
  return last;
}

/** Namespaces open at the end of `text` (sections count as scopes without a name prefix). */
function leanNamespaces(text: string): string[] {
  const scopes: string[][] = [];
  LEAN_SCOPE.lastIndex = 0;
  for (let m = LEAN_SCOPE.exec(text); m; m = LEAN_SCOPE.exec(text)) {
    if (m[1] === 'namespace') scopes.push(m[2] ? m[2].split('.') : []);
    else if (m[1] === 'end') scopes.pop();
    else scopes.push([]);
  }
  return scopes.flat();
}

export function enclosingTheorem(text: string, offset: number, lang: Lang): string | undefined {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  if (lang === 'isabelle') {
    const m = lastMatch(ISA_DECL, before);
    const theory = ISA_THEORY.exec(before)?.[1];
    return m && theory ? `${theory}.${m[1]}` : undefined;
  }
  const m = lastMatch(LEAN_DECL, before);
  const name = m?.[1]; // `example` and anonymous instances have no name
  if (!m || !name) return undefined;
  if (name.startsWith('_root_.')) return name.slice('_root_.'.length);
  return [...leanNamespaces(before.slice(0, m.index)), name].join('.');
}
