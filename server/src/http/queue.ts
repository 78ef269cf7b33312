/**
 * Bounded admission for the HTTP API: at most `maxActive` requests are worked on
 * at once, at most `maxQueued` more wait their turn in arrival order, and the
 * rest are refused at once (the server answers 503 with Retry-After). A waiting
 * request whose client goes away leaves the queue. A request entered `first`
 * (a prover's `/retrieve`) waits ahead of the others, behind earlier such ones.
 */
export type Release = () => void;

export class WorkQueue {
  private active = 0;
  private readonly waiting: { start(): void; first: boolean }[] = [];

  constructor(
    readonly maxActive: number,
    readonly maxQueued: number,
  ) {
    if (!(maxActive >= 1) || !(maxQueued >= 0)) throw new RangeError(`bad queue bounds ${maxActive}/${maxQueued}`);
  }

  /** Requests being worked on, and waiting. */
  get load(): { active: number; queued: number } {
    return { active: this.active, queued: this.waiting.length };
  }

  /**
   * Undefined when the queue is full. Otherwise a promise of the release to call
   * when done, once a slot is free; of undefined if `gone` aborts while waiting.
   */
  enter(gone?: AbortSignal, first = false): Promise<Release | undefined> | undefined {
    if (this.active < this.maxActive) {
      this.active++;
      return Promise.resolve(this.releaser());
    }
    if (this.waiting.length >= this.maxQueued) return undefined;
    return new Promise((resolve) => {
      const drop = () => {
        const i = this.waiting.indexOf(waiter);
        if (i >= 0) this.waiting.splice(i, 1);
        resolve(undefined);
      };
      const waiter = {
        first,
        start: () => {
          gone?.removeEventListener('abort', drop);
          resolve(this.releaser());
        },
      };
      if (gone?.aborted) return resolve(undefined);
      gone?.addEventListener('abort', drop, { once: true });
      const at = first ? this.waiting.findIndex((w) => !w.first) : -1;
      if (at < 0) this.waiting.push(waiter);
      else this.waiting.splice(at, 0, waiter);
    });
  }

  /** A release that hands the slot to the next waiter (or frees it), once. */
  private releaser(): Release {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.waiting.shift();
      if (next) next.start();
      else this.active--;
    };
  }
}
