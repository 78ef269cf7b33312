/** Length-sorted batching: fewer pad tokens per batch, results returned in the caller's order. */

/**
 * Run `run` over `items` in batches of at most `batchSize`, items sorted by `length` (descending)
 * so each batch holds similar lengths; returns results in the original order.
 */
export async function runSortedBatches<T, R>(
  items: T[],
  length: (item: T) => number,
  batchSize: number,
  run: (batch: T[]) => Promise<R[]>,
): Promise<R[]> {
  const lengths = items.map(length);
  const order = items.map((_, i) => i).sort((a, b) => lengths[b]! - lengths[a]! || a - b);
  const out = new Array<R>(items.length);
  for (let start = 0; start < order.length; start += batchSize) {
    const idx = order.slice(start, start + batchSize);
    const res = await run(idx.map((i) => items[i]!));
    if (res.length !== idx.length) {
      throw new Error(`batch returned ${res.length} results for ${idx.length} inputs`);
    }
    idx.forEach((i, j) => (out[i] = res[j]!));
  }
  return out;
}

/** A FIFO lock so concurrent callers do not oversubscribe one ONNX session. */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<R>(fn: () => Promise<R>): Promise<R> {
    const next = this.tail.then(fn);
    this.tail = next.catch(() => undefined);
    return next;
  }
}
