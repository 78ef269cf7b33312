import { describe, expect, it } from 'vitest';
import type { PremiseRecord } from '../../indexes/src/extract/record.js';
import { toInfos } from '../../indexes/src/graph.js';
import { Engine } from '../../server/src/engine/engine.js';
import { Segment } from '../../server/src/engine/segment.js';
import { slotFit, slotFitter, slotOf, UNKNOWN_SLOT } from '../../server/src/engine/slot.js';
import { DEFAULT_WEIGHTS } from '../../server/src/engine/fusion.js';
import { rec } from './engine-helpers.js';

const def = (r: PremiseRecord): PremiseRecord => ({ ...r, kind: 'def' });

const CORPUS = [
  // the definition's docstring says everything the goal says: plain BM25 puts it first
  def(rec('Real.sqrt', ['(x : ℝ)'], 'ℝ', [], 'The square root √x of a real number; √(a * b) = √a * √b and √a * √b ≥ 0 for a, b ≥ 0.')),
  rec('Real.sqrt_mul', ['{x : ℝ}', '(hx : 0 ≤ x)', '(y : ℝ)'], '√(x * y) = √x * √y'),
  rec('Real.sqrt_mul_self', ['{a : ℝ}', '(h : 0 ≤ a)'], '√a * √a = a'),
  rec('Real.sqrt_le_sqrt', ['{x y : ℝ}', '(h : x ≤ y)'], '√x ≤ √y'),
  rec('le_trans', ['{a b c : α}'], 'a ≤ b → b ≤ c → a ≤ c'),
];
const GOAL = 'a b : ℝ\n⊢ √(a * b) = √a * √b';
// the slot signal alone: the goal match (goal-match.test.ts) would put Real.sqrt_mul, the goal once its hypothesis is set aside, first by itself
const engine = () => new Engine([Segment.fromInfos(toInfos(CORPUS))], { goalMatch: false });
const p = (name: string) => CORPUS.find((r) => r.name === name)!;

describe('slotOf', () => {
  it('reads tactics as written', () => {
    expect(slotOf('rw')).toBe('rw');
    expect(slotOf('nth_rw 2')).toBe('rw');
    expect(slotOf('simp only')).toBe('simp');
    expect(slotOf('simp add:')).toBe('simp');
    expect(slotOf('exact?')).toBe('exact');
    expect(slotOf("refine'")).toBe('apply');
    expect(slotOf('erule')).toBe('rule');
    expect(slotOf('using')).toBe('using');
    expect(slotOf('intro x')).toBe('rule');
    expect(slotOf('omega')).toBeUndefined();
    expect(slotOf(undefined)).toBeUndefined();
  });
});

describe('slotFit', () => {
  it('rw: an equation whose left side matches a subterm of the goal, variables bound consistently', () => {
    expect(slotFit('rw', '√(a * b) = √a * √b', p('Real.sqrt_mul'))).toBe(1);
    // √a * √a needs both factors the same: not in this goal
    expect(slotFit('rw', '√(a * b) = √a * √b', p('Real.sqrt_mul_self'))).toBeLessThan(1);
    expect(slotFit('rw', '√a * √a = a', p('Real.sqrt_mul_self'))).toBe(1);
    // right to left only: `rw [← …]`
    expect(slotFit('rw', '√c * √d ≤ 1', p('Real.sqrt_mul'))).toBe(0.6);
    expect(slotFit('rw', '√(a * b) = √a * √b', p('Real.sqrt'))).toBe(-0.5);
    expect(slotFit('rw', '√x ≤ √y', p('Real.sqrt_le_sqrt'))).toBe(0); // not an equation
  });

  it('exact and apply: the conclusion is the goal (after the hypotheses for apply)', () => {
    expect(slotFit('exact', '√u ≤ √(v + 1)', p('Real.sqrt_le_sqrt'))).toBe(1);
    expect(slotFit('apply', 'f 1 ≤ g 2', p('le_trans'))).toBe(1);
    expect(slotFit('apply', '√(a * b) = √a * √b', p('le_trans'))).toBe(0);
    expect(slotFit('exact', '√(a * b) = √a * √b', p('Real.sqrt'))).toBe(0);
  });

  it("reads a goal as Lean's pretty-printer shows it: coercion arrows, a function application in parentheses, qualified names, a variable's field", () => {
    const comap = rec('MeasureTheory.OuterMeasure.comap_apply', ['{β : Type*}', '(f : α → β)', '(m : OuterMeasure β)', '(s : Set α)'], "comap f m s = m (f '' s)");
    // `⇑(comap f)` printed as `(comap f) …`, the namespace printed with the constant
    expect(slotFit('rw', "((comap f) (OuterMeasure.ofFunction m m_empty)) s ≤ m (f '' s)", comap)).toBe(1);
    expect(slotFit('rw', "(⇑(comap f) μ) t ≤ 1", comap)).toBe(1);
    // a different function in the same place is no match
    expect(slotFit('rw', "((map f) μ) t ≤ 1", comap)).toBeLessThan(1);
    const dedup = rec('List.mem_dedup', ['{a : α}', '{l : List α}'], 'a ∈ dedup l ↔ a ∈ l');
    expect(slotFit('rw', 'x ∈ l.dedup', dedup)).toBe(1);
    expect(slotFit('rw', 'x ∈ l.reverse', dedup)).toBeLessThan(1);
    // a huge goal (the HTTP API takes states of up to 256 Ki characters) is read in bounded time
    expect(slotFit('rw', "((comap f) μ) t + ".repeat(12_000) + '1', comap)).toBeGreaterThanOrEqual(0);
  });

  it("reads a relation applied as a function, as Lean core's Prelude writes it, as the infix the goal shows", () => {
    expect(slotFit('rw', 'x + 0 ≤ 1', rec('Nat.add_zero', ['(n : Nat)'], 'Eq (n + 0) n'))).toBe(1);
    expect(slotFit('rw', 'x + 0 ≤ 1', rec('explicit', ['(n : Nat)'], '@Eq Nat (n + 0) n'))).toBe(1);
    expect(slotFit('rw', 'x + 0 ≤ 1', rec('reversed', ['(n : Nat)'], 'Eq n (n + 0)'))).toBe(0.6); // its right side
    expect(slotFit('rw', '¬¬p', rec('not_not', ['{a : Prop}'], 'Iff (¬¬a) a'))).toBe(1);
    // the same head with more or fewer arguments is left alone
    expect(slotFit('rw', 'x + 0 ≤ 1', rec('partial', ['(n : Nat)'], 'Eq (n + 0)'))).toBe(0);
  });

  it('reads a premise the table shares once, and the reading stays as read whatever goals it is fitted to', () => {
    const shared = { ...p('Real.sqrt_mul'), args: [...p('Real.sqrt_mul').args] };
    Object.freeze(shared.args);
    Object.freeze(shared);
    const goals = ['√(a * b) = √a * √b', '√c * √d ≤ 1', 'x ≤ y', '√((a + 1) * b) = 0'];
    const fresh = goals.flatMap((g) => UNKNOWN_SLOT.map((k) => slotFit(k, g, { ...p('Real.sqrt_mul') })));
    for (let round = 0; round < 2; round++) expect(goals.flatMap((g) => UNKNOWN_SLOT.map((k) => slotFit(k, g, shared)))).toEqual(fresh);
    expect(fresh.slice(0, 2)).toEqual([1, 1]); // as rw and as apply
  });

  it('matches a huge goal in bounded work: unclosed brackets, one endless application', () => {
    // a pattern starting with a variable is tried at every position; each try once scanned
    // to the end of an unclosed group and copied the whole application (a search took seconds)
    const addZero = rec('add_zero', ['(a : M)'], 'a + 0 = a');
    const fitter = slotFitter(UNKNOWN_SLOT, 'f ' + '( g x '.repeat(40_000));
    for (let i = 0; i < 50; i++) expect(fitter(addZero)).toBeGreaterThanOrEqual(0);
    expect(slotFit('rw', 'g ' + 'x '.repeat(100_000) + '+ 0', addZero)).toBeGreaterThanOrEqual(0);
    // the bound leaves ordinary goals alone
    expect(slotFit('rw', 'f (g x + 0) = y', addZero)).toBe(1);
    // deep parentheses around the whole goal, and a premise of endless binders, are read in one pass
    expect(slotFit('rw', '('.repeat(100_000) + 'x + 0' + ')'.repeat(100_000), addZero)).toBe(1);
    expect(slotFit('rw', '((((x + 0))))', addZero)).toBe(1);
    expect(slotFit('apply', 'x ≤ y', rec('binders', [], '∀ a, '.repeat(30_000) + 'x ≤ y'))).toBe(1);
  });
});

describe('the tactic unknown (UNKNOWN_SLOT)', () => {
  it('fits a premise that rewrites the goal or closes it, whichever reading is better; a definition is not demoted', () => {
    expect(slotFit(UNKNOWN_SLOT, '√(a * b) = √a * √b', p('Real.sqrt_mul'))).toBe(1); // as rw
    expect(slotFit(UNKNOWN_SLOT, 'f 1 ≤ g 2', p('le_trans'))).toBe(1); // as apply
    expect(slotFit(UNKNOWN_SLOT, '√(a * b) = √a * √b', p('Real.sqrt'))).toBe(slotFit('apply', '√(a * b) = √a * √b', p('Real.sqrt')));
    expect(slotFit(UNKNOWN_SLOT, '√(a * b) = √a * √b', p('Real.sqrt'))).toBeGreaterThanOrEqual(0);
    // the goal read once is not reused for another goal
    expect(slotFit(UNKNOWN_SLOT, '√u ≤ √(v + 1)', p('Real.sqrt_mul'))).toBeLessThan(1);
    expect(slotFit(UNKNOWN_SLOT, '√u ≤ √(v + 1)', p('Real.sqrt_le_sqrt'))).toBe(1);
  });

  it('hybrid Lean states with no slot: what acts on the goal moves up; weight 0, BM25 mode, a reranker or a given slot turn it off', async () => {
    const hybrid = async (o: object = {}, e = engine()) => e.search(GOAL, { k: 5, mode: 'hybrid', ...o });
    const names = (hs: { name: string }[]) => hs.map((h) => h.name);
    const fitted = await hybrid();
    expect(names(fitted)[0]).toBe('Real.sqrt_mul');
    expect(fitted.find((h) => h.name === 'Real.sqrt_mul')!.parts.slot).toBe(1);
    const off = new Engine([Segment.fromInfos(toInfos(CORPUS))], { goalMatch: false, weights: { ...DEFAULT_WEIGHTS, formal: { ...DEFAULT_WEIGHTS.formal, fit: 0 } } });
    const plain = await hybrid({}, off);
    expect(names(plain)[0]).toBe('Real.sqrt');
    expect(plain.every((h) => h.parts.slot === undefined)).toBe(true);
    expect((await engine().search(GOAL, { k: 5, mode: 'bm25' })).every((h) => h.parts.slot === undefined)).toBe(true);
    expect((await hybrid({ slot: 'exact' })).find((h) => h.name === 'Real.sqrt_mul')!.parts.slot).toBe(slotFit('exact', '√(a * b) = √a * √b', p('Real.sqrt_mul')));
    // a reranker reads the goal's shape itself: its order stands
    const keep = { score: async (_q: unknown, top: readonly { score: number }[]) => Float32Array.from(top, (c) => c.score) };
    const reranked = await hybrid({ rerank: true }, new Engine([Segment.fromInfos(toInfos(CORPUS))], { goalMatch: false, reranker: keep }));
    expect(names(reranked)).toEqual(names(plain));
    // text asks for the declaration itself: no fit
    expect((await engine().search('square root of a product', { k: 5, mode: 'hybrid' })).every((h) => h.parts.slot === undefined)).toBe(true);
  });
});

describe('Engine with a slot', () => {
  it('in `rw [`, Real.sqrt_mul ranks above the definition Real.sqrt', async () => {
    const names = async (slot?: string) => (await engine().search(GOAL, { k: 5, slot })).map((h) => h.name);
    const plain = await names();
    expect(plain.indexOf('Real.sqrt')).toBeLessThan(plain.indexOf('Real.sqrt_mul')); // the problem
    const rw = await names('rw');
    expect(rw[0]).toBe('Real.sqrt_mul');
    expect(rw.indexOf('Real.sqrt_mul')).toBeLessThan(rw.indexOf('Real.sqrt'));
    const hit = (await engine().search(GOAL, { k: 5, slot: 'rw' })).find((h) => h.name === 'Real.sqrt_mul')!;
    expect(hit.parts.slot).toBe(1);
  });

  it('an unknown tactic changes nothing', async () => {
    expect(await engine().search(GOAL, { k: 5, slot: 'omega' })).toEqual(await engine().search(GOAL, { k: 5 }));
  });
});

describe('the slot at the edges', () => {
  it('HTTP /retrieve takes `slot` or `tactic`, and rejects a bad one', async () => {
    const { LeanHammerApi } = await import('../../server/src/http/leanhammer.js');
    const api = new LeanHammerApi(engine(), { maxNewPremises: 4, mode: 'bm25' });
    const names = async (extra: object) => {
      const r = await api.handle('POST', '/retrieve', JSON.stringify({ state: GOAL, k: 5, ...extra }));
      expect(r.status).toBe(200);
      return (r.body as { name: string }[]).map((h) => h.name);
    };
    expect((await names({}))[0]).toBe('Real.sqrt');
    expect((await names({ slot: 'rw' }))[0]).toBe('Real.sqrt_mul');
    expect((await names({ tactic: 'rw' }))[0]).toBe('Real.sqrt_mul');
    const bad = await api.handle('POST', '/retrieve', JSON.stringify({ state: GOAL, slot: 3 }));
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('slot');
  });

  it('eval scores only slot steps, with the slot known or not', async () => {
    const { runEval } = await import('../../server/src/eval/run.js');
    const queries = [
      { id: '1', style: 'state', text: GOAL, gold: [['Real.sqrt_mul']], tactic: 'rw [Real.sqrt_mul]' },
      { id: '2', style: 'state', text: GOAL, gold: [['Real.sqrt_mul']], tactic: 'positivity' },
    ];
    const all = await runEval(engine(), 'leandojo', queries, 'bm25');
    const unknown = await runEval(engine(), 'leandojo', queries, 'bm25', { slot: 'steps' });
    const known = await runEval(engine(), 'leandojo', queries, 'bm25', { slot: 'given' });
    expect([all.scoredQueries, unknown.scoredQueries, known.scoredQueries]).toEqual([2, 1, 1]);
    expect(unknown.metrics['R@1']).toBe(0);
    expect(known.metrics['R@1']).toBe(1);
    expect(known.slot).toBe('given');
  });
});
