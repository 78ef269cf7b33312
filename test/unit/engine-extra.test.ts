/**
 * Per-search premises (`SearchOptions.extra`, the HTTP API's new premises): seen
 * by their own search only, never by another one, with a byte-bounded cache of
 * their vectors that never changes an answer.
 */
import { describe, expect, it } from 'vitest';
import { toInfos } from '../../indexes/src/graph.js';
import { embedPremises } from '../../indexes/src/embed.js';
import type { Encoder } from '../../models/src/encoder.js';
import { Engine } from '../../server/src/engine/engine.js';
import { Segment } from '../../server/src/engine/segment.js';
import { rec, RECORDS } from './engine-helpers.js';

/** A deterministic encoder: character trigrams hashed into 32 dimensions, L2-normalised; counts what it embeds. */
class TrigramEncoder implements Encoder {
  readonly dim = 32;
  readonly id = 'trigram-test';
  embedded = 0;
  async embed(texts: string[]): Promise<Float32Array[]> {
    this.embedded += texts.length;
    await new Promise((r) => setImmediate(r)); // a real encoder yields, so searches interleave
    return texts.map((t) => {
      const v = new Float32Array(this.dim);
      for (let i = 0; i + 3 <= t.length; i++) {
        let h = 2166136261;
        for (let j = i; j < i + 3; j++) h = Math.imul(h ^ t.charCodeAt(j), 16777619);
        v[(h >>> 0) % this.dim] += 1;
      }
      const n = Math.hypot(...v) || 1;
      return v.map((x) => x / n);
    });
  }
  async dispose(): Promise<void> {}
}

const sparseEngine = () => new Engine([Segment.fromInfos(toInfos(RECORDS))]);

async function denseEngine(extraCacheBytes?: number) {
  const enc = new TrigramEncoder();
  const infos = toInfos(RECORDS);
  const vectors = await embedPremises(infos, enc);
  enc.embedded = 0;
  const seg = Segment.fromInfos(infos, vectors, enc.dim, RECORDS.map((r) => r.refs));
  return { enc, engine: new Engine([seg], { encoder: enc, defaultMode: 'hybrid', extraCacheBytes }) };
}

const SUB = rec('My.sub_self', ['(a : α)'], 'a - a = 0');
const names = (hits: { name: string }[]) => hits.map((h) => h.name);

describe('per-search premises', () => {
  it('are seen by their own search only, and never stored', async () => {
    const e = sparseEngine();
    const size = e.size;
    const before = await e.search('⊢ x - x = 0', { k: 10 });
    expect(names(await e.search('⊢ x - x = 0', { k: 3, extra: [SUB] }))[0]).toBe('My.sub_self');
    expect(await e.search('⊢ x - x = 0', { k: 10 })).toEqual(before);
    expect(e.size).toBe(size);
    expect(e.lookup('My.sub_self')).toBeUndefined();
  });

  it('replace an indexed premise of the same name for their search only', async () => {
    const e = sparseEngine();
    const dot = rec('mul_comm', ['(a b : α)'], 'a ⬝ b = b ⬝ a');
    const mine = await e.search('⊢ x ⬝ y = y ⬝ x', { k: 10, extra: [dot] });
    expect(mine.filter((h) => h.name === 'mul_comm').map((h) => h.goal)).toEqual(['a ⬝ b = b ⬝ a']);
    const theirs = await e.search('⊢ x * y = y * x', { k: 10 });
    expect(theirs.filter((h) => h.name === 'mul_comm').map((h) => h.goal)).toEqual(['a * b = b * a']);
    expect(e.lookup('mul_comm')!.goal).toBe('a * b = b * a');
  });

  it('never reach a concurrent search that did not send them', async () => {
    const { engine: e } = await denseEngine();
    const q = '⊢ x - x = 0';
    const baseline = await e.search(q, { k: 10 });
    const runs = await Promise.all(
      Array.from({ length: 40 }, (_, i) => {
        const extra = i % 2 ? [] : [rec(`My.sub_self${i}`, ['(a : α)'], 'a - a = 0')];
        return e.search(q, { k: 10, extra }).then((hits) => ({ i, hits }));
      }),
    );
    for (const { i, hits } of runs) {
      if (i % 2) expect(hits).toEqual(baseline);
      else expect(names(hits).filter((n) => n.startsWith('My.'))).toEqual([`My.sub_self${i}`]);
    }
  });

  it('cache their vectors in an LRU bounded by bytes, which never changes an answer', async () => {
    const bound = 20 * 32 * 4; // twenty 32-float vectors, fewer with their keys
    const { enc, engine: e } = await denseEngine(bound);
    const batch = (j: number) => Array.from({ length: 8 }, (_, i) => rec(`My.p${j}_${i}`, ['(a : α)'], `a - a = ${j * 8 + i}`));
    // the first batch is embedded once, then served from the cache
    const q = '⊢ x - x = 0';
    const first = await e.search(q, { k: 10, extra: batch(0) });
    const embedded = enc.embedded;
    expect(embedded).toBe(1 + 2 * 8); // the query, and Γp and Gp of each premise
    expect(await e.search(q, { k: 10, extra: batch(0) })).toEqual(first);
    expect(enc.embedded).toBe(embedded);
    // many other batches: the cache stays within its bound, whatever comes through
    for (let j = 1; j < 30; j++) {
      await e.search(q, { k: 10, extra: batch(j) });
      const { vectors, segments } = e.extraCacheUse();
      expect(vectors.bytes).toBeLessThanOrEqual(bound);
      expect(vectors.entries).toBeGreaterThan(0);
      expect(segments.bytes).toBeLessThanOrEqual(bound);
    }
    // batch 0 was evicted: embedded again, and the same answer as at first
    expect(await e.search(q, { k: 10, extra: batch(0) })).toEqual(first);
    expect(enc.embedded).toBeGreaterThan(embedded + 29 * 16);
    // and a fresh engine, its cache cold, gives the same answer too
    expect(await (await denseEngine(bound)).engine.search(q, { k: 10, extra: batch(0) })).toEqual(first);
  });

  it('reuse the segment of a list sent again, and the vectors of premises sent before', async () => {
    const { enc, engine: e } = await denseEngine();
    const list = [SUB, rec('My.add_zero', ['(a : α)'], 'a + 0 = a')];
    const q = '⊢ x - x = 0';
    const first = await e.search(q, { k: 5, extra: list });
    const embedded = enc.embedded;
    expect(await e.search(q, { k: 5, extra: list })).toEqual(first);
    expect(enc.embedded).toBe(embedded);
    expect(e.extraCacheUse().segments.entries).toBe(1);
    // one premise more: only it is embedded (Γp and Gp)
    await e.search(q, { k: 5, extra: [...list, rec('My.zero_add', ['(a : α)'], '0 + a = a')] });
    expect(enc.embedded).toBe(embedded + 2);
    expect(e.extraCacheUse().segments.entries).toBe(2);
  });
});
