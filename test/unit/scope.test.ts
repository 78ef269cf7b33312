/** Scope filters (engine/scope.ts) and pattern search (engine/pattern.ts) through the engine. */
import { describe, expect, it } from 'vitest';
import { toInfos } from '../../indexes/src/graph.js';
import type { PremiseRecord } from '../../indexes/src/extract/record.js';
import { Engine } from '../../server/src/engine/engine.js';
import { Segment } from '../../server/src/engine/segment.js';
import { readScopeTerms } from '../../server/src/engine/scope.js';
import { QueryError } from '../../server/src/engine/query-error.js';
import { fakeEncoder, rec, RECORDS } from './engine-helpers.js';
import { embedPremises } from '../../indexes/src/embed.js';

const inModule = (r: PremiseRecord, module: string, kind: PremiseRecord['kind'] = 'theorem'): PremiseRecord => ({ ...r, module, kind });

/** 300 premises of module Big that match the query well, then 8 of Small.Part that match it less well, a def and a deprecated one. */
function corpus(): PremiseRecord[] {
  const big = Array.from({ length: 300 }, (_, i) => inModule(rec(`Big.add_le_${i}`, ['(a b : ℕ)'], `a + b ≤ a + b + ${i}`), 'Big'));
  const small = Array.from({ length: 8 }, (_, i) => inModule(rec(`Fin.add_${i}`, ['(a b : ℕ)'], `a + b = b + a + ${i} * 0`), 'Small.Part'));
  return [
    ...big,
    ...small,
    inModule(rec('Fin.addDef', ['(a b : ℕ)'], 'ℕ'), 'Small.Part', 'def'),
    { ...inModule(rec('Fin.add_le_old', ['(a b : ℕ)'], 'a + b ≤ a + b'), 'Small.Part'), attrs: ['deprecated'] },
  ];
}

const sparseEngine = (records: PremiseRecord[]) => new Engine([Segment.fromInfos(toInfos(records))]);

async function denseEngine(records: PremiseRecord[]): Promise<Engine> {
  const enc = fakeEncoder('fake', 8);
  const infos = toInfos(records);
  return new Engine([Segment.fromInfos(infos, await embedPremises(infos, enc), enc.dim)], { encoder: enc });
}

describe('scope filters', () => {
  it('reads in:, ns:, kind: and deprecated: terms out of the query text', () => {
    expect(readScopeTerms('a + b in:Mathlib.Topology ns:Finset,Set kind:theorem deprecated:yes')).toEqual({
      text: 'a + b',
      scope: { modules: ['Mathlib.Topology'], namespaces: ['Finset', 'Set'], kinds: ['theorem'], deprecated: true },
    });
    // not a term: inside a word, or an unknown value
    expect(readScopeTerms('hin:x deprecated:maybe').scope).toEqual({});
  });

  it('holds the cap on scope entries wherever they come from: terms in the query, options, both (issue 31 item 11)', async () => {
    const e = sparseEngine(corpus());
    const words = Array.from({ length: 2000 }, (_, i) => `ns:N${i}`).join(' ');
    await expect(e.search(`a + b ≤ a + b ${words}`, { k: 5, mode: 'bm25' })).rejects.toThrow(/2000 namespaces \(ns:\), more than the 100 allowed/);
    await expect(e.search(`_ ≤ _ ${words}`, { k: 5, mode: 'bm25', pattern: true })).rejects.toThrow(QueryError);
    const hundred = Array.from({ length: 100 }, (_, i) => `M${i}`);
    await expect(e.search('a + b in:Small', { k: 5, mode: 'bm25', scope: { modules: hundred } })).rejects.toThrow(/101 modules/);
    // at the cap: searched
    expect(await e.search('a + b ≤ a + b', { k: 5, mode: 'bm25', scope: { namespaces: [...hundred.slice(1), 'Fin'] } })).toHaveLength(5);
  });

  it('restricts to a module prefix before the top-k cut, so k results come back when k match', async () => {
    const query = 'a b : ℕ\n⊢ a + b ≤ a + b';
    const all = await sparseEngine(corpus()).search(query, { k: 5, mode: 'bm25' });
    expect(all.every((h) => h.module === 'Big')).toBe(true);
    for (const hits of [
      await sparseEngine(corpus()).search(`${query} in:Small`, { k: 5, mode: 'bm25' }),
      await sparseEngine(corpus()).search(query, { k: 5, mode: 'bm25', scope: { modules: ['Small.Part'] } }),
      await (await denseEngine(corpus())).search(query, { k: 5, mode: 'hybrid', scope: { modules: ['Small'] } }),
    ]) {
      expect(hits).toHaveLength(5);
      expect(hits.every((h) => h.module === 'Small.Part')).toBe(true);
    }
    // a prefix is a whole module-name part: `Smal` is not `Small`
    expect(await sparseEngine(corpus()).search(query, { k: 5, mode: 'bm25', scope: { modules: ['Smal'] } })).toEqual([]);
  });

  it('restricts to namespaces and kinds (theorem takes lemma too)', async () => {
    const e = sparseEngine([...corpus(), { ...rec('Fin.lemma_one', ['(a b : ℕ)'], 'a + b ≤ a + b'), kind: 'lemma' }]);
    const ns = await e.search('a + b ≤ a + b', { k: 20, mode: 'bm25', scope: { namespaces: ['Fin'] } });
    expect(ns.length).toBeGreaterThan(5);
    expect(ns.every((h) => h.name.startsWith('Fin.'))).toBe(true);
    const defs = await e.search('a + b ℕ kind:def', { k: 20, mode: 'bm25' });
    expect(defs.map((h) => h.name)).toEqual(['Fin.addDef']);
    const thms = await e.search('a + b ≤ a + b ns:Fin kind:theorem', { k: 50, mode: 'bm25' });
    expect(thms.map((h) => h.name)).toContain('Fin.lemma_one');
    expect(thms.map((h) => h.name)).not.toContain('Fin.addDef');
  });

  it('leaves deprecated declarations out unless asked for', async () => {
    const e = sparseEngine(corpus());
    const names = async (q: string, deprecated?: boolean) =>
      (await e.search(q, { k: 400, mode: 'bm25', ...(deprecated === undefined ? {} : { scope: { deprecated } }) })).map((h) => h.name);
    expect(await names('a + b ≤ a + b')).not.toContain('Fin.add_le_old');
    expect(await names('a + b ≤ a + b ns:Fin')).not.toContain('Fin.add_le_old');
    expect(await names('a + b ≤ a + b', true)).toContain('Fin.add_le_old');
    expect(await names('a + b ≤ a + b deprecated:yes')).toContain('Fin.add_le_old');
  });
});

describe('pattern search', () => {
  const e = () => sparseEngine([...RECORDS, rec('mul_self_sqrt', ['(h : 0 ≤ a)'], '√a * √a = a'), rec('sqrt_mul_self', ['(h : 0 ≤ a)'], 'Real.sqrt (a * a) = a')]);

  it('puts the premises that match first, with a repeated variable', async () => {
    const hits = await e().search('?a * ?b = ?b * ?a', { k: 5 });
    expect(hits[0]!.name).toBe('mul_comm');
    expect(hits[0]!.parts.pattern).toBe(1);
    expect(hits.slice(1).every((h) => h.parts.pattern === 0)).toBe(true);
  });

  it('finds a constant through its notation, name fragments, and combinations', async () => {
    const sqrt = await e().search('Real.sqrt', { k: 5, pattern: true });
    expect(sqrt.filter((h) => h.parts.pattern).map((h) => h.name).sort()).toEqual(['mul_self_sqrt', 'sqrt_mul_self']);
    const both = await e().search('Real.sqrt ?a * Real.sqrt ?a', { k: 5 });
    expect(both.filter((h) => h.parts.pattern).map((h) => h.name)).toEqual(['mul_self_sqrt']);
    const named = await e().search('"comm"', { k: 5 });
    expect(named.filter((h) => h.parts.pattern).map((h) => h.name).sort()).toEqual(['add_comm', 'mul_comm']);
    const combined = await e().search('"sqrt", _ * _', { k: 5 });
    expect(combined.filter((h) => h.parts.pattern).map((h) => h.name).sort()).toEqual(['mul_self_sqrt', 'sqrt_mul_self']);
  });

  it('matches a conclusion pattern against the conclusion, hypotheses against hypotheses', async () => {
    const concl = await e().search('⊢ _ ≤ _', { k: 10 });
    expect(concl.filter((h) => h.parts.pattern).map((h) => h.name).sort()).toEqual(['abs_add', 'le_refl', 'le_trans']);
    const withHyp = await e().search('|- _ ≤ _ → _ ≤ _ → _ ≤ _', { k: 10 });
    expect(withHyp.filter((h) => h.parts.pattern).map((h) => h.name)).toEqual(['le_trans']);
  });

  it("binds a conclusion pattern's variables across its hypotheses, in any order", async () => {
    const e = sparseEngine([
      rec('pos_le_a', ['{n : ℕ}', '(h : 0 < n)', '(h2 : n + n = 6 * n)'], '0 ≤ n'),
      rec('pos_le_b', ['{n : ℕ}', '(h2 : n + n = 6 * n)', '(h : 0 < n)'], '0 ≤ n'),
      rec('pos_le_other', ['{n m : ℕ}', '(h : 0 < m)'], '0 ≤ n'),
      rec('head_of', ['{α : Type}', '(l : List α)', '(h : l ≠ [])'], 'α'),
      rec('length_of', ['{α : Type}', '(l : List α)'], 'ℕ'),
    ]);
    const matched = async (q: string) => (await e.search(q, { k: 10, pattern: true })).filter((h) => h.parts.pattern).map((h) => h.name).sort();
    expect(await matched('⊢ 0 < ?n → _ ≤ ?n')).toEqual(['pos_le_a', 'pos_le_b']);
    expect(await matched('|- List ?a -> ?a')).toEqual(['head_of']);
  });

  it('reads name fragments whatever their case', async () => {
    expect((await e().search('"COMM"', { k: 5 })).filter((h) => h.parts.pattern).map((h) => h.name).sort()).toEqual(['add_comm', 'mul_comm']);
  });

  it('says what is wrong with a pattern it was asked to read', async () => {
    await expect(e().search('(_ * _', { pattern: true })).rejects.toThrow(/unbalanced/);
  });
});
