/** The nearest valid word to a mistyped one (an option or a command), for a usage error's "did you mean …?", and node:util's parse errors as one plain line. */
import { parseArgs, type ParseArgsConfig } from 'node:util';

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

/** The candidate nearest to `word` when it is near enough to be a typo of it (about one edit in three letters; none for a single letter); the first of equals. */
export function nearest(word: string, candidates: Iterable<string>): string | undefined {
  if (word.length < 2) return undefined;
  const within = Math.max(1, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const dist = editDistance(word, c);
    if (dist <= within && dist < bestDistance) [best, bestDistance] = [c, dist];
  }
  return best;
}

/** `unknown option --indx (did you mean --index?)`; `known`: the valid options, dashes included (a long option is compared with the long ones, by name). */
export function unknownOption(raw: string, known: Iterable<string>): string {
  const long = [...known].filter((k) => k.startsWith('--'));
  const near = raw.startsWith('--') ? nearest(raw.slice(2), long.map((k) => k.slice(2))) : undefined;
  return `unknown option ${raw}${near ? ` (did you mean --${near}?)` : ''}`;
}

/** node:util's parse error as one line: an unknown option with the nearest valid one, a missing value plainly, not the parser's advice about positionals. */
export function parseErrorMessage(e: NodeJS.ErrnoException, argv: string[], options: NonNullable<ParseArgsConfig['options']>): string {
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const { tokens } = parseArgs({ args: argv, options, allowPositionals: true, strict: false, tokens: true });
    const unknown = tokens.find((t) => t.kind === 'option' && !Object.hasOwn(options, t.name));
    const known = Object.entries(options).flatMap(([name, o]) => [`--${name}`, ...(o.short ? [`-${o.short}`] : [])]);
    if (unknown?.kind === 'option') return unknownOption(unknown.rawName, known);
  }
  const missing = /^Option '(?:-\w, )?(--[\w-]+) <value>' argument missing/.exec(e.message);
  if (missing) return `${missing[1]} needs a value`;
  return e.message.replace(/\. To specify a positional argument.*$/s, '');
}
