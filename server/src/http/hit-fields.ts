/**
 * How a premise is shown to the search clients' contracts (loogle.ts,
 * leansearch.ts, statesearch.ts): its statement as Loogle's `type` prints it
 * (the binders and the conclusion, without the name: `{x : ℝ} (h : 0 ≤ x) : √x * √x = x`,
 * Lean's signature with the name left out), on one line.
 */
import type { PremiseInfo } from '../engine/types.js';

/** Runs of whitespace (line breaks of a long statement included) as one space. */
export const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** The binders and the conclusion, as Loogle's `type` (no name, no `∀`): `(a b : ℕ) : a + b = b + a`. */
export function signatureOf(p: Pick<PremiseInfo, 'args' | 'goal'>): string {
  const binders = oneLine(p.args.join(' '));
  const goal = oneLine(p.goal);
  return binders ? `${binders} : ${goal}` : `: ${goal}`;
}

/** A dotted name's components (`Real.sqrt` → [`Real`, `sqrt`]); a `«…»` component keeps its dots. */
export function nameComponents(name: string): string[] {
  const out: string[] = [];
  let at = 0;
  let quoted = false;
  for (let i = 0; i < name.length; i++) {
    const c = name[i];
    if (c === '«') quoted = true;
    else if (c === '»') quoted = false;
    else if (c === '.' && !quoted) {
      out.push(name.slice(at, i));
      at = i + 1;
    }
  }
  out.push(name.slice(at));
  return out.filter((c) => c.length > 0);
}
