/**
 * Where a trial's step goes: the cursor's step is the rest of its line, from the
 * line's indentation (or from just after a `by` before the cursor) to the line's
 * end; a candidate replaces it there. On a blank line the step takes the
 * indentation of the line above (one level deeper under a line ending in `by`).
 * Pure: text in, text out; columns are UTF-16 code units.
 */
export interface StepPlace {
  line: number;
  /** The replaced columns of the line: [start, end). */
  start: number;
  end: number;
  /** The line's text before the step once it is in place (indentation, or up to `by `). */
  lead: string;
}

export function stepPlace(text: string, pos: { line: number; character: number }): StepPlace | undefined {
  const lines = text.split('\n');
  if (!Number.isInteger(pos.line) || pos.line < 0 || pos.line >= lines.length) return undefined;
  const line = lines[pos.line]!.replace(/\r$/, '');
  if (/^\s*(--|\/-)/.test(line)) return undefined;
  const before = line.slice(0, Math.max(0, Math.min(pos.character, line.length)));
  const by = /^(.*\bby\s+)/.exec(before);
  if (by) return { line: pos.line, start: by[1]!.length, end: line.length, lead: by[1]! };
  // a declaration's own line (its header, or `… := by` with the cursor before the step) is no step
  if (/^\s*(@\[|theorem\b|lemma\b|example\b|def\b|instance\b|abbrev\b|private\b|protected\b)/.test(line) || /\bby\s*$/.test(line)) return undefined;
  if (line.trim() === '') {
    let indent = '';
    for (let i = pos.line - 1; i >= 0; i--) {
      const above = lines[i]!.replace(/\r$/, '');
      if (above.trim() === '') continue;
      indent = /^\s*/.exec(above)![0] + (/\bby\s*$/.test(above) ? '  ' : '');
      break;
    }
    return { line: pos.line, start: 0, end: line.length, lead: indent };
  }
  const indent = /^\s*/.exec(line)![0];
  return { line: pos.line, start: indent.length, end: line.length, lead: indent };
}

/** What replaces columns [start, end) of the step's line in the user's text. */
export function editText(place: StepPlace, step: string): string {
  return place.lead.slice(place.start) + step;
}

/** The text with `step` in place of the cursor's step (same line count). */
export function withStep(text: string, place: StepPlace, step: string): string {
  const lines = text.split('\n');
  const cr = lines[place.line]!.endsWith('\r') ? '\r' : '';
  lines[place.line] = place.lead + step + cr;
  return lines.join('\n');
}

/** The column just after `step` once it is in place (where the goals after it are asked). */
export function stepEnd(place: StepPlace, step: string): number {
  return place.lead.length + step.length;
}
