/**
 * The pattern-search stage: the queries of Loogle's own documentation
 * (`bench/loogle-patterns.json`: query, expected declarations) searched as
 * patterns in an index; for each, how many premises matched, where each expected
 * declaration ranks (and whether it matched), the precision of the hits Loogle's API
 * would show, and the time taken.
 */
import { readFileSync } from 'node:fs';
import { binderToHyp } from '../../../indexes/src/extract/lean/signature.js';
import { statementSymbols } from '../../../indexes/src/symbol-sets.js';
import { notationOf, openEngine, parsePattern, patternConstants } from '../engine/open.js';
import type { Mode, SearchHit } from '../engine/types.js';

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
  /**
   * Of the first SHOWN matches (what Loogle's API lists), the share that match as Loogle
   * would (`judgeHit`); null when there are none.
   */
  precision: number | null;
  /** The first SHOWN matches that `judgeHit` refuses (at most 5), with why. */
  wrong?: string[];
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
  /** Precision over every query's shown matches together (null when none matched). */
  precision: number | null;
  results: PatternResult[];
}

/** How many answers each query asks for (the engine's most). */
const RANKS = 1000;
/** How many matches precision is judged on: the hits Loogle's API shows. */
const SHOWN = 200;

/**
 * Whether a hit matches the pattern as Loogle would, judged without the matcher's own
 * leniency: every constant the pattern names is one the statement mentions, resolved as
 * Lean resolves it (written in full, by its notation, or by a suffix inside the
 * constant's own namespace: a suffix that only an `open` could resolve does not count,
 * `sqrt` in `Nat.sqrt_le` is not `Real.sqrt`), and every quoted fragment is in the name
 * (case aside). Term shapes are the matcher's (no other matcher is at hand without Lean):
 * the judge checks what names mean. Undefined when it matches, else why not.
 */
export function judgeHit(query: string, hit: Pick<SearchHit, 'name' | 'args' | 'goal' | 'statement'>): string | undefined {
  const pattern = parsePattern(query);
  const symbols = new Set(statementSymbols(hit.args.map(binderToHyp), hit.goal || hit.statement));
  const ns = hit.name.split('.').slice(0, -1);
  const selves = new Set(pattern.parts.flatMap((p) => (p.kind === 'const' ? [p.name] : [])));
  for (const c of patternConstants(pattern)) {
    // Loogle: a constant part finds the constant itself
    if (symbols.has(c) || (selves.has(c) && hit.name === c)) continue;
    const mark = notationOf(c);
    if (mark && symbols.has(mark)) continue;
    // a suffix `B.c` or `c` of `A.B.c` resolves to it inside namespace `A` (or `A.B`) and below
    const parts = c.split('.');
    const inside = parts.slice(1).some((_, i) => {
      const owner = parts.slice(0, i + 1);
      return symbols.has(parts.slice(i + 1).join('.')) && owner.every((o, j) => ns[j] === o);
    });
    if (!inside) return `does not mention ${c}`;
  }
  for (const p of pattern.parts) if (p.kind === 'name' && !hit.name.toLowerCase().includes(p.fragment.toLowerCase())) return `name has no "${p.fragment}"`;
  return undefined;
}

/** Precision of the first SHOWN matches (null when none), and the refused ones. */
function precisionOf(query: string, hits: SearchHit[]): { precision: number | null; wrong?: string[] } {
  const shown = hits.filter((h) => h.parts.pattern === 1).slice(0, SHOWN);
  if (!shown.length) return { precision: null };
  const wrong = shown.flatMap((h) => {
    const why = judgeHit(query, h);
    return why ? [`${h.name}: ${why}`] : [];
  });
  return { precision: (shown.length - wrong.length) / shown.length, ...(wrong.length ? { wrong: wrong.slice(0, 5) } : {}) };
}

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
          ...precisionOf(f.query, hits),
          expected: f.expected.map((name) => {
            const h = rank.get(name);
            return { name, rank: h?.rank ?? null, matched: h?.parts.pattern === 1, indexed: engine.lookup(name) !== undefined };
          }),
          ms,
          ...(partial ? { partial } : {}),
        });
      } catch (e) {
        results.push({ query: f.query, source: f.source, expectedFrom: f.expectedFrom, matches: 0, precision: null, expected: [], ms: performance.now() - t0, error: (e as Error).message });
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
  const judged = results.filter((r) => r.precision !== null);
  const shownOf = (r: PatternResult) => Math.min(r.matches, SHOWN);
  const shownAll = judged.reduce((n, r) => n + shownOf(r), 0);
  return {
    index: indexDir,
    mode,
    precision: shownAll ? judged.reduce((n, r) => n + r.precision! * shownOf(r), 0) / shownAll : null,
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
    `Precision (the share of the first ${SHOWN} matches of each query that match as Loogle would: the constants the pattern names resolved as Lean resolves them, ` +
      `the quoted fragments in the name): ${b.precision === null ? '—' : `${(100 * b.precision).toFixed(1)}%`} over all queries.`,
    '',
    '| query | matches | precision | expected: rank (✓ matched the pattern; ✗ not indexed) | ms |',
    '|---|---:|---:|---|---:|',
  ];
  for (const r of b.results) {
    const exp = r.error
      ? `error: ${r.error}`
      : r.expected.length
        ? r.expected.map((e) => `${e.name}: ${e.indexed ? `${e.rank ?? '—'}${e.matched ? ' ✓' : ''}` : '✗'}`).join(', ')
        : '(none named)';
    const precision = r.precision === null ? '—' : `${(100 * r.precision).toFixed(0)}%`;
    lines.push(`| \`${cell(r.query)}\` | ${r.matches}${r.matches >= RANKS ? '+' : ''}${r.partial ? ' (partial)' : ''} | ${precision} | ${cell(exp)} | ${r.ms.toFixed(0)} |`);
  }
  return lines;
}
