/**
 * A boosted-tree model as xgboost saves it (`Booster.save_model('model.json')`, the
 * JSON format of xgboost 1.x–2.x: gbtree, numerical splits), scored in plain
 * TypeScript with no native dependency. Each tree is read into flat typed arrays;
 * a row goes left when its value is below the split's threshold (compared as
 * float32, as xgboost does: equality goes right) and takes the split's default
 * branch when it is missing (undefined or NaN). A leaf's value is its
 * `split_conditions` entry (learning rate already applied; `base_weights` is the
 * unscaled weight). The margin is `base_score` plus the leaves' sum, which is
 * what `predict(..., output_margin=True)` returns. Parity with xgboost's own
 * predictions: test/unit/tree-model.test.ts on test/fixtures/ranker/ (written by
 * models/train/ranker/make_fixture.py).
 */

interface Tree {
  left: Int32Array;
  right: Int32Array;
  feature: Int32Array;
  threshold: Float32Array;
  defaultLeft: Uint8Array;
}

export class TreeModel {
  /** Every tree's nodes in one set of arrays (children as absolute positions), each tree's root in `roots`: one tight loop per row. */
  private readonly roots: Int32Array;
  private readonly left: Int32Array;
  private readonly right: Int32Array;
  private readonly feature: Int32Array;
  private readonly threshold: Float32Array;
  private readonly defaultLeft: Uint8Array;

  private constructor(
    trees: Tree[],
    readonly baseScore: number,
    /** The number of features a row has (`num_feature`). */
    readonly features: number,
    /** The objective it was trained with (`rank:pairwise`…). */
    readonly objective: string,
  ) {
    const total = trees.reduce((n, t) => n + t.left.length, 0);
    this.roots = new Int32Array(trees.length);
    this.left = new Int32Array(total);
    this.right = new Int32Array(total);
    this.feature = new Int32Array(total);
    this.threshold = new Float32Array(total);
    this.defaultLeft = new Uint8Array(total);
    let at = 0;
    trees.forEach((t, i) => {
      this.roots[i] = at;
      for (let n = 0; n < t.left.length; n++) {
        this.left[at + n] = t.left[n] === -1 ? -1 : at + t.left[n]!;
        this.right[at + n] = t.right[n] === -1 ? -1 : at + t.right[n]!;
      }
      this.feature.set(t.feature, at);
      this.threshold.set(t.threshold, at);
      this.defaultLeft.set(t.defaultLeft, at);
      at += t.left.length;
    });
  }

  get size(): number {
    return this.roots.length;
  }

  /** Reads an xgboost JSON model (parsed); throws an Error saying what is wrong with it. */
  static fromJSON(json: unknown, what = 'tree model'): TreeModel {
    const bad = (why: string) => new Error(`${what}: ${why}`);
    const learner = (json as { learner?: Record<string, unknown> })?.learner;
    if (!learner || typeof learner !== 'object') throw bad('not an xgboost JSON model (no `learner`)');
    const param = learner.learner_model_param as Record<string, string> | undefined;
    const booster = learner.gradient_booster as { name?: string; model?: { trees?: unknown[] } } | undefined;
    if (booster?.name !== 'gbtree' || !Array.isArray(booster.model?.trees)) throw bad('only gbtree boosters are read');
    if (param && Number(param.num_class ?? 0) > 1) throw bad('multi-class models are not read');
    const baseScore = Number(param?.base_score ?? 0.5);
    const features = Number(param?.num_feature ?? 0);
    if (!Number.isFinite(baseScore) || !Number.isInteger(features) || features < 1) throw bad('base_score or num_feature malformed');
    const objective = String((learner.objective as { name?: string } | undefined)?.name ?? '');
    const trees = booster.model.trees.map((t, i) => readTree(t, features, (why) => bad(`tree ${i}: ${why}`)));
    return new TreeModel(trees, baseScore, features, objective);
  }

  /** The margin of one row (`features` values; missing: undefined or NaN). */
  score(row: ArrayLike<number | undefined>): number {
    const { roots, left, right, feature, threshold, defaultLeft } = this;
    let sum = 0;
    for (let i = 0; i < roots.length; i++) {
      let n = roots[i]!;
      while (left[n]! !== -1) {
        const v = row[feature[n]!];
        n = v === undefined || Number.isNaN(v) ? (defaultLeft[n] ? left[n]! : right[n]!) : Math.fround(v) < threshold[n]! ? left[n]! : right[n]!;
      }
      sum += threshold[n]!;
    }
    return this.baseScore + sum;
  }
}

function readTree(t: unknown, features: number, bad: (why: string) => Error): Tree {
  const o = t as Record<string, unknown>;
  const ints = (k: string): number[] => {
    const a = o?.[k];
    if (!Array.isArray(a) || !a.every((x) => Number.isInteger(x))) throw bad(`${k} missing or not integers`);
    return a as number[];
  };
  const left = ints('left_children');
  const right = ints('right_children');
  const feature = ints('split_indices');
  const defaultLeft = ints('default_left');
  const cond = o?.split_conditions;
  if (!Array.isArray(cond) || !cond.every((x) => typeof x === 'number' && Number.isFinite(x))) throw bad('split_conditions missing or not finite numbers');
  const n = left.length;
  if (!n || [right, feature, defaultLeft, cond].some((a) => a.length !== n)) throw bad('its node arrays differ in length');
  if (Array.isArray(o.split_type) && o.split_type.some((x) => x !== 0)) throw bad('categorical splits are not read');
  for (let i = 0; i < n; i++) {
    if (left[i] === -1) continue;
    // children come after their parent: a walk always ends at a leaf
    if (!(left[i]! > i && left[i]! < n && right[i]! > i && right[i]! < n)) throw bad(`node ${i}'s children are out of order`);
    if (feature[i]! < 0 || feature[i]! >= features) throw bad(`node ${i} splits on feature ${feature[i]}, of ${features}`);
  }
  return {
    left: Int32Array.from(left),
    right: Int32Array.from(right),
    feature: Int32Array.from(feature),
    threshold: Float32Array.from(cond as number[]),
    defaultLeft: Uint8Array.from(defaultLeft),
  };
}
