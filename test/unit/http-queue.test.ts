import { describe, expect, it } from 'vitest';
import { WorkQueue } from '../../server/src/http/queue.js';

describe('WorkQueue (HTTP admission)', () => {
  it('runs maxActive at once, queues maxQueued in order, refuses the rest', async () => {
    const q = new WorkQueue(1, 2);
    const first = await q.enter()!;
    const order: number[] = [];
    const waiting = [q.enter()!, q.enter()!].map((p, i) => p.then((release) => (order.push(i), release)));
    expect(q.enter()).toBeUndefined();
    expect(q.load).toEqual({ active: 1, queued: 2 });
    first!();
    first!(); // a second release changes nothing
    const second = await waiting[0]!;
    expect(q.load).toEqual({ active: 1, queued: 1 });
    second!();
    (await waiting[1]!)!();
    expect(order).toEqual([0, 1]);
    expect(q.load).toEqual({ active: 0, queued: 0 });
  });

  it('lets a waiter whose client left give up its place', async () => {
    const q = new WorkQueue(1, 1);
    const first = await q.enter()!;
    const gone = new AbortController();
    const left = q.enter(gone.signal)!;
    expect(q.enter()).toBeUndefined();
    gone.abort();
    expect(await left).toBeUndefined();
    const next = q.enter()!;
    expect(next).toBeDefined();
    first!();
    expect(typeof (await next)).toBe('function');
  });

  it('lets a request entered first (a prover’s) wait ahead of the others, behind earlier such ones', async () => {
    const q = new WorkQueue(1, 4);
    const busy = await q.enter()!;
    const order: string[] = [];
    const wait = (name: string, first: boolean) => q.enter(undefined, first)!.then((release) => (order.push(name), release!()));
    const all = [wait('search 1', false), wait('search 2', false), wait('prover 1', true), wait('prover 2', true)];
    busy!();
    await Promise.all(all);
    expect(order).toEqual(['prover 1', 'prover 2', 'search 1', 'search 2']);
  });
});
