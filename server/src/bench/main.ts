/**
 * `npm run bench`: builds a Mathlib-sized index and measures build time and peak
 * memory, load time, resident memory, query latency per mode on the real
 * miniF2F/ProofNet goals, batch throughput, and retrieval quality on the
 * evaluation sets, all against BM25 measured in the same run; with an AFP
 * checkout (`--afp DIR`), the same for an Isabelle index of it on its held-out
 * lemmas; with downstream Lake projects (`--project DIR`, repeatable), every
 * mode on each project's own theorems in its automatic index. Writes
 * bench/report.json and bench/report.md. Each measurement that needs a clean
 * process (peak memory, load time) runs in a child process.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { parseErrorMessage } from '../cli/suggest.js';
import { packageRoot } from '../paths.js';
import { renderMarkdown, renderProjects, type ProjectBench } from './report.js';
import { benchAutoIndex, renderAutoIndex, type AutoIndexBench } from './auto-index.js';
import { runWorker, type BenchConfig } from './worker.js';
import { renderGoalMatch, type GoalMatchSummary } from './goal-match.js';
import { benchPatterns, renderPatterns, type PatternBench } from './patterns.js';
import { benchTrials, renderTrials, type TrialBench } from './trials.js';

function child(stage: string, cfg: BenchConfig): Record<string, unknown> {
  const self = fileURLToPath(import.meta.url);
  const r = spawnSync(process.execPath, ['--expose-gc', self, '--worker', stage, '--config', JSON.stringify(cfg)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`bench stage ${stage} failed (exit ${r.status})`);
  const lines = r.stdout.toString().trim().split('\n');
  return JSON.parse(lines[lines.length - 1]!);
}

async function main(): Promise<void> {
  const options = {
    worker: { type: 'string' },
    config: { type: 'string' },
    mathlib: { type: 'string' },
    batteries: { type: 'string' },
    afp: { type: 'string' },
    shared: { type: 'string' },
    index: { type: 'string' },
    rebuild: { type: 'boolean' },
    out: { type: 'string' },
    only: { type: 'string' },
    project: { type: 'string', multiple: true },
    'project-limit': { type: 'string' },
    patterns: { type: 'string' },
    'pattern-mode': { type: 'string' },
  } as const;
  let parsed;
  try {
    parsed = parseArgs({ options });
  } catch (e) {
    const message = parseErrorMessage(e as NodeJS.ErrnoException, process.argv.slice(2), options);
    process.stderr.write(`premise-lsp bench: ${message}\n\`premise-lsp bench --help\` lists its options\n`);
    process.exitCode = 2;
    return;
  }
  const { values } = parsed;
  if (values.worker) {
    const result = await runWorker(values.worker, JSON.parse(values.config!) as BenchConfig);
    process.stdout.write(JSON.stringify(result) + '\n');
    return;
  }
  const root = packageRoot();
  const patternFacts = resolve(values.patterns ?? join(root, 'bench', 'loogle-patterns.json'));
  const defaultIndex = join(root, 'bench', 'work', 'mathlib-index');
  if (values.only === 'trials') {
    // the trial stage alone: premise-lsp.try against the fake Lean (needs no corpus)
    const t = await benchTrials();
    process.stdout.write(JSON.stringify(t) + '\n' + renderTrials(t).join('\n') + '\n');
    return;
  }
  if (values.only === 'patterns') {
    // the pattern-search stage alone, on an index already built (needs no sources or evaluation data)
    const mode = values['pattern-mode'] === 'hybrid' || values['pattern-mode'] === 'bm25' ? values['pattern-mode'] : undefined;
    const p = await benchPatterns(resolve(values.index ?? defaultIndex), patternFacts, mode);
    process.stdout.write(JSON.stringify(p) + '\n' + renderPatterns(p).join('\n') + '\n');
    return;
  }
  const mathlib = resolve(values.mathlib ?? process.env.PREMISE_BENCH_MATHLIB ?? join(root, '..', 'corpus', 'mathlib4'));
  const batteries = resolve(values.batteries ?? process.env.PREMISE_BENCH_BATTERIES ?? join(root, '..', 'corpus', 'batteries'));
  const afp = resolve(values.afp ?? process.env.PREMISE_BENCH_AFP ?? join(root, '..', 'corpus', 'afp'));
  const shared = resolve(values.shared ?? join(root, '..', 'shared'));
  const projects = (values.project ?? []).map((p) => resolve(p));
  const projectLimit = values['project-limit'] === undefined ? undefined : Number(values['project-limit']);
  if (projectLimit !== undefined && !(Number.isInteger(projectLimit) && projectLimit > 0)) {
    process.stderr.write(`bench: --project-limit takes a positive integer, got ${JSON.stringify(values['project-limit'])}\n`);
    process.exitCode = 2;
    return;
  }
  const projectStage = (cfg: BenchConfig) =>
    projects.map((dir) => {
      process.stderr.write(`bench: downstream project ${dir}…\n`);
      return child('project', { ...cfg, project: dir, ...(projectLimit ? { projectLimit } : {}) }) as unknown as ProjectBench;
    });
  if (values.only === 'project') {
    // the downstream projects alone (their automatic indexes; no Mathlib checkout or evaluation data needed)
    if (!projects.length) {
      process.stderr.write('bench: --only project needs --project DIR\n');
      process.exitCode = 2;
      return;
    }
    const outDir = resolve(values.out ?? join(root, 'bench'));
    mkdirSync(outDir, { recursive: true });
    const report = { date: new Date().toISOString(), machine: { cpus: (await import('node:os')).cpus().length, node: process.version }, projects: projectStage({ sources: [], indexDir: '', shared, rebuild: false }) };
    writeFileSync(join(outDir, 'report-projects.json'), JSON.stringify(report, null, 2) + '\n');
    const md = renderProjects(report.projects).join('\n') + '\n';
    writeFileSync(join(outDir, 'report-projects.md'), md);
    process.stdout.write(md);
    return;
  }
  if (!existsSync(mathlib)) {
    process.stderr.write(
      `bench: no Mathlib checkout at ${mathlib}. Get Mathlib at commit 4f54a550 (see ../shared/data/README.md) ` +
        `and pass --mathlib DIR or set PREMISE_BENCH_MATHLIB.\n`,
    );
    process.exitCode = 2;
    return;
  }
  if (values.only === 'auto-index') {
    // the automatic index stage alone (needs no evaluation data)
    const a = await benchAutoIndex(mathlib, batteries, resolve(join(root, 'bench', 'work', 'auto-index')));
    process.stdout.write(JSON.stringify(a) + '\n' + renderAutoIndex(a).join('\n'));
    return;
  }
  if (!existsSync(join(shared, 'data'))) {
    process.stderr.write(`bench: no evaluation data at ${shared}/data; pass --shared DIR\n`);
    process.exitCode = 2;
    return;
  }
  const cfg: BenchConfig = {
    sources: [mathlib, ...(existsSync(batteries) ? [batteries] : [])],
    indexDir: resolve(values.index ?? defaultIndex),
    shared,
    rebuild: !!values.rebuild,
  };
  if (values.only === 'goal-match') {
    // the goal-match measurement alone, on an index already built
    const g = child('goal-match', cfg) as { runs: GoalMatchSummary[] };
    process.stdout.write(JSON.stringify(g) + '\n' + g.runs.flatMap((run) => [...renderGoalMatch(run), '']).join('\n'));
    return;
  }
  const outDir = resolve(values.out ?? join(root, 'bench'));
  mkdirSync(outDir, { recursive: true });
  const report: Record<string, unknown> = {
    date: new Date().toISOString(),
    machine: { cpus: (await import('node:os')).cpus().length, node: process.version },
    corpus: cfg.sources,
  };
  process.stderr.write('bench: building the index…\n');
  report.build = child('build', cfg);
  process.stderr.write('bench: loading and querying…\n');
  report.query = child('query', cfg);
  process.stderr.write('bench: retrieval quality…\n');
  report.quality = child('quality', cfg);
  if (existsSync(afp)) {
    // Isabelle: an index of the AFP, scored on its own held-out lemmas with the same modes
    const afpCfg: BenchConfig = { ...cfg, sources: [afp], indexDir: resolve(join(root, 'bench', 'work', 'afp-index')) };
    process.stderr.write('bench: building the AFP index…\n');
    const build = child('build', afpCfg);
    process.stderr.write('bench: AFP retrieval quality…\n');
    report.afp = { corpus: afp, build, ...child('afp', afpCfg) };
  } else process.stderr.write(`bench: no AFP checkout at ${afp} (--afp DIR or PREMISE_BENCH_AFP): the Isabelle set is skipped\n`);
  process.stderr.write('bench: pattern search…\n');
  report.patterns = await benchPatterns(cfg.indexDir, patternFacts);
  process.stderr.write('bench: completion overhead…\n');
  report.completion = child('completion', cfg);
  process.stderr.write('bench: trials…\n');
  report.trials = await benchTrials();
  process.stderr.write('bench: automatic index of a Mathlib project…\n');
  report.autoIndex = await benchAutoIndex(mathlib, batteries, resolve(join(root, 'bench', 'work', 'auto-index')));
  if (projects.length) report.projects = projectStage(cfg);
  writeFileSync(join(outDir, 'report.json'), JSON.stringify(report, null, 2) + '\n');
  const md =
    renderMarkdown(report) + '\n' + renderPatterns(report.patterns as PatternBench).join('\n') + '\n\n' + renderAutoIndex(report.autoIndex as AutoIndexBench).join('\n') + '\n\n' + renderTrials(report.trials as TrialBench).join('\n') + (projects.length ? '\n' + renderProjects(report.projects as ProjectBench[]).join('\n') + '\n' : '');
  writeFileSync(join(outDir, 'report.md'), md);
  process.stdout.write(md);
}

main().catch((e) => {
  process.stderr.write(`bench: ${(e as Error).stack ?? e}\n`);
  process.exitCode = 1;
});
