import { describe, expect, it } from 'vitest';
import { toInfos } from '../../indexes/src/graph.js';
import { Engine } from '../../server/src/engine/engine.js';
import { Segment } from '../../server/src/engine/segment.js';
import { rec, RECORDS } from './engine-helpers.js';

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

  it('answers batches exactly like single queries', async () => {
    const e = engine();
    const qs = ['⊢ a ≤ c', 'a * b = b * a', 'succ m ≤ n'];
    const batch = await e.searchBatch(qs, { k: 5 });
    for (let i = 0; i < qs.length; i++) expect(batch[i]).toEqual(await engine().search(qs[i]!, { k: 5 }));
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
