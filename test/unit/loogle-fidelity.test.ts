/**
 * Loogle's JSON API as Loogle answers it (issue 35 item 4; server/src/http/loogle.ts over
 * the engine's pattern search): the true `count`, `unknown identifier 'x'` with the quoted
 * `"x"` first among the suggestions, a bare name that is not a constant refused, names in a
 * pattern resolved to constants (`Real.sqrt` never matches `Nat.sqrt`), no hit with an
 * empty `type`, and a partial answer flagged.
 */
import { describe, expect, it } from 'vitest';
import { toInfos } from '../../indexes/src/graph.js';
import type { PremiseRecord } from '../../indexes/src/extract/record.js';
import { Engine } from '../../server/src/engine/engine.js';
import { Segment } from '../../server/src/engine/segment.js';
import { PARTIAL_HEADER } from '../../server/src/http/leanhammer.js';
import { LoogleApi } from '../../server/src/http/loogle.js';
import { judgeHit } from '../../server/src/bench/patterns.js';
import { rec } from './engine-helpers.js';

const kind = (r: PremiseRecord, k: PremiseRecord['kind'], statement: string, goal = r.goal): PremiseRecord => ({ ...r, kind: k, statement, goal });

/**
 * `Real.sqrt` and `NNReal.sqrt` are indexed; `Nat.sqrt` is not (it is Lean's), but a
 * statement writes it in full. Lemmas about each write it as `sqrt` inside their namespace.
 */
const sqrtCorpus = (): PremiseRecord[] => [
  kind(rec('Real.sqrt', ['(x : ℝ)'], 'ℝ'), 'def', 'noncomputable def sqrt (x : ℝ) : ℝ'),
  kind(rec('NNReal.sqrt', [], 'ℝ≥0 ≃o ℝ≥0'), 'def', 'noncomputable def sqrt : ℝ≥0 ≃o ℝ≥0'),
  rec('Real.mul_self_sqrt', ['{x : ℝ}', '(h : 0 ≤ x)'], '√x * √x = x'),
  rec('Real.sqrt_mul_self', ['{x : ℝ}', '(h : 0 ≤ x)'], 'sqrt x * sqrt x = x'),
  rec('NNReal.mul_self_sqrt', ['(x : ℝ≥0)'], 'sqrt x * sqrt x = x'),
  rec('Nat.sqrt_le', ['(n : ℕ)'], 'sqrt n * sqrt n ≤ n'),
  rec('Nat.sqrt_le_add', ['(n : ℕ)'], 'n ≤ sqrt n * sqrt n + sqrt n + sqrt n'),
  rec('Nat.sqrt_mul_sqrt_lt_succ', ['(n : ℕ)'], 'sqrt n * sqrt n < n + 1'),
  rec('Nat.exists_mul_self', ['(x : ℕ)'], '(∃ n, n * n = x) ↔ sqrt x * sqrt x = x'),
  rec('Real.nat_sqrt_le_real_sqrt', ['{a : ℕ}'], '↑(Nat.sqrt a) ≤ √(a : ℝ)'),
  rec('Fin.rev', ['{n : ℕ}', '(i : Fin n)'], 'Fin n'),
  rec('Fin.rev_rev', ['{n : ℕ}', '(i : Fin n)'], 'rev (rev i) = i'),
  rec('Fin.rev_lt_rev', ['{n : ℕ}', '{i j : Fin n}'], 'rev i < rev j ↔ j < i'),
  // a class whose source writes no `: Type u`, a def whose type Lean infers
  kind(rec('AddMonoid', ['(M : Type u)'], ''), 'class', 'class AddMonoid (M : Type u) extends AddSemigroup M, AddZeroClass M'),
  kind(rec('AsMul', ['(α : Type*)'], ''), 'def', 'def AsMul (α : Type*)'),
  rec('add_monoid_mul', ['{M : Type u}', '[AddMonoid M]', '(a : M)'], 'a * 1 = a'),
];

/** Many products, more than Loogle's 200 hits. */
const mulCorpus = (n: number) => Array.from({ length: n }, (_, i) => rec(`Mul.lemma_${i}`, ['(a b : ℕ)'], `a * b = b * a + ${i}`));

const loogle = (records: PremiseRecord[], budgetMs?: number) =>
  new LoogleApi(new Engine([Segment.fromInfos(toInfos(records))], { ...(budgetMs !== undefined ? { patternBudgetMs: budgetMs } : {}) }), { mode: 'bm25' });

type Answer = { header?: string; count?: number; hits?: { name: string; type: string }[]; error?: string; suggestions?: string[] };
const body = async (api: LoogleApi, q: string) => {
  const r = await api.json(q);
  return { ...r, body: r.body as Answer };
};

describe("Loogle's answers, as Loogle gives them", () => {
  it('resolves the names of a pattern to constants: `Real.sqrt` never matches `Nat.sqrt` or `NNReal.sqrt`', async () => {
    const api = loogle(sqrtCorpus());
    const { body: b } = await body(api, 'Real.sqrt ?a * Real.sqrt ?a');
    const names = b.hits!.map((h) => h.name);
    expect(names.sort()).toEqual(['Real.mul_self_sqrt', 'Real.sqrt_mul_self']);
    expect(names.slice(0, 6).filter((n) => n.startsWith('Nat.'))).toEqual([]);
    expect(b.count).toBe(2);
    // the constant alone: its notation and the statements inside its namespace, never the others'
    const alone = (await body(api, 'Real.sqrt')).body.hits!.map((h) => h.name);
    expect(alone).toEqual(expect.arrayContaining(['Real.mul_self_sqrt', 'Real.sqrt_mul_self', 'Real.nat_sqrt_le_real_sqrt']));
    expect(alone.filter((n) => n.startsWith('Nat.') || n.startsWith('NNReal.'))).toEqual([]);
    // and, as Loogle, the constant itself
    expect(alone).toContain('Real.sqrt');
    expect((await body(api, 'Real.sqrt, NNReal.sqrt')).body.hits!.map((h) => h.name)).not.toContain('Real.sqrt');
    // `Nat.sqrt` is a constant (a statement writes it in full), and its own lemmas mention it
    const nat = (await body(api, 'Nat.sqrt')).body;
    expect(nat.error).toBeUndefined();
    expect(nat.hits!.map((h) => h.name)).toEqual(expect.arrayContaining(['Nat.sqrt_le', 'Real.nat_sqrt_le_real_sqrt']));
    expect(nat.hits!.map((h) => h.name)).not.toContain('Real.mul_self_sqrt');
  });

  it("answers a bare name that is not a constant with Loogle's error, the quoted name first among the suggestions", async () => {
    const api = loogle(sqrtCorpus());
    const { status, body: b } = await body(api, 'rev');
    expect(status).toBe(200);
    expect(b).toMatchObject({ error: "unknown identifier 'rev'", heartbeats: 0 });
    expect(b.hits).toBeUndefined();
    expect(b.suggestions).toEqual(['"rev"', 'Fin.rev']);
    // in a list of parts: the whole list, with that part replaced
    const list = (await body(api, '"le", sqrt, _ * _')).body;
    expect(list.error).toBe("unknown identifier 'sqrt'");
    expect(list.suggestions).toEqual(['"le", "sqrt", _ * _', '"le", Real.sqrt, _ * _', '"le", NNReal.sqrt, _ * _']);
    // a name nothing ends in: the quoted one alone
    expect((await body(api, 'doesnotexist')).body.suggestions).toEqual(['"doesnotexist"']);
  });

  it('reports the true count, not the 200 hits shown', async () => {
    const api = loogle(mulCorpus(450), 600_000);
    const { body: b, headers } = await body(api, '_ * _');
    expect(b.count).toBe(450);
    expect(b.hits).toHaveLength(200);
    expect(b.header).toBe('Found 450 declarations matching _ * _.\nOf these, only the first 200 are shown.');
    expect(headers?.[PARTIAL_HEADER]).toBeUndefined();
    // from the result cache: the same count
    expect((await body(api, '_ * _')).body.count).toBe(450);
  });

  it('flags an answer the time budget cut short, in the header and the header text', async () => {
    const api = loogle(mulCorpus(50), 0);
    const { status, body: b, headers } = await body(api, '_ * _');
    expect(status).toBe(200);
    expect(headers?.[PARTIAL_HEADER]).toMatch(/budget/);
    expect(b.header).toMatch(/time budget ran out \(a partial answer: there may be more\)/);
    expect(b.count).toBe(0);
    expect(b.hits).toEqual([]);
  });

  it('never answers a hit with an empty type', async () => {
    const api = loogle(sqrtCorpus());
    const hits = (await body(api, 'AddMonoid')).body.hits!;
    expect(hits.map((h) => h.name)).toContain('AddMonoid');
    for (const h of hits) expect(h.type).not.toMatch(/:\s*$/);
    expect(hits.find((h) => h.name === 'AddMonoid')!.type).toBe('(M : Type u) : Sort _');
    expect((await body(api, '"AsMul"')).body.hits!.find((h) => h.name === 'AsMul')!.type).toBe('(α : Type*) : _');
  });

  it("judges a hit as Loogle would for the bench's precision: names resolved, fragments in the name", () => {
    const byName = new Map(sqrtCorpus().map((r) => [r.name, r]));
    const hit = (n: string) => byName.get(n)!;
    const q = 'Real.sqrt ?a * Real.sqrt ?a';
    expect(judgeHit(q, hit('Real.mul_self_sqrt'))).toBeUndefined();
    expect(judgeHit(q, hit('Real.sqrt_mul_self'))).toBeUndefined();
    expect(judgeHit(q, hit('Nat.sqrt_le'))).toBe('does not mention Real.sqrt');
    expect(judgeHit(q, hit('NNReal.mul_self_sqrt'))).toBe('does not mention Real.sqrt');
    expect(judgeHit('Nat.sqrt', hit('Real.nat_sqrt_le_real_sqrt'))).toBeUndefined();
    expect(judgeHit('"rev_", Fin.rev', hit('Fin.rev_rev'))).toBeUndefined();
    expect(judgeHit('"lt_rev", Fin.rev', hit('Fin.rev_rev'))).toBe('name has no "lt_rev"');
  });
});
