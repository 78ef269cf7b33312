import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { toInfos } from '../../indexes/src/graph.js';
import { Engine } from '../../server/src/engine/engine.js';
import { Segment } from '../../server/src/engine/segment.js';
import { rec, RECORDS } from './engine-helpers.js';
import { embedPremises } from '../../indexes/src/embed.js';
import { loadEncoder } from '../../models/src/encoder.js';
import type { SearchHit } from '../../server/src/engine/types.js';

const TINY_ENCODER = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/tiny-encoder');

const engine = () => new Engine([Segment.fromInfos(toInfos(RECORDS))]);

describe('Engine (sparse)', () => {
  it('ranks by the goal and reports score parts', async () => {
    const hits = await engine().search('a b : ℕ\n⊢ a + b = b + a', { k: 3 });
    expect(hits[0]!.name).toBe('add_comm');
    expect(hits[0]!.rank).toBe(1);
    expect(hits[0]!.parts.sparse).toBeGreaterThan(0);
    expect(hits[0]!.parts.prior).toBeCloseTo(Math.log1p(1));
  });

  it('answers plain-English queries from docstrings', async () => {
    const hits = await engine().search('triangle inequality', { k: 1 });
    expect(hits[0]!.name).toBe('abs_add');
  });

  it('counts proof references as uses', () => {
    expect(engine().lookup('le_trans')!.uses).toBe(2);
    expect(engine().lookup('nope')).toBeUndefined();
  });

  it('answers batches exactly like single queries, sparse and dense', async () => {
    // dense and hybrid embed a batch's queries together, a single query alone: a batch
    // that paired a query with another's vector or hits would differ from the singles
    const enc = await loadEncoder(TINY_ENCODER);
    try {
      const infos = toInfos(RECORDS);
      const vectors = await embedPremises(infos, enc);
      const dense = () => new Engine([Segment.fromInfos(infos, vectors, enc.dim)], { encoder: enc });
      const qs = ['⊢ a ≤ c', 'a * b = b * a', 'succ m ≤ n'];
      for (const [make, mode] of [[engine, 'bm25'], [dense, 'dense'], [dense, 'hybrid']] as const) {
        const batch = await make().searchBatch(qs, { k: 5, mode });
        const singles: SearchHit[][] = [];
        for (const q of qs) singles.push(await make().search(q, { k: 5, mode }));
        // the same hits in the same order; scores equal up to float noise (a padded batch embeds within 1e-6)
        expect(batch.map((hs) => hs.map((h) => h.name)), mode).toEqual(singles.map((hs) => hs.map((h) => h.name)));
        batch.forEach((hs, i) => hs.forEach((h, j) => expect(h.score, mode).toBeCloseTo(singles[i]![j]!.score, 6)));
        // the queries have different answers, so a mix-up cannot go unseen
        expect(new Set(singles.map((h) => h.map((x) => x.name).join())).size, mode).toBe(qs.length);
      }
    } finally {
      await enc.dispose();
    }
  });

  it('adds and replaces premises incrementally', async () => {
    const e = engine();
    const before = e.size;
    await e.upsert([rec('sub_self', ['(a : α)'], 'a - a = 0'), rec('mul_comm', ['(a b : α)'], 'a ⬝ b = b ⬝ a')]);
    expect(e.size).toBe(before + 1);
    expect((await e.search('⊢ x - x = 0', { k: 1 }))[0]!.name).toBe('sub_self');
    expect(e.lookup('mul_comm')!.goal).toBe('a ⬝ b = b ⬝ a');
    const hits = await e.search('⊢ a * b = b * a', { k: 10 });
    expect(hits.filter((h) => h.name === 'mul_comm')).toHaveLength(1);
  });

  it('removes premises', async () => {
    const e = engine();
    e.remove(['add_comm']);
    expect(e.lookup('add_comm')).toBeUndefined();
    const hits = await e.search('⊢ a + b = b + a', { k: 10 });
    expect(hits.map((h) => h.name)).not.toContain('add_comm');
  });

  it("restores the loaded index's versions of upserted and removed premises (a closed document falls back to disk)", async () => {
    const e = engine();
    const before = e.size;
    const goal = e.lookup('mul_comm')!.goal;
    await e.upsert([rec('sub_self', ['(a : α)'], 'a - a = 0'), rec('mul_comm', ['(a b : α)'], 'a ⬝ b = b ⬝ a')]);
    e.remove(['add_comm']);
    await e.restore(['sub_self', 'mul_comm', 'add_comm', 'never_there']);
    expect(e.size).toBe(before);
    expect(e.lookup('sub_self')).toBeUndefined();
    expect(e.lookup('mul_comm')!.goal).toBe(goal);
    expect((await e.search('⊢ a + b = b + a', { k: 10 })).map((h) => h.name)).toContain('add_comm');
    expect((await e.search('⊢ x - x = 0', { k: 10 })).map((h) => h.name)).not.toContain('sub_self');
    expect((await e.search('⊢ a * b = b * a', { k: 10 })).filter((h) => h.name === 'mul_comm')).toHaveLength(1);
  });

  it('answers a Lean state with Lean premises and an Isabelle goal with Isabelle facts', async () => {
    const isa = { ...rec('Nat_Comm.add_commute', [], 'a + b = b + a'), lang: 'isabelle' as const, kind: 'lemma' as const };
    const e = new Engine([Segment.fromInfos(toInfos([...RECORDS, isa]))]);
    expect((await e.search('a b : ℕ\n⊢ a + b = b + a', { k: 10 })).map((h) => h.lang)).not.toContain('isabelle');
    expect((await e.search('goal (1 subgoal):\n 1. a + b = b + a', { k: 10 })).map((h) => h.name)).toEqual(['Nat_Comm.add_commute']);
    const text = (await e.search('a + b = b + a', { k: 10 })).map((h) => h.name);
    expect(text).toContain('Nat_Comm.add_commute');
    expect(text).toContain('add_comm');
  });

  it('refuses dense modes and reranking it cannot do', async () => {
    await expect(engine().search('x', { mode: 'dense' })).rejects.toThrow(/encoder/);
    await expect(engine().search('x', { rerank: true })).rejects.toThrow(/reranker/);
  });
});
