/**
 * What a pattern that repeats an operator costs (issue 36 item 1: `_*_*…*_`, 499 `*`,
 * once built one posting set per `*` and matched every statement that has a `*`):
 * each symbol's postings are read once, and a statement with fewer of the pattern's
 * constant tokens than the pattern never reaches the matcher.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toInfos } from '../../indexes/src/graph.js';
import { SymbolSets } from '../../indexes/src/symbol-sets.js';
import { Engine } from '../../server/src/engine/engine.js';
import { Segment } from '../../server/src/engine/segment.js';
import { parsePattern, symbolGroups } from '../../server/src/engine/pattern.js';
import * as slot from '../../server/src/engine/slot.js';
import { rec } from './engine-helpers.js';

// the matcher, counted: pattern.ts calls it through this module
vi.mock('../../server/src/engine/slot.js', async (importOriginal) => {
  const m = await importOriginal<typeof import('../../server/src/engine/slot.js')>();
  return { ...m, patternMatches: vi.fn(m.patternMatches), patternBinds: vi.fn(m.patternBinds) };
});

/** Premises that all have a `*` (a few of them several). */
const corpus = () =>
  new Engine([
    Segment.fromInfos(toInfos(Array.from({ length: 300 }, (_, i) => rec(`Mul.lemma_${i}`, ['(a b c : ℕ)'], i % 3 ? `a * b = b * a + ${i}` : `a * b * c = a * (b * c) + ${i}`)))),
  ]);

const repeated = `_${'*_'.repeat(499)}`;

afterEach(() => vi.restoreAllMocks());

describe('a pattern that repeats an operator', () => {
  it('is 999 characters, within the size bound', () => {
    expect(repeated).toHaveLength(999);
    expect(parsePattern(repeated).parts).toHaveLength(1);
  });

  it('asks for each symbol once', () => {
    expect(symbolGroups(parsePattern(repeated))).toEqual([['*']]);
    expect(symbolGroups(parsePattern('Real.sqrt ?a * Real.sqrt ?a, Real.sqrt'))).toHaveLength(2);
  });

  it('reads the postings of `*` once, not once per `*`', async () => {
    const e = corpus();
    const postings = vi.spyOn(SymbolSets.prototype, 'postings');
    const hits = await e.search(repeated, { k: 5, mode: 'bm25', pattern: true, patternBudgetMs: 600_000 });
    expect(hits.every((h) => !h.parts.pattern)).toBe(true);
    expect(postings.mock.calls.length).toBeLessThanOrEqual(1);
  });

  it('never runs the matcher on a statement with fewer `*` than the pattern', async () => {
    const e = corpus();
    vi.mocked(slot.patternMatches).mockClear();
    let count: number | undefined;
    await e.search(repeated, { k: 5, mode: 'bm25', pattern: true, patternBudgetMs: 600_000, onMatchCount: (n) => (count = n) });
    expect(slot.patternMatches).not.toHaveBeenCalled();
    expect(count).toBe(0);
    // a pattern the statements can hold still reaches it
    await e.search('_ * _ * _', { k: 5, mode: 'bm25', pattern: true, patternBudgetMs: 600_000, onMatchCount: (n) => (count = n) });
    expect(slot.patternMatches).toHaveBeenCalled();
    expect(count).toBe(100);
    // a conclusion pattern too
    vi.mocked(slot.patternBinds).mockClear();
    await e.search(`⊢ ${repeated.slice(0, 995)}`, { k: 5, mode: 'bm25', pattern: true, patternBudgetMs: 600_000 });
    expect(slot.patternBinds).not.toHaveBeenCalled();
  });
});
