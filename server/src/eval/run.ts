/**
 * Runs an evaluation set against an engine; gold names the index cannot resolve
 * are reported and not scored. When the query's theorem is in the index, every
 * mode searches as if proving it in its file: the theorem itself is excluded (its
 * own proof must not vote), what its file declares below it is hidden (not yet
 * available there), and what the file declares above it is `nearby`.
 */
import { slotOf } from '../engine/open.js';
import type { Mode, OpenedEngine, PoolEntry, PremiseSearch } from '../engine/types.js';
import type { EvalQuery } from './datasets.js';
import { groupRanks, meanMetrics, queryMetrics, type Metrics } from './metrics.js';

/** The engine's modes, plus `bm25-plain`: BM25 over the whole state, the usual baseline. */
export type EvalMode = Mode | 'bm25-plain';

/** Every mode an engine can score: BM25 (whole query and goal-weighted), SInE and MePo (Lean core's and Sledgehammer's selectors, over the same index's symbols), dense, hybrid, reranked (mode, rerank). */
export function evalModes(engine: Pick<OpenedEngine, 'hasDense' | 'hasReranker'>): [EvalMode, boolean][] {
  const modes: [EvalMode, boolean][] = [['bm25-plain', false], ['bm25', false], ['sine', false], ['mepo', false]];
  if (engine.hasDense) modes.push(['dense', false], ['hybrid', false]);
  if (engine.hasReranker) modes.push(['hybrid', true]);
  return modes;
}

/**
 * `steps`: only queries whose tactic has a slot (rw, simp, exact, apply…), searched
 * without it; `given`: the same queries, searched with their tactic's slot.
 */
export type SlotUse = 'steps' | 'given';

export interface EvalReport {
  dataset: string;
  mode: EvalMode;
  rerank: boolean;
  /** Whether text queries also searched the informal (English) side of the premises. */
  informal: boolean;
  /** The same queries with the informal side off (text datasets in hybrid mode, for comparison). */
  withoutInformal?: { metrics: Metrics; byStyle: EvalReport['byStyle'] };
  /** Set when only steps with a slot were scored (`given`: with the slot passed to the engine). */
  slot?: SlotUse;
  /** Gold premises (groups) in the dataset, and how many the index resolves. */
  total: number;
  resolved: number;
  queries: number;
  scoredQueries: number;
  metrics: Metrics;
  byStyle: Record<string, { queries: number; metrics: Metrics }>;
  /** Queries with named parts of their gold (`EvalQuery.goldParts`): each part scored alone, over the queries that have some of it. */
  byGold?: Record<string, { queries: number; metrics: Metrics }>;
  /**
   * Candidate generation apart from ranking (modes with a candidate pool, not the
   * baselines): per gold part (`all`, and each of `goldParts`), over the queries that
   * have some of it, the mean share of gold groups the whole pool holds, and the share
   * each generator's own list holds (a premise two generators propose counts for both;
   * test/unit/eval-run.test.ts).
   */
  pool?: Record<string, PoolRecall>;
}

export interface PoolRecall {
  queries: number;
  pool: number;
  generators: Record<string, number>;
}

export interface EvalOptions {
  /** Use the second stage (default false). */
  rerank?: boolean;
  /** Only the steps with a slot, searched with it given or not (see `SlotUse`). */
  slot?: SlotUse;
  /** Text queries also search the premises' informal side (default true). */
  informal?: boolean;
  /**
   * Search as if proving the theorem at its place in its file (default true);
   * false: as a new statement typed in a scratch file (`scratch`).
   */
  context?: boolean;
}

export async function runEval(engine: PremiseSearch, dataset: string, queries: EvalQuery[], mode: EvalMode, opts: EvalOptions = {}): Promise<EvalReport> {
  const { rerank = false, slot: slotUse, informal = true, context = true } = opts;
  if (slotUse) queries = queries.filter((q) => slotOf(q.tactic));
  const search = { ...(mode === 'bm25-plain' ? { mode: 'bm25' as const, plainBm25: true } : { mode }), informal };
  let total = 0;
  let resolved = 0;
  const scored: { q: EvalQuery; gold: string[][] }[] = [];
  for (const q of queries) {
    const gold = q.gold.map((g) => g.filter((n) => engine.lookup(n))).filter((g) => g.length);
    total += q.gold.length;
    resolved += gold.length;
    if (gold.length) scored.push({ q, gold });
  }
  const per: { style: string; m: Metrics }[] = [];
  const parts = new Map<string, Metrics[]>();
  const pools = new Map<string, PoolShares[]>();
  const files = scored.some((s) => s.q.theorem) ? fileDeclarations(engine) : undefined;
  for (const { q, gold } of scored) {
    const slot = slotUse === 'given' ? q.tactic : undefined;
    const where = q.theorem ? provingIn(engine, files!, q.theorem) : {};
    let pool: PoolEntry[] | undefined;
    const hits = await engine.search(q.text, { k: 100, ...search, rerank, slot, pattern: false, ...(context ? where : scratch(where)), onPool: (p) => (pool = p) });
    const ranked = hits.map((h) => h.name);
    per.push({ style: q.style, m: queryMetrics(groupRanks(ranked, gold)) });
    const found = pool && poolIndex(pool);
    if (found) push(pools, 'all', poolShares(found, gold));
    for (const [part, groups] of Object.entries(q.goldParts ?? {})) {
      const g = groups.map((x) => x.filter((n) => engine.lookup(n))).filter((x) => x.length);
      if (!g.length) continue;
      push(parts, part, queryMetrics(groupRanks(ranked, g)));
      if (found) push(pools, part, poolShares(found, g));
    }
  }
  const byStyle: EvalReport['byStyle'] = {};
  for (const style of [...new Set(per.map((p) => p.style))].sort()) {
    const ms = per.filter((p) => p.style === style).map((p) => p.m);
    byStyle[style] = { queries: ms.length, metrics: meanMetrics(ms) };
  }
  return {
    dataset,
    mode,
    rerank,
    informal,
    ...(slotUse ? { slot: slotUse } : {}),
    total,
    resolved,
    queries: queries.length,
    scoredQueries: scored.length,
    metrics: meanMetrics(per.map((p) => p.m)),
    byStyle,
    ...(pools.size ? { pool: Object.fromEntries([...pools].sort(([a], [b]) => (a === 'all' ? -1 : b === 'all' ? 1 : a.localeCompare(b))).map(([k, xs]) => [k, meanShares(xs)])) } : {}),
    ...(parts.size ? { byGold: Object.fromEntries([...parts].sort(([a], [b]) => a.localeCompare(b)).map(([k, ms]) => [k, { queries: ms.length, metrics: meanMetrics(ms) }])) } : {}),
  };
}

function push<T>(m: Map<string, T[]>, k: string, v: T): void {
  const xs = m.get(k);
  if (xs) xs.push(v);
  else m.set(k, [v]);
}

/** A pool by name: the stages that proposed each candidate. */
function poolIndex(pool: PoolEntry[]): Map<string, readonly string[]> {
  return new Map(pool.map((c) => [c.name, c.via]));
}

/** One query's shares of gold groups held by the pool and by each stage's own list. */
interface PoolShares {
  pool: number;
  generators: Map<string, number>;
}

function poolShares(pool: Map<string, readonly string[]>, gold: string[][]): PoolShares {
  const generators = new Map<string, number>();
  for (const via of pool.values()) for (const g of via) generators.set(g, 0);
  let held = 0;
  for (const group of gold) {
    const by = new Set(group.flatMap((n) => pool.get(n) ?? []));
    if (group.some((n) => pool.has(n))) held++;
    for (const g of by) generators.set(g, generators.get(g)! + 1);
  }
  for (const [g, n] of generators) generators.set(g, n / gold.length);
  return { pool: held / gold.length, generators };
}

/** Means over queries; a stage absent from a query's pool counts 0 there. */
function meanShares(xs: PoolShares[]): PoolRecall {
  const names = [...new Set(xs.flatMap((x) => [...x.generators.keys()]))];
  const mean = (f: (x: PoolShares) => number) => xs.reduce((s, x) => s + f(x), 0) / xs.length;
  return { queries: xs.length, pool: mean((x) => x.pool), generators: Object.fromEntries(names.map((g) => [g, mean((x) => x.generators.get(g) ?? 0)])) };
}

export type FileDeclarations = Map<string, { name: string; line: number }[]>;

/** Every indexed premise by module, with the line it starts on (reads all metadata once). */
export function fileDeclarations(engine: PremiseSearch): FileDeclarations {
  const out: FileDeclarations = new Map();
  for (const name of engine.indexedNames()) {
    const p = engine.lookup(name);
    if (!p) continue;
    let list = out.get(p.module);
    if (!list) out.set(p.module, (list = []));
    list.push({ name, line: p.range.start.line });
  }
  return out;
}

/** Search options for a query stated at `theorem`'s place in its file. */
export function provingIn(engine: PremiseSearch, files: FileDeclarations, theorem: string): { exclude: string[]; hidden?: string[]; nearby?: string[] } {
  const t = engine.lookup(theorem);
  if (!t) return { exclude: [theorem] };
  const line = t.range.start.line;
  const same = (files.get(t.module) ?? []).filter((p) => p.name !== theorem);
  return {
    exclude: [theorem],
    hidden: same.filter((p) => p.line >= line).map((p) => p.name),
    nearby: same.filter((p) => p.line < line).map((p) => p.name),
  };
}

/**
 * The search options of a theorem's place (`provingIn`) for the same statement typed
 * in a scratch file: nothing is nearby, and what its file declares below it is
 * neither returned nor evidence (those proofs are not written yet), as the
 * theorem itself.
 */
export function scratch(where: ReturnType<typeof provingIn> | Record<string, never>): { exclude?: string[] } {
  return 'exclude' in where ? { exclude: [...where.exclude, ...(where.hidden ?? [])] } : {};
}

export function formatEval(r: EvalReport): string {
  const fmt = (m: Metrics) => Object.entries(m).map(([k, v]) => `${k} ${v.toFixed(3)}`).join('  ');
  const lines = [
    `${r.dataset} · ${r.mode}${r.rerank ? ' + rerank' : ''}${r.slot ? ` · slot steps, slot ${r.slot === 'given' ? 'known' : 'unknown'}` : ''} · ${r.scoredQueries}/${r.queries} queries scored · gold resolved ${r.resolved}/${r.total}`,
    `  all            ${fmt(r.metrics)}`,
  ];
  for (const [s, v] of Object.entries(r.byStyle)) lines.push(`  ${s.padEnd(14)} ${fmt(v.metrics)}  (${v.queries})`);
  for (const [g, v] of Object.entries(r.byGold ?? {})) lines.push(`  ${`${g} gold`.padEnd(14)} ${fmt(v.metrics)}  (${v.queries})`);
  for (const [g, v] of Object.entries(r.pool ?? {})) {
    const each = Object.entries(v.generators).map(([n, x]) => `${n} ${x.toFixed(3)}`).join('  ');
    lines.push(`  ${`pool, ${g}`.padEnd(14)} ${v.pool.toFixed(3)}  (${each})`);
  }
  if (r.withoutInformal) {
    lines.push(`  without the informal side:`, `  all            ${fmt(r.withoutInformal.metrics)}`);
    for (const [s, v] of Object.entries(r.withoutInformal.byStyle)) lines.push(`  ${s.padEnd(14)} ${fmt(v.metrics)}  (${v.queries})`);
  }
  return lines.join('\n');
}
