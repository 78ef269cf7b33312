/**
 * The tree ranker's scorer (server/src/engine/tree-model.ts) against xgboost's own
 * predictions: test/fixtures/ranker/ holds a tiny rank:pairwise model and the margins
 * xgboost gave for 40 rows (some values missing, some on a threshold exactly),
 * written by models/train/ranker/make_fixture.py.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TreeModel } from '../../server/src/engine/tree-model.js';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/ranker');
const json = JSON.parse(readFileSync(join(DIR, 'model.json'), 'utf8'));
const parity = JSON.parse(readFileSync(join(DIR, 'parity.json'), 'utf8')) as { rows: (number | null)[][]; margins: number[] };

describe('TreeModel (xgboost JSON models in plain TypeScript)', () => {
  it("scores every row as xgboost's predict(output_margin=True) does", () => {
    const m = TreeModel.fromJSON(json);
    expect(m).toMatchObject({ size: 4, features: 5, objective: 'rank:pairwise' });
    parity.rows.forEach((r, i) => {
      expect(m.score(r.map((x) => (x === null ? undefined : x)))).toBeCloseTo(parity.margins[i]!, 5);
    });
    // NaN reads as missing too
    expect(m.score(parity.rows[7]!.map((x) => (x === null ? NaN : x)))).toBeCloseTo(parity.margins[7]!, 5);
  });

  it('says what is wrong with a malformed model', () => {
    expect(() => TreeModel.fromJSON({})).toThrow(/not an xgboost JSON model/);
    const bad = structuredClone(json);
    bad.learner.gradient_booster.model.trees[1].split_indices[0] = 9;
    expect(() => TreeModel.fromJSON(bad, 'm.json')).toThrow(/m\.json: tree 1: node 0 splits on feature 9, of 5/);
    const loop = structuredClone(json);
    loop.learner.gradient_booster.model.trees[0].left_children[0] = 0;
    expect(() => TreeModel.fromJSON(loop)).toThrow(/children are out of order/);
  });
});
