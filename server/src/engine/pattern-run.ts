/**
 * What bounds one pattern search (docs/ranking.md, "Pattern search"): a time
 * budget for the whole query (not per premise: a per-premise bound times tens of
 * thousands of candidates once took minutes), slices of work between which the
 * search gives the event loop back (other requests, signals), and a gate that lets
 * at most a few pattern searches work at once, so that many pattern callers
 * cannot take every turn from the others.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Default time budget of one pattern search (ms of its own work, from when it passes the gate). */
export const PATTERN_BUDGET_MS = 2_000;
/** Work between two turns given to other callers (ms). */
export const SLICE_MS = 4;
/** Pattern searches that work at once per engine; the others wait their turn in arrival order. */
export const PATTERN_SEARCHES_AT_ONCE = 1;

/** One pattern search's clock: its budget, and its slices. */
export class PatternRun {
  private readonly deadline: number;
  private sliceEnd: number;
  /** Set when the budget ran out before every candidate was checked. */
  partial = false;

  constructor(
    budgetMs: number,
    private readonly now: () => number = performance.now.bind(performance),
  ) {
    const t = now();
    this.deadline = t + Math.max(0, budgetMs);
    this.sliceEnd = t + SLICE_MS;
  }

  /** Whether the budget is spent (then the search is partial). */
  spent(): boolean {
    if (this.partial) return true;
    if (this.now() >= this.deadline) this.partial = true;
    return this.partial;
  }

  /** Gives other callers a turn when this slice is used up; false when the budget is spent. */
  async tick(): Promise<boolean> {
    if (this.spent()) return false;
    if (this.now() < this.sliceEnd) return true;
    await nextTurn();
    this.sliceEnd = this.now() + SLICE_MS;
    return !this.spent();
  }
}

/** At most `n` holders at once, the others served in arrival order. */
export class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly n: number = PATTERN_SEARCHES_AT_ONCE) {}

  /** Resolves with the release to call when done, once a place is free. */
  async enter(): Promise<() => void> {
    if (this.active < this.n) this.active++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    };
  }
}
