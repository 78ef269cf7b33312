/** The nearest valid word to a mistyped one (an option or a command), for a usage error's "did you mean …?". */

/** Edit distance where swapping two neighbouring letters counts one (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/** The candidate nearest to `word` when it is near enough to be a typo of it (about one edit in three letters); the first of equals. */
export function nearest(word: string, candidates: Iterable<string>): string | undefined {
  const within = Math.max(1, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const dist = editDistance(word, c);
    if (dist <= within && dist < bestDistance) [best, bestDistance] = [c, dist];
  }
  return best;
}

/** `unknown option --indx (did you mean --index?)`; `known`: the valid options, dashes included. */
export function unknownOption(raw: string, known: Iterable<string>): string {
  const near = nearest(raw, known);
  return `unknown option ${raw}${near ? ` (did you mean ${near}?)` : ''}`;
}
