/** `premise-lsp eval --index DIR --dataset mathlibqr|mathlibmpr|leandojo <file> [--mode M] [--rerank] [--json]` */
import { existsSync } from 'node:fs';
import { openEngine } from '../engine/open.js';
import { DATASETS, loadDataset } from '../eval/datasets.js';
import { formatEval, runEval } from '../eval/run.js';
import { weightsOption, choice, MODES, parse, UsageError } from './args.js';

export async function evalCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {
    index: { type: 'string', short: 'i' },
    dataset: { type: 'string', short: 'd' },
    mode: { type: 'string' },
    rerank: { type: 'boolean' },
    'no-rerank': { type: 'boolean' },
    json: { type: 'boolean' },
    encoder: { type: 'string' },
    reranker: { type: 'string' },
    weights: { type: 'string' },
  });
  if (!values.index) throw new UsageError('eval needs --index <index-dir>');
  const dataset = choice(values.dataset, 'dataset', DATASETS);
  if (!dataset) throw new UsageError(`eval needs --dataset ${DATASETS.join('|')}`);
  if (positionals.length !== 1) throw new UsageError('eval takes one dataset file');
  if (!existsSync(positionals[0]!)) throw new UsageError(`no such dataset file: ${positionals[0]}`);
  const mode = choice(values.mode, 'mode', [...MODES, 'bm25-plain'] as const);
  const w = weightsOption(values.weights);
  const engine = await openEngine(values.index, { encoderDir: values.encoder, rerankerDir: values.reranker, weights: w && { formal: w, text: w }, sparseOnly: (mode === 'bm25' || mode === 'bm25-plain') && !values.rerank });
  try {
    const queries = loadDataset(dataset, positionals[0]!);
    const rerank = values['no-rerank'] ? false : (values.rerank ?? engine.rerankByDefault);
    const report = await runEval(engine, dataset, queries, mode ?? (engine.encoder ? 'hybrid' : 'bm25'), rerank);
    process.stdout.write(values.json ? JSON.stringify(report) + '\n' : formatEval(report) + '\n');
  } finally {
    await engine.encoder?.dispose();
  }
  return 0;
}
