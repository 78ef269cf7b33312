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
  error?: string;
}

export interface PatternBench {
  index: string;
  mode: Mode;
  /** The first pattern search of a fresh engine (it builds the symbol sets) and the mean of the rest, in ms. */
  firstMs: number;
  meanMs: number;
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
  try {
    for (const f of facts) {
      const t0 = performance.now();
      try {
        const hits = await engine.search(f.query, { k: RANKS, mode, pattern: true, rerank: false });
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
        });
      } catch (e) {
        results.push({ query: f.query, source: f.source, expectedFrom: f.expectedFrom, matches: 0, expected: [], ms: performance.now() - t0, error: (e as Error).message });
      }
    }
  } finally {
    await engine.dispose();
  }
  const rest = results.slice(1).map((r) => r.ms);
  return {
    index: indexDir,
    mode,
    firstMs: results[0]?.ms ?? 0,
    meanMs: rest.length ? rest.reduce((a, b) => a + b, 0) / rest.length : 0,
    results,
  };
}

/** The stage as Markdown: one row per query. */
export function renderPatterns(b: PatternBench): string[] {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const lines = [
    `## Pattern search (Loogle's documented queries)`,
    '',
    `Index ${b.index}, mode ${b.mode}; first search ${b.firstMs.toFixed(0)} ms (builds the symbol sets), then ${b.meanMs.toFixed(0)} ms a query on average.`,
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
    lines.push(`| \`${cell(r.query)}\` | ${r.matches}${r.matches >= RANKS ? '+' : ''} | ${cell(exp)} | ${r.ms.toFixed(0)} |`);
  }
  return lines;
}
