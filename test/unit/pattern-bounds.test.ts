/**
 * What one pattern search may cost the engine's other callers (issue 31 item 10):
 * bounds on the pattern's own size, one time budget per query with a partial answer
 * flagged as such, and matching in slices that let other searches through.
 */
import { describe, expect, it } from 'vitest';
import { toInfos } from '../../indexes/src/graph.js';
import { Engine } from '../../server/src/engine/engine.js';
import { Segment } from '../../server/src/engine/segment.js';
import { MAX_PATTERN_HYPS, MAX_PATTERN_PARTS, parsePattern, PatternError } from '../../server/src/engine/pattern.js';
import { rec } from './engine-helpers.js';

/** Many premises with an order hypothesis and an order conclusion: every `_ ≤ _` pattern's candidates. */
function orderCorpus(n: number) {
  return Array.from({ length: n }, (_, i) =>
    rec(`Ord.le_${i}`, ['(a b c : ℕ)', '(h₁ : a ≤ b)', '(h₂ : b ≤ c)', `(h₃ : a + ${i} ≤ c + ${i})`], `a ≤ c + ${i} * (b + ${i})`),
  );
}

let shared: Engine | undefined;
/** One engine over 20,000 such premises for the whole file (building it is the slow part). */
const engine = () => (shared ??= new Engine([Segment.fromInfos(toInfos(orderCorpus(20_000)))]));

const implications = (n: number) => `⊢ ${'_ ≤ _ → '.repeat(n)}_ ≤ _`;

describe('pattern search bounds', () => {
  it('refuses a conclusion pattern of 300 or 1,000 implications at once, with the limit', async () => {
    for (const n of [300, 1000]) {
      await expect(engine().search(implications(n), { k: 5, mode: 'bm25', pattern: true })).rejects.toThrow(/characters, more than the 1000 allowed/);
      // recognised as a pattern without the flag: the same answer
      await expect(engine().search(implications(n), { k: 5, mode: 'bm25' })).rejects.toThrow(PatternError);
    }
  });

  it('refuses a hole applied to many holes (`_ _ _ … = _`), too many parts, too deep brackets', async () => {
    const holes = '_ _ _ _ _ _ _ _ _ _ _ _ = _';
    expect(holes).toHaveLength(27);
    await expect(engine().search(holes, { k: 5, mode: 'bm25' })).rejects.toThrow(/holes in a row/);
    expect(() => parsePattern(Array.from({ length: 2000 }, () => '_ ≤ _').join(', '))).toThrow(PatternError);
    expect(() => parsePattern(Array.from({ length: 40 }, () => 'x').join(','))).toThrow(new RegExp(`more than ${MAX_PATTERN_PARTS} comma-separated parts`));
    expect(() => parsePattern(implications(MAX_PATTERN_HYPS + 1))).toThrow(new RegExp(`${MAX_PATTERN_HYPS + 1} hypotheses, more than the ${MAX_PATTERN_HYPS} allowed`));
    expect(() => parsePattern(`⊢ ${'('.repeat(5000)}_ ≤ _${')'.repeat(5000)}`)).toThrow(PatternError);
    // within the bounds: read
    expect(parsePattern('_ _ = _').parts).toHaveLength(1);
    expect(parsePattern(`⊢ (((_ ≤ _ → _ ≤ _)))`).parts[0]).toMatchObject({ kind: 'concl', hyps: [expect.anything()] });
  });

  it('stops at the budget with the matches found by then, flagged partial and not cached', async () => {
    const e = engine();
    const why: string[] = [];
    const cut = await e.search(implications(MAX_PATTERN_HYPS), { k: 5, mode: 'bm25', pattern: true, patternBudgetMs: 0, onPartial: (w) => why.push(w) });
    expect(why).toHaveLength(1);
    expect(why[0]).toMatch(/budget/);
    expect(cut.every((h) => !h.parts.pattern)).toBe(true);
    // the same query with room: complete, matches first, nothing flagged
    const full: string[] = [];
    const hits = await e.search(implications(2), { k: 5, mode: 'bm25', pattern: true, patternBudgetMs: 600_000, onPartial: (w) => full.push(w) });
    expect(full).toEqual([]);
    expect(hits[0]!.parts.pattern).toBe(1);
    // the partial answer was not cached: asked again with room, it is complete
    const again: string[] = [];
    const hits2 = await e.search(implications(MAX_PATTERN_HYPS), { k: 5, mode: 'bm25', pattern: true, patternBudgetMs: 600_000, onPartial: (w) => again.push(w) });
    expect(again).toEqual([]);
    expect(hits2[0]!.parts.pattern).toBe(1);
  });

  it('lets a normal search through while a long pattern search works', async () => {
    const e = engine();
    const order: string[] = [];
    const pattern = e.search(`${implications(MAX_PATTERN_HYPS)}, "le"`, { k: 5, mode: 'bm25', pattern: true, patternBudgetMs: 600_000 }).then((h) => (order.push('pattern'), h));
    const normal = e.search('a ≤ c + 7', { k: 5, mode: 'bm25', pattern: false }).then((h) => (order.push('normal'), h));
    const [p, n] = await Promise.all([pattern, normal]);
    expect(order).toEqual(['normal', 'pattern']);
    expect(n.length).toBeGreaterThan(0);
    expect(p[0]!.parts.pattern).toBe(1);
  });
});
