/**
 * The learned ranker's stage (pipeline/reorderers/learned-rank.ts): the rows it
 * computes (rank-features.ts) are what `onRank` hands the training data, one per
 * candidate of the fused head; a loaded ranker reorders that head by its trees;
 * `ranker.json` is refused when its features are not this version's.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../server/src/engine/engine.js';
import { RANK_FEATURES, RANK_QUERY_FEATURES } from '../../server/src/engine/pipeline/rank-features.js';
import { TreeRanker } from '../../server/src/engine/tree-ranker.js';
import { rec, RECORDS, segmentOf } from './engine-helpers.js';

const N = RANK_FEATURES.length + RANK_QUERY_FEATURES.length;
const QUERY = 'a b : α\n⊢ a + b = b + a';

/** A ranker of one tree: fused rank 1 scores -1, the rest +1 (the hand-set fusion's best goes last). */
function reversingRanker(features: readonly string[] = RANK_FEATURES): string {
  const dir = mkdtempSync(join(tmpdir(), 'ranker-'));
  const model = {
    learner: {
      learner_model_param: { base_score: '5E-1', num_class: '0', num_feature: String(N) },
      objective: { name: 'rank:pairwise' },
      gradient_booster: {
        name: 'gbtree',
        model: { trees: [{ left_children: [1, -1, -1], right_children: [2, -1, -1], split_indices: [RANK_FEATURES.indexOf('fused_rank'), 0, 0], split_conditions: [1.5, -1, 1], default_left: [0, 0, 0], split_type: [0, 0, 0] }] },
      },
    },
  };
  writeFileSync(join(dir, 'ranker.json'), JSON.stringify({ format: 'premise-lsp-ranker', version: 1, encoder_id: 'x', features, query: RANK_QUERY_FEATURES, top: 300, model }));
  return dir;
}

describe('the learned ranker stage', () => {
  it('hands onRank one row per candidate of the fused head, the features in their order', async () => {
    const engine = new Engine([segmentOf(RECORDS)]);
    let got: { names: string[]; rows: Float64Array[] } | undefined;
    const hits = await engine.search(QUERY, { k: 5, mode: 'hybrid', onRank: (names, rows) => (got = { names, rows }) });
    expect(got!.names[0]).toBe(hits[0]!.name);
    expect(got!.rows).toHaveLength(got!.names.length);
    expect(got!.rows.every((r) => r.length === N)).toBe(true);
    const col = (f: (typeof RANK_FEATURES)[number]) => got!.rows.map((r) => r[RANK_FEATURES.indexOf(f)]);
    expect(col('fused_rank')).toEqual(got!.names.map((_, i) => i + 1));
    expect(col('sparse_rank')[0]).toBe(1);
    // kinds as numbers: a constructor is "other" (5), not read off Object.prototype
    got = undefined;
    const ctor = new Engine([segmentOf([...RECORDS, { ...rec('Foo.mk_add', ['(a b : α)'], 'a + b = b + a'), kind: 'constructor' }])]);
    await ctor.search(QUERY, { k: 5, mode: 'hybrid', onRank: (names, rows) => (got = { names, rows }) });
    const at = got!.names.indexOf('Foo.mk_add');
    expect(at).toBeGreaterThanOrEqual(0);
    expect(got!.rows[at]![RANK_FEATURES.indexOf('kind')]).toBe(5);
    expect(got!.rows[got!.names.indexOf('add_comm')]![RANK_FEATURES.indexOf('kind')]).toBe(0);
    // every candidate was proposed by at least one generator
    expect(col('generators').every((x) => x! >= 1)).toBe(true);
    // bm25 has no head to rank
    got = undefined;
    await engine.search(QUERY, { k: 5, mode: 'bm25', onRank: (names, rows) => (got = { names, rows }) });
    expect(got).toBeUndefined();
  });

  it('reorders the fused head by its trees', async () => {
    const hand = await new Engine([segmentOf(RECORDS)]).search(QUERY, { k: 50, mode: 'hybrid', goalMatch: false });
    const ranker = TreeRanker.load(reversingRanker());
    const learned = await new Engine([segmentOf(RECORDS)], { ranker, weights: undefined }).search(QUERY, { k: 50, mode: 'hybrid', goalMatch: false });
    expect(hand.length).toBeGreaterThan(2);
    // the hand-set fusion's best goes last; the rest tie (+1) and keep the index's order
    expect(learned.at(-1)!.name).toBe(hand[0]!.name);
    expect(learned.map((h) => h.name).sort()).toEqual(hand.map((h) => h.name).sort());
    expect(learned[0]!.parts.learned).toBeCloseTo(1.5);
  });

  it('loads the shipped ranker: its features are the ones this version computes', () => {
    const shipped = TreeRanker.load(join(dirname(fileURLToPath(import.meta.url)), '../../models/ranker'));
    expect(shipped).toMatchObject({ encoderId: 'default-bf6053deb465', top: 300 });
    expect(shipped.model.size).toBe(150);
  });

  it('refuses a ranker trained on other features', () => {
    expect(() => TreeRanker.load(reversingRanker(RANK_FEATURES.slice(1)))).toThrow(/features are not the ones this version computes/);
  });
});
