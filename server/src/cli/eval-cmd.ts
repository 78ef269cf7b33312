/** `premise-lsp eval --index DIR --dataset mathlibqr|mathlibmpr|leandojo <file> [--mode M|bm25-plain] [--rerank | --no-rerank] [--no-informal] [--weights …] [--json]` */
import { existsSync } from 'node:fs';
import { DATASETS, loadDataset } from '../eval/datasets.js';
import { formatEval, runEval } from '../eval/run.js';
import { choice, MODES, parse, UsageError } from './args.js';
import { ENGINE_FLAGS, openFromFlags } from './engine-flags.js';

export async function evalCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { ...ENGINE_FLAGS, dataset: { type: 'string', short: 'd' }, 'no-informal': { type: 'boolean' } });
  if (!values.index) throw new UsageError('eval needs --index <index-dir>');
  const dataset = choice(values.dataset, 'dataset', DATASETS);
  if (!dataset) throw new UsageError(`eval needs --dataset ${DATASETS.join('|')}`);
  if (positionals.length !== 1) throw new UsageError('eval takes one dataset file');
  if (!existsSync(positionals[0]!)) throw new UsageError(`no such dataset file: ${positionals[0]}`);
  const mode = choice(values.mode, 'mode', [...MODES, 'bm25-plain'] as const);
  const { engine, rerank } = await openFromFlags(values.index, values, mode === 'bm25' || mode === 'bm25-plain');
  try {
    const queries = loadDataset(dataset, positionals[0]!);
    const m = mode ?? (engine.hasDense ? 'hybrid' : 'bm25');
    const informal = !values['no-informal'];
    const report = await runEval(engine, dataset, queries, m, rerank, informal);
    // English queries: the informal side's contribution, measured in the same run
    if (informal && m === 'hybrid' && dataset === 'mathlibqr') {
      const off = await runEval(engine, dataset, queries, m, rerank, false);
      report.withoutInformal = { metrics: off.metrics, byStyle: off.byStyle };
    }
    process.stdout.write(values.json ? JSON.stringify(report) + '\n' : formatEval(report) + '\n');
  } finally {
    await engine.dispose();
  }
  return 0;
}
