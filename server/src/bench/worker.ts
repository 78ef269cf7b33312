/** The measurements themselves; each stage runs in its own process (see main.ts). */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildIndex } from '../../../indexes/src/build.js';
import { loadEncoder } from '../../../models/src/encoder.js';
import { openEngine } from '../engine/open.js';
import type { Mode, OpenedEngine } from '../engine/types.js';
import { loadDataset, type DatasetName } from '../eval/datasets.js';
import { evalModes, runEval, type EvalMode } from '../eval/run.js';
import { heldOutLemmas } from '../eval/isabelle-lemmas.js';
import { heldOutStatements, projectQueries, readHoldoutList, type ProjectHalf } from '../eval/statements.js';
import { openProject } from '../indexing/project-engine.js';
import { Logger } from '../lsp/log.js';
import { defaultModelDir } from '../paths.js';
import { completionOverhead } from './completion.js';

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
const peakMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

export function percentiles(ms: number[]): { p50: number; p95: number; p99: number; mean: number } {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
  const r = (x: number) => Math.round(x * 100) / 100;
  return { p50: r(at(0.5)), p95: r(at(0.95)), p99: r(at(0.99)), mean: r(s.reduce((a, b) => a + b, 0) / (s.length || 1)) };
}

/** MathlibQR's English requests (natural, slogan, nickname): the queries a beginner types. */
function englishQueries(shared: string): string[] {
  const path = join(shared, 'data', 'mathlibqr', 'MathlibQR.json');
  if (!existsSync(path)) return [];
  return loadDataset('mathlibqr', path)
    .filter((q) => ['natural', 'slogan', 'nickname'].includes(q.style))
    .map((q) => q.text);
}

function goals(shared: string): string[] {
  const out: string[] = [];
  for (const f of ['minif2f.jsonl', 'proofnet.jsonl']) {
    const path = join(shared, 'data', 'minif2f', f);
    if (!existsSync(path)) continue;
    for (const line of readFileSync(path, 'utf8').split('\n')) if (line.trim()) out.push(JSON.parse(line).goal);
  }
  return out.filter(Boolean);
}

/** What every stage is told: the sources, the index dir, ../shared, whether to rebuild; the project stage, its Lake project and sample size. */
export interface BenchConfig {
  sources: string[];
  indexDir: string;
  shared: string;
  rebuild: boolean;
  project?: string;
  projectLimit?: number;
}

async function build(cfg: BenchConfig) {
  const record = join(cfg.indexDir, 'bench-build.json');
  if (!cfg.rebuild && existsSync(record)) return { ...JSON.parse(readFileSync(record, 'utf8')), reused: true };
  const encoderDir = defaultModelDir();
  const encoder = existsSync(encoderDir) ? await loadEncoder(encoderDir) : undefined;
  const s = await buildIndex({ sources: cfg.sources, out: cfg.indexDir, encoder, encoderDir });
  const result = {
    seconds: Math.round(s.seconds * 10) / 10,
    peakRssMb: peakMb(),
    files: s.files,
    declarations: s.declarations,
    skippedFiles: s.manifest.stats.skippedFiles,
    warnings: s.warnings.length,
    dense: s.manifest.encoder ?? null,
  };
  writeFileSync(record, JSON.stringify(result));
  return result;
}

async function query(cfg: BenchConfig) {
  const t0 = performance.now();
  const engine = await openEngine(cfg.indexDir);
  const loadMs = performance.now() - t0;
  (globalThis as { gc?: () => void }).gc?.();
  const rssAfterLoad = mb(process.memoryUsage().rss);
  const qs = goals(cfg.shared);
  const english = englishQueries(cfg.shared);
  const modes: { name: string; mode: Mode; rerank: boolean; slot?: string; queries?: string[] }[] = [{ name: 'bm25', mode: 'bm25', rerank: false }];
  if (engine.hasDense) modes.push({ name: 'dense', mode: 'dense', rerank: false }, { name: 'hybrid', mode: 'hybrid', rerank: false });
  if (engine.hasDense) modes.push({ name: 'hybrid + slot rw', mode: 'hybrid', rerank: false, slot: 'rw' });
  if (engine.hasReranker) modes.push({ name: 'hybrid+rerank', mode: 'hybrid', rerank: true });
  if (english.length) modes.push({ name: 'english (hybrid)', mode: engine.hasDense ? 'hybrid' : 'bm25', rerank: false, queries: english });
  const latency: Record<string, ReturnType<typeof percentiles>> = {};
  for (const m of modes) {
    // warm-up, then cold-cache timings for every goal
    const list = m.queries ?? qs;
    for (const q of list.slice(0, 20)) await engine.search(q, { k: 20, mode: m.mode, rerank: m.rerank, slot: m.slot });
    const times: number[] = [];
    for (const q of list) {
      engine.clearCaches();
      const s = performance.now();
      await engine.search(q, { k: 20, mode: m.mode, rerank: m.rerank, slot: m.slot });
      times.push(performance.now() - s);
    }
    latency[m.name] = percentiles(times);
  }
  const batchMode: Mode = engine.hasDense ? 'hybrid' : 'bm25';
  engine.clearCaches();
  const tb = performance.now();
  for (let i = 0; i < qs.length; i += 32) await engine.searchBatch(qs.slice(i, i + 32), { k: 20, mode: batchMode });
  const batchSeconds = (performance.now() - tb) / 1000;
  return {
    premises: engine.size,
    loadMs: Math.round(loadMs),
    rssAfterLoadMb: rssAfterLoad,
    rssAfterQueriesMb: mb(process.memoryUsage().rss),
    peakRssMb: peakMb(),
    queries: qs.length,
    latencyMs: latency,
    batch: { mode: batchMode, batchSize: 32, qps: Math.round(qs.length / batchSeconds) },
  };
}

/** The sets scored, each from its file under ../shared/data; `heldout`: the index's own held-out statements, the holdout list kept out. */
const EVAL_FILES: [DatasetName | 'heldout', string][] = [
  ['mathlibqr', 'mathlibqr/MathlibQR.json'],
  ['mathlibmpr', 'mathlibqr/MathlibMPR.json'],
  ['leandojo', 'leandojo/dev_steps.jsonl'],
  ['heldout', 'holdout_theorems.txt'],
];

async function quality(cfg: BenchConfig) {
  const engine = await openEngine(cfg.indexDir);
  const modes = evalModes(engine);
  const slotMode: EvalMode = engine.hasDense ? 'hybrid' : 'bm25';
  const out = [];
  for (const [name, rel] of EVAL_FILES) {
    const path = join(cfg.shared, 'data', rel);
    if (!existsSync(path)) continue;
    const qs = name === 'heldout' ? heldOutStatements(cfg.indexDir, readHoldoutList(path)) : loadDataset(name, path);
    for (const [mode, rerank] of modes) out.push(await runEval(engine, name, qs, mode, { rerank }));
    // English: the informal side off, for comparison in the same run
    if (name === 'mathlibqr' && engine.hasDense) out.push(await runEval(engine, name, qs, 'hybrid', { informal: false }));
    // the slot as a signal: the steps whose tactic has one, without and with it
    if (name === 'leandojo') for (const use of ['steps', 'given'] as const) out.push(await runEval(engine, name, qs, slotMode, { slot: use }));
  }
  return { evals: out };
}

/** The AFP index on its own held-out lemmas (eval/isabelle-lemmas.ts). */
async function afp(cfg: BenchConfig) {
  const engine = await openEngine(cfg.indexDir);
  const qs = heldOutLemmas(cfg.indexDir);
  const evals = [];
  for (const [mode, rerank] of evalModes(engine)) evals.push(await runEval(engine, 'afp', qs, mode, { rerank }));
  return { evals };
}

/**
 * A downstream Lake project (`--project DIR`): the automatic index the server
 * builds for it (reused from the cache), its own theorems searched at their
 * place with every mode, and as scratch files with BM25 and the hybrid; each
 * half (dev: for choices, test: to report) alone, gold whole and by part.
 */
async function project(cfg: BenchConfig) {
  const log = new Logger(process.stderr);
  const t0 = performance.now();
  const p = await openProject(cfg.project!, log);
  const openSeconds = Math.round((performance.now() - t0) / 100) / 10;
  const evals = [];
  try {
    for (const half of ['dev', 'test'] as ProjectHalf[]) {
      const qs = projectQueries(p, { half, limit: cfg.projectLimit });
      const name = `${half}`;
      for (const [mode, rerank] of evalModes(p.engine)) evals.push(await runEval(p.engine, name, qs, mode, { rerank }));
      for (const mode of ['bm25-plain', ...(p.engine.hasDense ? ['hybrid'] : [])] as EvalMode[]) evals.push({ ...(await runEval(p.engine, name, qs, mode, { context: false })), scratch: true });
    }
  } finally {
    await p.engine.dispose();
  }
  return { dir: cfg.project, entries: p.index.dirs, premises: p.engine.size, openSeconds, evals };
}

async function completion(cfg: BenchConfig) {
  const { direct, proxied } = await completionOverhead(cfg.indexDir, goals(cfg.shared));
  const d = percentiles(direct);
  const p = percentiles(proxied);
  const r = (x: number) => Math.round(x * 100) / 100;
  return {
    requests: proxied.length,
    directMs: d,
    proxiedMs: p,
    addedMs: { p50: r(p.p50 - d.p50), p95: r(p.p95 - d.p95), p99: r(p.p99 - d.p99) },
  };
}

export async function runWorker(stage: string, cfg: BenchConfig): Promise<unknown> {
  switch (stage) {
    case 'build':
      return build(cfg);
    case 'query':
      return query(cfg);
    case 'quality':
      return quality(cfg);
    case 'afp':
      return afp(cfg);
    case 'completion':
      return completion(cfg);
    case 'project':
      return project(cfg);
    default:
      throw new Error(`unknown bench stage ${stage}`);
  }
}
