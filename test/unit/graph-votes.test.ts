import { describe, expect, it } from 'vitest';
import { checkGraph, proofGraph } from '../../indexes/src/graph.js';
import { Engine } from '../../server/src/engine/engine.js';
import { graphVotes, nearest, NEIGHBOURS, type Loc } from '../../server/src/engine/graph-votes.js';
import { DEFAULT_WEIGHTS, fuse } from '../../server/src/engine/fusion.js';
import { rec, RECORDS, segmentOf } from './engine-helpers.js';

describe('proofGraph', () => {
  it('keeps references inside the corpus, once each, never to itself', () => {
    const g = proofGraph([rec('a', [], 'x', ['b', 'b', 'a', 'nowhere']), rec('b', [], 'y', ['a'])]);
    expect([...g.offsets]).toEqual([0, 1, 2]);
    expect([...g.targets]).toEqual([1, 0]);
    expect(checkGraph(g, 2)).toBeUndefined();
  });

  it('finds what is wrong with a graph read from disk', () => {
    const g = (offsets: number[], targets: number[]) => ({ offsets: Uint32Array.from(offsets), targets: Uint32Array.from(targets) });
    expect(checkGraph(g([0, 1], [0]), 2)).toMatch(/disagree/);
    expect(checkGraph(g([0, 2, 1], [0]), 2)).toMatch(/row #1 is out of order/);
    expect(checkGraph(g([0, 1, 1], [7]), 2)).toMatch(/premise #7 of 2/);
  });
});

describe('graphVotes', () => {
  const seg = segmentOf(RECORDS);
  const refs: Record<number, Loc[]> = { 0: [{ seg, id: 5 }, { seg, id: 6 }], 1: [{ seg, id: 6 }] };
  const votes = (sims: number[], sharpness: number) =>
    graphVotes(sims.map((sim, id) => ({ seg, id, sim })), sharpness, (n) => refs[n.id] ?? []).get(seg);

  it('weights each neighbour by its similarity relative to the nearest, sharpened', () => {
    const v = votes([1, 0.5], 2)!;
    expect(v.get(5)).toBeCloseTo(1);
    expect(v.get(6)).toBeCloseTo(1 + 0.25);
  });

  it('gives no votes when nothing is similar', () => {
    expect(votes([0, -1], 2)).toBeUndefined();
  });

  it('nearest keeps the most similar, ties in input order', () => {
    const ns = [0.2, 0.9, 0.9, 0.5].map((sim, id) => ({ seg, id, sim }));
    expect(nearest(ns, 3).map((n) => n.id)).toEqual([1, 2, 3]);
  });
});

/** `sq_sum` shares no symbol with the queries below; only the proofs of similar theorems lead to it. */
const LIB = [
  ...RECORDS,
  rec('sq_sum', ['(a : α)'], 'a ^ 2 = a * a'),
  rec('foo_bar_le', ['(x : ℝ)'], 'foo x ⊆ bar x', ['sq_sum']),
  rec('foo_bar_lt', ['(x : ℝ)'], 'foo x ⊂ bar x', ['sq_sum']),
];
const QUERY = 'y : ℝ\n⊢ foo y ⊆ bar y ∪ baz y';
const names = async (e: Engine, opts = {}) => (await e.search(QUERY, { k: 20, ...opts })).map((h) => h.name);

describe('Engine graph votes (hybrid)', () => {
  it('brings in premises that the proofs of similar theorems use', async () => {
    const e = new Engine([segmentOf(LIB)]);
    expect(await names(e, { mode: 'bm25' })).not.toContain('sq_sum');
    const hits = await e.search(QUERY, { k: 20, mode: 'hybrid' });
    const hit = hits.find((h) => h.name === 'sq_sum');
    expect(hit?.parts.graph).toBeGreaterThan(0);
    expect(hit!.parts.sparse).toBe(0);
  });

  it('never returns an excluded theorem nor lets its proof vote', async () => {
    const e = new Engine([segmentOf(LIB)]);
    const got = await names(e, { mode: 'hybrid', exclude: ['foo_bar_le', 'foo_bar_lt'] });
    expect(got).not.toContain('foo_bar_le');
    expect(got).not.toContain('sq_sum');
    expect(await names(e, { mode: 'hybrid', exclude: ['foo_bar_le'] })).toContain('sq_sum');
  });

  it('does not count an excluded theorem’s proof among its premises’ uses (prior, hits)', async () => {
    const e = new Engine([segmentOf(LIB)]);
    const uses = async (opts = {}) => (await e.search('⊢ a ^ 2 = a * a', { k: 20, mode: 'bm25', ...opts })).find((h) => h.name === 'sq_sum');
    const all = await uses();
    expect(all?.uses).toBe(2);
    const without = await uses({ exclude: ['foo_bar_le'] });
    expect(without?.uses).toBe(1);
    expect(without!.parts.prior).toBeCloseTo(Math.log1p(1));
    expect((await uses({ exclude: ['foo_bar_le', 'foo_bar_lt'] }))?.uses).toBe(0);
  });

  it('hides premises not yet in scope but lets their proofs vote', async () => {
    const e = new Engine([segmentOf(LIB)]);
    const got = await names(e, { mode: 'hybrid', hidden: ['foo_bar_le', 'foo_bar_lt'] });
    expect(got).not.toContain('foo_bar_le');
    expect(got).toContain('sq_sum');
  });

  it('gives premises declared earlier in the same file a locality bonus, in hybrid mode only', async () => {
    const e = new Engine([segmentOf(LIB)]);
    expect(await names(e, { mode: 'hybrid' })).not.toContain('two_mul');
    const hit = (await e.search(QUERY, { k: 20, mode: 'hybrid', nearby: ['two_mul', 'no_such_premise'] })).find((h) => h.name === 'two_mul');
    expect(hit?.parts.local).toBe(1);
    expect(await names(e, { mode: 'bm25', nearby: ['two_mul'] })).not.toContain('two_mul');
  });

  it('counts votes from edited files (overlay) and sends votes to the newest version of a premise', async () => {
    const e = new Engine([segmentOf(RECORDS)]);
    expect(await names(e, { mode: 'hybrid' })).not.toContain('mul_comm');
    await e.upsert([rec('foo_bar_le', ['(x : ℝ)'], 'foo x ⊆ bar x', ['mul_comm', 'not_a_premise'])]);
    const hit = (await e.search(QUERY, { k: 20, mode: 'hybrid' })).find((h) => h.name === 'mul_comm');
    expect(hit?.parts.graph).toBeGreaterThan(0);
    const base = new Engine([segmentOf(LIB)]);
    await base.upsert([rec('sq_sum', ['(a : α)'], 'a ^ 2 = a ⬝ a')]);
    const replaced = (await base.search(QUERY, { k: 20, mode: 'hybrid' })).filter((h) => h.name === 'sq_sum');
    expect(replaced).toHaveLength(1);
    expect(replaced[0]!.goal).toBe('a ^ 2 = a ⬝ a');
    expect(replaced[0]!.parts.graph).toBeGreaterThan(0);
  });
});

describe('Engine overlay with an encoder', () => {
  /** Counts what it embeds; a text's vector is its character histogram, folded into 8 dimensions. */
  const counting = () => {
    const seen: string[] = [];
    const encoder = {
      dim: 8,
      id: 'counting',
      async embed(texts: string[]) {
        seen.push(...texts);
        return texts.map((t) => {
          const v = new Float32Array(8);
          for (const ch of t) v[ch.codePointAt(0)! % 8]! += 1;
          const n = Math.hypot(...v) || 1;
          return v.map((x) => x / n);
        });
      },
      async dispose() {},
    };
    return { encoder, seen };
  };

  it('embeds only premises that are new or changed', async () => {
    const { encoder, seen } = counting();
    const e = new Engine([segmentOf(RECORDS)], { encoder });
    await e.upsert([rec('a1', ['(x : α)'], 'x = x'), rec('a2', ['(x : α)'], 'x ≤ x')]);
    expect(seen).toHaveLength(4); // Γp and Gp of each
    await e.upsert([rec('a3', [], 'True')]);
    expect(seen).toHaveLength(6);
    await e.upsert([rec('a1', ['(x : α)'], 'x = x ∧ x = x')]);
    expect(seen).toHaveLength(8);
    expect((await e.search('⊢ y = y ∧ y = y', { k: 3, mode: 'dense' })).map((h) => h.name)).toContain('a1');
  });
});

describe('Engine: a Lake project\'s own proofs vote apart from the library\'s', () => {
  // the library holds more near copies of the query than the 64 graph votes take; the project's own
  // theorem is less like the query, and its proof uses a library lemma that shares no symbol with it
  const library = [
    ...Array.from({ length: NEIGHBOURS + 6 }, (_, i) => rec(`lib_${i}`, ['(x : ℝ)'], 'foo x ⊆ bar x ∪ baz x', ['noise'])),
    rec('noise', [], 'True'),
    rec('dep_lemma', ['(a : α)'], 'a ^ 2 = a * a'),
  ];
  const workspace = [rec('ws_thm', ['(x : ℝ)'], 'foo x ⊆ bar x', ['dep_lemma'])];
  const hit = async (e: Engine) => (await e.search(QUERY, { k: 200, mode: 'hybrid' })).find((h) => h.name === 'dep_lemma');

  it('lets the workspace\'s nearest proofs vote for the dependencies\' lemmas they use', async () => {
    const got = await hit(new Engine([segmentOf(library), segmentOf(workspace)], { project: true }));
    expect(got?.parts.own).toBeGreaterThan(0);
    expect(got?.parts.graph).toBeUndefined(); // the library's nearer proofs took every graph vote
  });

  it('only in a project\'s automatic index, and only when the project weights weigh it', async () => {
    expect(await hit(new Engine([segmentOf(library), segmentOf(workspace)]))).toBeUndefined();
    const off = { ...DEFAULT_WEIGHTS, project: { ...DEFAULT_WEIGHTS.project, own: 0 } };
    expect(await hit(new Engine([segmentOf(library), segmentOf(workspace)], { project: true, weights: off }))).toBeUndefined();
    // one segment: no workspace entry; the open files (overlay) are the project's own
    const one = new Engine([segmentOf([...library])], { project: true });
    expect(await hit(one)).toBeUndefined();
    await one.upsert(workspace);
    expect((await hit(one))?.parts.own).toBeGreaterThan(0);
  });
});

describe('Engine: a Lake project\'s entries scaled apart (fuse byEntry)', () => {
  it('scales dense and sparse within each entry, the other parts over the whole pool', () => {
    const w = { ...DEFAULT_WEIGHTS.formal, dense: 0, sparse: 1, prior: 0, graph: 1, local: 0, fit: 0 };
    const cands = [
      { sparse: 10, graph: 2, uses: 0, entry: 1 },
      { sparse: 2, graph: 1, uses: 0, entry: 0 },
      { sparse: 1, uses: 0, entry: 0 },
    ];
    expect(fuse(cands, 'hybrid', 0, w)).toEqual([2, 0.2 + 0.5, 0.1]);
    expect(fuse(cands, 'hybrid', 0, w, true)).toEqual([2, 1 + 0.5, 0.5]);
  });

  it('gives the dependencies\' best lexical match a full share beside the project\'s closer lemmas', async () => {
    const deps = [rec('dep_match', ['(x : ℝ)'], 'foo x ⊆ qux x'), rec('dep_other', [], 'True')];
    const ws = [rec('ws_match', ['(x : ℝ)'], 'foo x ⊆ bar x ∪ baz x')];
    const only = { dense: 0, sparse: 1, prior: 0, graph: 0, local: 0, informal: 0, kind: 0, name: 0, fit: 0, own: 0, usage: 0 };
    const weights = { ...DEFAULT_WEIGHTS, formal: only, project: only };
    const score = async (e: Engine, q = QUERY) => (await e.search(q, { k: 10, mode: 'hybrid' })).find((h) => h.name === 'dep_match')?.score;
    const project = new Engine([segmentOf(deps), segmentOf(ws)], { project: true, weights });
    const library = new Engine([segmentOf(deps), segmentOf(ws)], { weights });
    expect(await score(project)).toBeCloseTo(1);
    expect(await score(library)).toBeLessThan(0.9);
  });
});
