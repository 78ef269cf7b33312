/**
 * Work written as a generator of steps (`yield` where other callers may have a
 * turn) runs in one piece (`runSteps`: the CLI, an index build) or on a thread
 * that serves others (`runStepsAsync`: the language server, where the source walk
 * and the lakefile read of the automatic index and the workspace watcher run
 * beside the editor's requests), giving the event loop a turn whenever a slice of
 * work is used up. One code path, so both give the same result. Test:
 * test/unit/lakefile.test.ts ("the walk gives the server's thread back").
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Work that may pause at each `yield`, then ends with a `T`. */
export type Steps<T = void> = Generator<void, T, void>;

/** Work between two turns given to other callers (ms). */
export const STEP_SLICE_MS = 8;

/** Runs `steps` to the end in one piece. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Runs `steps` to the end, giving the event loop a turn each time `sliceMs` of work is used up (0: at every step). */
export async function runStepsAsync<T>(steps: Steps<T>, sliceMs = STEP_SLICE_MS): Promise<T> {
  let end = performance.now() + sliceMs;
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    if (performance.now() >= end) {
      await nextTurn();
      end = performance.now() + sliceMs;
    }
  }
}
