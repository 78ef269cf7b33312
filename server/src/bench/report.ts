/** bench/report.md: the readable summary of bench/report.json, with targets and ratios to BM25. */
import type { EvalReport } from '../eval/run.js';

type Lat = Record<string, { p50: number; p95: number; p99: number; mean: number }>;

export function renderMarkdown(r: Record<string, any>): string {
  const L: string[] = [`# premise-lsp benchmark`, '', `${r.date} · ${r.machine.cpus} cores · node ${r.machine.node}`, ''];
  const b = r.build;
  L.push('## Index build', '', `| files | declarations | skipped files | warnings | seconds | peak RSS MB | dense |`, '|---|---|---|---|---|---|---|');
  L.push(`| ${b.files} | ${b.declarations} | ${b.skippedFiles} | ${b.warnings} | ${b.seconds}${b.reused ? ' (reused)' : ''} | ${b.peakRssMb} | ${b.dense ? `${b.dense.dim}-d` : 'none'} |`, '');
  if (r.afp) {
    const a = r.afp.build;
    L.push(`AFP (${r.afp.corpus}): | ${a.files} | ${a.declarations} | ${a.skippedFiles} | ${a.warnings} | ${a.seconds}${a.reused ? ' (reused)' : ''} | ${a.peakRssMb} | ${a.dense ? `${a.dense.dim}-d` : 'none'} |`, '');
  }
  L.push('Targets: build ≤ 600 s; ≥ 150,000 declarations.', '');
  const q = r.query;
  L.push('## Load and memory', '', `| load ms | RSS after load MB | RSS after queries MB | peak RSS MB |`, '|---|---|---|---|');
  L.push(`| ${q.loadMs} | ${q.rssAfterLoadMb} | ${q.rssAfterQueriesMb} | ${q.peakRssMb} |`, '', 'Targets: load ≤ 1000 ms; resident ≤ 600 MB.', '');
  const lat = q.latencyMs as Lat;
  const base = lat.bm25?.p95 || 1;
  L.push(`## Query latency (${q.queries} miniF2F/ProofNet goals, k = 20, cold caches)`, '', '| mode | p50 ms | p95 ms | p99 ms | p95 / BM25 p95 |', '|---|---|---|---|---|');
  for (const [m, v] of Object.entries(lat)) L.push(`| ${m} | ${v.p50} | ${v.p95} | ${v.p99} | ${(v.p95 / base).toFixed(2)} |`);
  L.push(
    '',
    `Batch API (${q.batch.mode}, batches of ${q.batch.batchSize}): ${q.batch.qps} queries/s. Targets: hybrid p95 ≤ 10 ms (≤ 15 ms with the second stage); ` +
      '`english (hybrid)`: MathlibQR\'s natural, slogan and nickname requests, p95 ≤ 15 ms.',
    '',
  );
  L.push(
    '## Retrieval quality',
    '',
    '`bm25-plain` is BM25 over the whole query, the usual baseline; `bm25` is premise-lsp\'s sparse stage (goal weighted above hypotheses); ' +
      '`sine` and `mepo` are SInE and MePo over the same index\'s symbols. `slot steps`: only the steps whose tactic has a slot (rw, simp, exact, apply…), ' +
      'with the slot unknown or known to the engine.',
    '',
    '| dataset | mode | gold resolved | R@1 | R@5 | R@10 | R@16 | R@32 | R@100 | nDCG@10 | MRR | R@10 ÷ bm25-plain | R@10 ÷ bm25 |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  );
  const evals = [...(r.quality?.evals ?? []), ...(r.afp?.evals ?? [])] as EvalReport[];
  const ratio = (e: EvalReport, base: string) => {
    if (e.slot) return '–';
    const b = evals.find((x) => x.dataset === e.dataset && x.mode === base && !x.slot);
    return b && b.metrics['R@10'] ? (e.metrics['R@10'] / b.metrics['R@10']).toFixed(2) : '–';
  };
  for (const e of evals) {
    const m = e.metrics;
    L.push(
      `| ${e.dataset} | ${e.mode}${e.rerank ? '+rerank' : ''}${e.informal === false ? ' (informal side off)' : ''}${e.slot ? ` (slot steps, ${e.slot === 'given' ? 'known' : 'unknown'})` : ''} | ${e.resolved}/${e.total} | ${m['R@1'].toFixed(3)} | ${m['R@5'].toFixed(3)} | ${m['R@10'].toFixed(3)} | ${m['R@16']?.toFixed(3) ?? '–'} | ${m['R@32']?.toFixed(3) ?? '–'} | ${m['R@100'].toFixed(3)} | ${m['nDCG@10'].toFixed(3)} | ${m.MRR.toFixed(3)} | ${ratio(e, 'bm25-plain')} | ${ratio(e, 'bm25')} |`,
    );
  }
  L.push('');
  // MathlibQR by query style: BM25, and the hybrid with the informal side on and off
  const qr = (mode: string, informal: boolean) => evals.find((e) => e.dataset === 'mathlibqr' && e.mode === mode && !e.rerank && !e.slot && (e.informal !== false) === informal);
  const [qb, qon, qoff] = [qr('bm25', true), qr('hybrid', true), qr('hybrid', false)];
  if (qb && qon && qoff) {
    L.push('### MathlibQR by query style (R@10 / nDCG@10)', '', '| style | queries | BM25 | hybrid, informal side off | hybrid |', '|---|---|---|---|---|');
    const cell = (x: EvalReport, st?: string) => {
      const m = st ? x.byStyle[st]?.metrics : x.metrics;
      return m ? `${m['R@10'].toFixed(3)} / ${m['nDCG@10'].toFixed(3)}` : '–';
    };
    for (const st of Object.keys(qon.byStyle)) L.push(`| ${st} | ${qon.byStyle[st]!.queries} | ${cell(qb, st)} | ${cell(qoff, st)} | ${cell(qon, st)} |`);
    L.push(`| all | ${qon.scoredQueries} | ${cell(qb)} | ${cell(qoff)} | ${cell(qon)} |`, '', 'Targets: all nDCG@10 ≥ 0.50; natural R@10 ≥ 0.65; every style ≥ BM25 and above the informal-off hybrid.', '');
  }
  // the AFP lemmas by half: the Isabelle weights were chosen on dev
  const afp = evals.filter((e) => e.dataset === 'afp');
  if (afp.length) {
    const half = (e: EvalReport, h: string) => {
      const m = e.byStyle[h]?.metrics;
      return m ? `${m['R@10'].toFixed(3)} / ${m['nDCG@10'].toFixed(3)}` : '–';
    };
    L.push('### AFP held-out lemmas by half (R@10 / nDCG@10)', '', '| mode | dev | test |', '|---|---|---|');
    for (const e of afp) L.push(`| ${e.mode}${e.rerank ? '+rerank' : ''} | ${half(e, 'dev')} | ${half(e, 'test')} |`);
    L.push('', 'Targets: hybrid R@10 ≥ 0.60 and ≥ 1.5× bm25-plain; ≥ 1.5× SInE and MePo on LeanDojo and held-out statements.', '');
  }
  if (r.completion) {
    L.push('## Completion overhead (language server)', '');
    const c = r.completion;
    L.push(
      `${c.requests} invoked completions with the goal known, fake Lean behind premise-lsp vs the same requests sent to it directly.`,
      '',
      '| | p50 ms | p95 ms | p99 ms |',
      '|---|---|---|---|',
      `| direct | ${c.directMs.p50} | ${c.directMs.p95} | ${c.directMs.p99} |`,
      `| through premise-lsp | ${c.proxiedMs.p50} | ${c.proxiedMs.p95} | ${c.proxiedMs.p99} |`,
      `| added | ${c.addedMs.p50} | ${c.addedMs.p95} | ${c.addedMs.p99} |`,
      '',
      'Target: added p95 ≤ 30 ms.',
      '',
    );
  }
  return L.join('\n') + '\n';
}

/** What the bench's project stage returns for one downstream Lake project (worker.ts). */
export interface ProjectBench {
  dir: string;
  entries: string[];
  premises: number;
  openSeconds: number;
  evals: (EvalReport & { scratch?: boolean })[];
}

const GOLD_PARTS = ['all', 'dependency', 'workspace'] as const;

/**
 * The downstream projects: per project and half (dev: where choices are made,
 * test: what is reported), every mode at the theorem's place and the scratch
 * variants, R@k and nDCG@10 / MRR for all gold and each part, and the R@10
 * ratio to BM25 (whole query) on the same gold.
 */
export function renderProjects(projects: ProjectBench[]): string[] {
  const L: string[] = [
    '## Downstream projects',
    '',
    'Each project\'s own theorems, searched in the automatic index the server builds for it (dependencies and workspace, the same cache): at the theorem\'s place ' +
      '(the theorem excluded, its file\'s later declarations hidden, earlier ones nearby, the other proofs voting), or as a scratch file. Gold: the names its proof ' +
      'references that the index resolves; `dependency` / `workspace`: only those of the dependencies / of the project. dev: the half where choices are made; test: the other.',
    '',
  ];
  const m3 = (x: number) => x.toFixed(3);
  for (const p of projects) {
    L.push(`### ${p.dir}`, '', `${p.premises} premises in ${p.entries.length} entries, opened in ${p.openSeconds} s.`, '');
    L.push('| half | mode | gold | queries | R@1 | R@5 | R@10 | R@16 | R@32 | R@100 | nDCG@10 | MRR | R@10 ÷ bm25-plain |', '|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    const part = (e: EvalReport, g: (typeof GOLD_PARTS)[number]) => (g === 'all' ? { queries: e.scoredQueries, metrics: e.metrics } : e.byGold?.[g]);
    for (const e of p.evals) {
      const base = p.evals.find((b) => b.dataset === e.dataset && b.mode === 'bm25-plain' && !!b.scratch === !!e.scratch);
      for (const g of GOLD_PARTS) {
        const v = part(e, g);
        if (!v) continue;
        const b = base && part(base, g);
        const ratio = b && b.metrics['R@10'] ? (v.metrics['R@10'] / b.metrics['R@10']).toFixed(2) : '–';
        const m = v.metrics;
        L.push(
          `| ${e.dataset} | ${e.mode}${e.rerank ? '+rerank' : ''}${e.scratch ? ' (scratch file)' : ''} | ${g} | ${v.queries} | ${m3(m['R@1'])} | ${m3(m['R@5'])} | ${m3(m['R@10'])} | ${m3(m['R@16'])} | ${m3(m['R@32'])} | ${m3(m['R@100'])} | ${m3(m['nDCG@10'])} | ${m3(m.MRR)} | ${ratio} |`,
        );
      }
    }
    L.push('');
  }
  L.push('Targets (in place, dependency gold): hybrid R@10 ≥ 0.25 and ≥ 2.5× BM25.', '');
  return L;
}
