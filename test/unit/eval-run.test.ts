/**
 * Where `eval` searches a query from: at its theorem's place in its file (earlier
 * declarations nearby, later ones hidden but their proofs vote), or, with
 * `context: false`, as a new statement typed in a scratch file (nothing nearby,
 * later declarations neither results nor evidence).
 */
import { describe, expect, it } from 'vitest';
import { Engine } from '../../server/src/engine/engine.js';
import { fileDeclarations, provingIn, runEval, scratch } from '../../server/src/eval/run.js';
import { rec, RECORDS, segmentOf } from './engine-helpers.js';

/** `sq_sum` shares no symbol with the query; only the proof of `foo_bar_lt`, declared after the query's theorem, leads to it. */
const at = (line: number, r: ReturnType<typeof rec>) => ({ ...r, range: { start: { line, character: 0 }, end: { line, character: 1 } } });
const LIB = [
  ...RECORDS.map((r) => at(0, r)),
  { ...rec('sq_sum', ['(a : α)'], 'a ^ 2 = a * a'), module: 'Other', file: 'Other.lean' },
  at(5, rec('foo_bar_le', ['(x : ℝ)'], 'foo x ⊆ bar x', ['sq_sum'])),
  at(9, rec('foo_bar_lt', ['(x : ℝ)'], 'foo x ⊂ bar x', ['sq_sum'])),
];

describe('provingIn and scratch', () => {
  it('place the query in its file, or in a scratch file', () => {
    const engine = new Engine([segmentOf(LIB)]);
    const where = provingIn(engine, fileDeclarations(engine), 'foo_bar_le');
    expect(where.exclude).toEqual(['foo_bar_le']);
    expect(where.hidden).toEqual(['foo_bar_lt']);
    expect(where.nearby).toContain('add_comm');
    expect(where.nearby).not.toContain('sq_sum'); // another module
    expect(scratch(where)).toEqual({ exclude: ['foo_bar_le', 'foo_bar_lt'] });
    expect(scratch({})).toEqual({});
    // a theorem the index does not have: only itself is excluded
    expect(scratch(provingIn(engine, fileDeclarations(engine), 'elsewhere'))).toEqual({ exclude: ['elsewhere'] });
  });

  it('eval without context lets no later proof vote', async () => {
    const engine = new Engine([segmentOf(LIB)]);
    const queries = [{ id: 'q', style: 'statement', text: 'y : ℝ\n⊢ foo y ⊆ bar y ∪ baz y', gold: [['sq_sum']], theorem: 'foo_bar_le' }];
    const placed = await runEval(engine, 'leandojo', queries, 'hybrid');
    const typed = await runEval(engine, 'leandojo', queries, 'hybrid', { context: false });
    expect(placed.metrics['R@10']).toBe(1);
    expect(typed.metrics['R@10']).toBe(0);
  });
});

describe('candidate-pool recall (eval --json `pool`)', () => {
  it('reports, per gold part, the recall of the whole pool and of each generator', async () => {
    const engine = new Engine([segmentOf(LIB)]);
    // `sq_sum` shares no symbol with the query: only the graph votes (the proof of `foo_bar_lt`) bring it in
    const queries = [
      { id: 'q', style: 'statement', text: 'y : ℝ\n⊢ foo y ⊆ bar y ∪ baz y', gold: [['sq_sum'], ['foo_bar_lt']], goldParts: { dependency: [['sq_sum']], workspace: [['foo_bar_lt']] } },
    ];
    const r = await runEval(engine, 'x', queries, 'hybrid');
    expect(r.pool?.all).toMatchObject({ queries: 1, pool: 1 });
    expect(r.pool?.all?.generators['graph votes']).toBe(0.5);
    expect(r.pool?.all?.generators.sparse).toBe(0.5);
    expect(r.pool?.dependency).toMatchObject({ queries: 1, pool: 1, generators: { 'graph votes': 1, sparse: 0 } });
    expect(r.pool?.workspace?.generators.sparse).toBe(1);
    // a premise no generator proposes is outside the pool
    const none = await runEval(engine, 'x', [{ id: 'q', style: 'statement', text: 'y : ℝ\n⊢ foo y ⊆ bar y ∪ baz y', gold: [['abs_add']] }], 'bm25');
    expect(none.pool?.all).toMatchObject({ queries: 1, pool: 0 });
  });
});
