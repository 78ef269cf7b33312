import { describe, expect, it } from 'vitest';
import { toInfos } from '../../indexes/src/graph.js';
import { Engine } from '../../server/src/engine/engine.js';
import { mepo, relevantWeight } from '../../server/src/engine/mepo.js';
import { Segment } from '../../server/src/engine/segment.js';
import { sine } from '../../server/src/engine/sine.js';
import { statementSymbols, SymbolSets } from '../../server/src/engine/symbol-sets.js';
import { rec } from './engine-helpers.js';

// Symbols (logic, binder names and single letters are not symbols), by hand:
//   sqrt_mul {ℝ √ *}   sqrt_nonneg {ℝ 0 ≤ √}   mul_comm {ℝ *}   exp_pos {ℝ 0 < Real.exp}   exp_log {ℝ 0 < Real.exp Real.log}
// occurrences: ℝ 5, 0 3, √ 2, * 2, < 2, Real.exp 2, ≤ 1, Real.log 1
// least common symbol: sqrt_mul 2, sqrt_nonneg 1, mul_comm 2, exp_pos 2, exp_log 1
const CORPUS = [
  rec('sqrt_mul', ['(x y : ℝ)'], '√(x * y) = √x * √y'),
  rec('sqrt_nonneg', ['(x : ℝ)'], '0 ≤ √x'),
  rec('mul_comm', ['(a b : ℝ)'], 'a * b = b * a'),
  rec('exp_pos', ['(x : ℝ)'], '0 < Real.exp x'),
  rec('exp_log', ['(x : ℝ)', '(hx : 0 < x)'], 'Real.exp (Real.log x) = x'),
];
const infos = toInfos(CORPUS);
const sets = SymbolSets.build({ size: infos.length, scan: () => infos });
const QUERY = sets.ids(['√', '*']); // the symbols of ⊢ √(a * b) = √a * √b
const all = { limit: 100, usable: () => true };
const names = (sel: { id: number }[]) => sel.map((s) => CORPUS[s.id]!.name);

describe('symbol sets', () => {
  it('keep identifiers, numerals and notation; drop logic, binder names and single letters', () => {
    expect(statementSymbols(['x y : ℝ', 'hx : 0 < x'], '∀ n : ℕ, Real.exp (f n) = x → True').sort()).toEqual(['0', '<', 'Real.exp', 'ℕ', 'ℝ'].sort());
    expect(statementSymbols(['a b : ℝ'], '√(a * b) = √a * √b').sort()).toEqual(['*', '√', 'ℝ'].sort());
  });

  it('count occurrences and least common symbols', () => {
    expect(sets.occ[sets.ids(['ℝ'])[0]!]).toBe(5);
    expect(sets.occ[sets.ids(['√'])[0]!]).toBe(2);
    expect(Array.from(sets.minOcc)).toEqual([2, 1, 2, 2, 1]);
  });
});

describe('SInE', () => {
  it('t = 1: a symbol triggers only premises whose least common symbol is as common', () => {
    // √ (2) triggers sqrt_mul (2), not sqrt_nonneg (1); * (2) triggers sqrt_mul and mul_comm; ℝ (5) triggers nothing
    const sel = sine(sets, QUERY, { ...all, tolerance: 1 });
    expect(names(sel)).toEqual(['sqrt_mul', 'mul_comm']);
    expect(sel.map((s) => s.level)).toEqual([1, 1]);
    expect(sel[0]!.strength).toBeCloseTo(2 * Math.log1p(5 / 2));
    expect(sel[1]!.strength).toBeCloseTo(Math.log1p(5 / 2));
  });

  it('t = 2: breadth first through the symbols of what was selected', () => {
    // depth 1: sqrt_mul, sqrt_nonneg, mul_comm; then 0 (3 ≤ 2·2) triggers exp_pos; then < triggers exp_log
    const sel = sine(sets, QUERY, { ...all, tolerance: 2 });
    expect(names(sel)).toEqual(['sqrt_mul', 'sqrt_nonneg', 'mul_comm', 'exp_pos', 'exp_log']);
    expect(sel.map((s) => s.level)).toEqual([1, 1, 1, 2, 3]);
    expect(names(sine(sets, QUERY, { ...all, tolerance: 2, maxDepth: 2 }))).toEqual(['sqrt_mul', 'sqrt_nonneg', 'mul_comm', 'exp_pos']);
  });

  it('never selects unusable premises nor follows their symbols', () => {
    const sel = sine(sets, QUERY, { limit: 100, tolerance: 2, usable: (id) => CORPUS[id]!.name !== 'sqrt_nonneg' });
    // without sqrt_nonneg, 0 is never reached: the exp lemmas stay out
    expect(names(sel)).toEqual(['sqrt_mul', 'mul_comm']);
  });
});

describe('MePo', () => {
  const w = (occ: number) => relevantWeight(occ);
  it('passes by relevance M/(M+N) against a rising threshold, then the rest by relevance', () => {
    const sel = mepo(sets, QUERY, all);
    // pass 1 (p = 0.6): sqrt_mul 2w(2)/(2w(2)+1) = 0.849, mul_comm w(2)/(w(2)+1) = 0.738; sqrt_nonneg 0.485 fails
    // pass 2 (p = 0.767, ℝ relevant): sqrt_nonneg (w(2)+w(5))/(… + 2) = 0.712 fails; nothing passes → the rest by relevance
    expect(names(sel)).toEqual(['sqrt_mul', 'mul_comm', 'sqrt_nonneg', 'exp_pos', 'exp_log']);
    expect(sel.map((s) => s.level)).toEqual([1, 1, 2, 2, 2]);
    expect(sel[0]!.strength).toBeCloseTo((2 * w(2)) / (2 * w(2) + 1));
    expect(sel[1]!.strength).toBeCloseTo(w(2) / (w(2) + 1));
    expect(sel[2]!.strength).toBeCloseTo((w(2) + w(5)) / (w(2) + w(5) + 2));
    expect(sel[3]!.strength).toBeCloseTo(w(5) / (w(5) + 3));
  });

  it('adds a bounded number per pass', () => {
    const sel = mepo(sets, QUERY, { ...all, perPass: 1 });
    // pass 1: sqrt_mul; pass 2 (ℝ relevant, p = 0.767): mul_comm at 1.0; pass 3 (p = 0.864): nothing → the rest
    expect(names(sel)).toEqual(['sqrt_mul', 'mul_comm', 'sqrt_nonneg', 'exp_pos', 'exp_log']);
    expect(sel.map((s) => s.level)).toEqual([1, 2, 3, 3, 3]);
  });
});

describe('engine modes sine and mepo', () => {
  const engine = () => new Engine([Segment.fromInfos(infos)]);
  it('rank by level, honour k and exclusions', async () => {
    const q = 'a b : ℝ\n⊢ √(a * b) = √a * √b';
    const s = await engine().search(q, { mode: 'sine', k: 10 });
    expect(s.map((h) => h.name)).toEqual(['sqrt_mul', 'mul_comm']);
    expect(s[0]!.parts.level).toBe(1);
    const m = await engine().search(q, { mode: 'mepo', k: 3 });
    expect(m.map((h) => h.name)).toEqual(['sqrt_mul', 'mul_comm', 'sqrt_nonneg']);
    expect((await engine().search(q, { mode: 'mepo', k: 10, exclude: ['sqrt_mul'] })).map((h) => h.name)).not.toContain('sqrt_mul');
    expect((await engine().search(q, { mode: 'sine', k: 10, hidden: ['mul_comm'] })).map((h) => h.name)).toEqual(['sqrt_mul']);
  });
});
