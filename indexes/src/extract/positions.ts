/** Offsets in a source text ↔ 0-based LSP positions (line, UTF-16 character), for every extractor. */

/** Offsets at which each line starts. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

export function offsetToPos(starts: readonly number[], off: number): { line: number; character: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= off) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo, character: off - starts[lo]! };
}
