/**
 * The pattern-search stage: the queries of Loogle's own documentation
 * (`bench/loogle-patterns.json`: query, expected declarations) searched as
 * patterns in an index; for each, how many premises matched, where each expected
 * declaration ranks (and whether it matched), and the time taken.
 */
import { readFileSync } from 'node:fs';
import { openEngine } from '../engine/open.js';
import type { Mode } from '../engine/types.js';

export interface PatternFact {
  query: string;
  source: string;
  expected: string[];
  expectedFrom: 'documentation' | 'mathlib';
  note?: string;
}

export interface PatternResult {
  query: string;
  source: string;
  expectedFrom: string;
  /** Premises that matched the whole pattern (among the first RANKS returned). */
  matches: number;
  /** Each expected name: its rank among the answers (null: not among them), whether it matched, whether the index has it. */
  expected: { name: string; rank: number | null; matched: boolean; indexed: boolean }[];
  ms: number;
  /** The search ran out of its time budget (the matches found by then came first). */
  partial?: boolean;
  error?: string;
}

export interface PatternBench {
  index: string;
  mode: Mode;
  /**
   * The first pattern search of a fresh engine (an index without symbols.bin builds
   * the symbol sets in it), the mean of the next five, the mean, p50 and p95 of all but
   * the first, and the first query searched again at the end, in ms; every search
   * uncached (the result cache is cleared before each).
   */
  firstMs: number;
  nextFiveMs: number;
  meanMs: number;
  p50Ms: number;
  p95Ms: number;
  firstAgainMs: number;
  results: PatternResult[];
}

/** How many answers each query asks for (the engine's most). */
const RANKS = 1000;

export function readPatternFacts(file: string): PatternFact[] {
  const data = JSON.parse(readFileSync(file, 'utf8')) as { queries?: PatternFact[] };
  if (!Array.isArray(data.queries)) throw new Error(`${file}: expected {queries: [...]}`);
  return data.queries;
}

/** `mode`: the signals that order the matches (default: hybrid when the index has vectors, as `query` does). */
export async function benchPatterns(indexDir: string, factsFile: string, asked?: Mode): Promise<PatternBench> {
  const facts = readPatternFacts(factsFile);
  const engine = await openEngine(indexDir, { sparseOnly: asked === 'bm25', defaultReranker: false });
  const mode: Mode = asked ?? (engine.hasDense ? 'hybrid' : 'bm25');
  const results: PatternResult[] = [];
  let firstAgainMs = 0;
  try {
    for (const f of facts) {
      engine.clearCaches();
      const t0 = performance.now();
      let partial = false;
      try {
        const hits = await engine.search(f.query, { k: RANKS, mode, pattern: true, rerank: false, onPartial: () => (partial = true) });
        const ms = performance.now() - t0;
        const rank = new Map(hits.map((h) => [h.name, h]));
        results.push({
          query: f.query,
          source: f.source,
          expectedFrom: f.expectedFrom,
          matches: hits.filter((h) => h.parts.pattern === 1).length,
          expected: f.expected.map((name) => {
            const h = rank.get(name);
            return { name, rank: h?.rank ?? null, matched: h?.parts.pattern === 1, indexed: engine.lookup(name) !== undefined };
          }),
          ms,
          ...(partial ? { partial } : {}),
        });
      } catch (e) {
        results.push({ query: f.query, source: f.source, expectedFrom: f.expectedFrom, matches: 0, expected: [], ms: performance.now() - t0, error: (e as Error).message });
      }
    }
    if (facts.length) {
      engine.clearCaches();
      const t0 = performance.now();
      await engine.search(facts[0]!.query, { k: RANKS, mode, pattern: true, rerank: false }).catch(() => undefined);
      firstAgainMs = performance.now() - t0;
    }
  } finally {
    await engine.dispose();
  }
  const rest = results.slice(1).map((r) => r.ms);
  const sorted = [...rest].sort((a, b) => a - b);
  const at = (p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! : 0);
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  return {
    index: indexDir,
    mode,
    firstMs: results[0]?.ms ?? 0,
    nextFiveMs: mean(rest.slice(0, 5)),
    meanMs: mean(rest),
    p50Ms: at(0.5),
    p95Ms: at(0.95),
    firstAgainMs,
    results,
  };
}

/** The stage as Markdown: one row per query. */
export function renderPatterns(b: PatternBench): string[] {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const lines = [
    `## Pattern search (Loogle's documented queries)`,
    '',
    `Index ${b.index}, mode ${b.mode}; first search of a fresh engine ${b.firstMs.toFixed(0)} ms (the same query again at the end: ${b.firstAgainMs.toFixed(0)} ms), ` +
      `the next five ${b.nextFiveMs.toFixed(0)} ms on average; all but the first: mean ${b.meanMs.toFixed(0)} ms, p50 ${b.p50Ms.toFixed(0)} ms, p95 ${b.p95Ms.toFixed(0)} ms.`,
    '',
    '| query | matches | expected: rank (✓ matched the pattern; ✗ not indexed) | ms |',
    '|---|---:|---|---:|',
  ];
  for (const r of b.results) {
    const exp = r.error
      ? `error: ${r.error}`
      : r.expected.length
        ? r.expected.map((e) => `${e.name}: ${e.indexed ? `${e.rank ?? '—'}${e.matched ? ' ✓' : ''}` : '✗'}`).join(', ')
        : '(none named)';
    lines.push(`| \`${cell(r.query)}\` | ${r.matches}${r.matches >= RANKS ? '+' : ''}${r.partial ? ' (partial)' : ''} | ${cell(exp)} | ${r.ms.toFixed(0)} |`);
  }
  return lines;
}
