/**
 * How a premise is shown to the search clients' contracts (loogle.ts,
 * leansearch.ts, statesearch.ts): its statement as Loogle's `type` prints it
 * (the binders and the conclusion, without the name: `{x : ℝ} (h : 0 ≤ x) : √x * √x = x`,
 * Lean's signature with the name left out), on one line.
 */
import type { PremiseInfo } from '../engine/types.js';

/** Runs of whitespace (line breaks of a long statement included) as one space. */
export const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** Kinds whose declaration is a type former: its type ends in a sort (`AddMonoid (M : Type u) : Type u`). */
const TYPE_FORMERS = new Set(['structure', 'class', 'inductive']);

/**
 * The binders and the conclusion, as Loogle's `type` (no name, no `∀`): `(a b : ℕ) : a + b = b + a`.
 * Never an empty conclusion: where the source writes none (a `class` or `structure`
 * without `: Type u`, a `def` whose type Lean infers, an `alias` of a declaration
 * outside the index), the conclusion is `Sort _` for a type former and `_` otherwise,
 * Lean's own marks for what is not written.
 */
export function signatureOf(p: Pick<PremiseInfo, 'args' | 'goal'> & { kind?: string }): string {
  const binders = oneLine(p.args.join(' '));
  const goal = oneLine(p.goal) || (p.kind && TYPE_FORMERS.has(p.kind) ? 'Sort _' : '_');
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
