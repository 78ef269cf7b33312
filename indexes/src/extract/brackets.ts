/** Bracket matching over a token list, shared by the Lean and Isabelle lexers' users. */

/**
 * Index of the token that closes the group opened at `i`: depth rises on `opens`,
 * falls on `closes`, and the first fall back to 0 ends the group. Bounded by
 * `limit`; `limit - 1` when the group is not closed before it.
 */
export function matchGroup<T>(toks: readonly T[], i: number, limit: number, opens: (t: T) => boolean, closes: (t: T) => boolean): number {
  let depth = 0;
  for (let j = i; j < limit; j++) {
    const t = toks[j]!;
    if (opens(t)) depth++;
    else if (closes(t)) {
      depth--;
      if (depth <= 0) return j;
    }
  }
  return limit - 1;
}
