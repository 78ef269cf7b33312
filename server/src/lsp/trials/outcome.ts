/**
 * A trial's verdict from what Lean said about the trial document: an error that
 * starts within the step's columns of its line means the step fails (with Lean's
 * message; one about the heartbeat limit means it ran out of time); otherwise the
 * goals after the step decide: none left closes the goal, some left is progress.
 * Errors elsewhere in the file are not the step's: the user's own, and the
 * "unsolved goals" Lean reports at the enclosing `by` while the proof is
 * unfinished. Without the goals after the step (Lean gave none) the verdict is
 * progress, never closes: a step is marked ✓ only on Lean's word. Pure.
 */
export type Outcome = 'closes' | 'progress' | 'fails' | 'timeout';

/** Best first: what `premise-lsp.try` sorts by. */
export const OUTCOME_ORDER: Readonly<Record<Outcome, number>> = { closes: 0, progress: 1, timeout: 2, fails: 3 };

export interface Verdict {
  outcome: Outcome;
  goals?: string[];
  message?: string;
}

interface Pos {
  line: number;
  character: number;
}
export interface LeanDiagnostic {
  range?: { start?: Pos; end?: Pos };
  fullRange?: { start?: Pos; end?: Pos };
  severity?: number;
  message?: unknown;
}

const HEARTBEATS = /maximum number of heartbeats|\(deterministic\) timeout/;
const MAX_MESSAGE = 2000;

/** The errors Lean reported within columns [from, to] of `line`. */
export function stepErrors(diags: readonly LeanDiagnostic[], line: number, from: number, to: number): LeanDiagnostic[] {
  return diags.filter((d) => {
    const s = d?.range?.start;
    if (!s || s.line !== line || typeof s.character !== 'number') return false;
    if (d.severity !== undefined && d.severity !== 1) return false;
    return s.character >= from && s.character <= to;
  });
}

/** The verdict, from the step's errors and the goals after it (`[]`: none left; undefined: unknown). */
export function judge(errors: readonly LeanDiagnostic[], goalsAfter: string[] | undefined): Verdict {
  if (errors.length > 0) {
    const message = errors.map((d) => String(d.message ?? '')).join('\n\n').slice(0, MAX_MESSAGE);
    return { outcome: HEARTBEATS.test(message) ? 'timeout' : 'fails', message };
  }
  if (goalsAfter === undefined) return { outcome: 'progress', message: 'no error; Lean gave no goals after the step' };
  if (goalsAfter.length === 0) return { outcome: 'closes' };
  return { outcome: 'progress', goals: goalsAfter };
}
