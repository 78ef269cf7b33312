/** `premise-lsp eval --index DIR --dataset mathlibqr|mathlibmpr|leandojo|heldout <file> | --dataset afp [--mode M|bm25-plain] [--rerank | --no-rerank] [--no-informal] [--weights …] [--slot-steps | --slot-from-tactic] [--no-context] [--json]`
 *  --slot-steps: score only LeanDojo steps whose tactic has a slot (rw, simp, exact, apply…);
 *  --slot-from-tactic: the same steps, with the tactic given to the engine as the slot;
 *  --no-context: each query as a new statement typed in a scratch file (see `scratch` in eval/run.ts);
 *  heldout: the index's own held-out statements (eval/statements.ts), the file being the holdout list;
 *  afp: the index's own held-out Isabelle lemmas (eval/isabelle-lemmas.ts), no file. */
import { existsSync } from 'node:fs';
import { DATASETS, loadDataset } from '../eval/datasets.js';
import { formatEval, runEval, type EvalOptions } from '../eval/run.js';
import { heldOutLemmas } from '../eval/isabelle-lemmas.js';
import { heldOutStatements, readHoldoutList } from '../eval/statements.js';
import { choice, MODES, parse, UsageError } from './args.js';
import { ENGINE_FLAGS, openFromFlags } from './engine-flags.js';

export async function evalCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {
    ...ENGINE_FLAGS,
    dataset: { type: 'string', short: 'd' },
    'slot-steps': { type: 'boolean' },
    'slot-from-tactic': { type: 'boolean' },
    'no-informal': { type: 'boolean' },
    'no-context': { type: 'boolean' },
  });
  if (!values.index) throw new UsageError('eval needs --index <index-dir>');
  const sets = [...DATASETS, 'heldout', 'afp'] as const;
  const dataset = choice(values.dataset, 'dataset', sets);
  if (!dataset) throw new UsageError(`eval needs --dataset ${sets.join('|')}`);
  if (dataset === 'afp') {
    if (positionals.length) throw new UsageError('--dataset afp takes no file: its lemmas come from the index');
  } else {
    if (positionals.length !== 1) throw new UsageError('eval takes one dataset file');
    if (!existsSync(positionals[0]!)) throw new UsageError(`no such dataset file: ${positionals[0]}`);
  }
  const mode = choice(values.mode, 'mode', [...MODES, 'bm25-plain'] as const);
  const slotUse = values['slot-from-tactic'] ? 'given' : values['slot-steps'] ? 'steps' : undefined;
  if (slotUse && dataset !== 'leandojo') throw new UsageError('--slot-steps and --slot-from-tactic need --dataset leandojo (steps with a tactic)');
  const { engine, rerank } = await openFromFlags(values.index, values, mode === 'bm25' || mode === 'bm25-plain' || mode === 'sine' || mode === 'mepo');
  try {
    const queries =
      dataset === 'afp' ? heldOutLemmas(values.index) : dataset === 'heldout' ? heldOutStatements(values.index, readHoldoutList(positionals[0]!)) : loadDataset(dataset, positionals[0]!);
    if (!queries.length) throw new Error(`${values.index}: no held-out ${dataset === 'afp' ? 'Isabelle lemmas' : 'statements'} in this index`);
    const m = mode ?? (engine.hasDense ? 'hybrid' : 'bm25');
    const informal = !values['no-informal'];
    const opts: EvalOptions = { rerank, slot: slotUse, informal, context: !values['no-context'] };
    const report = await runEval(engine, dataset, queries, m, opts);
    // metrics over no query would read 0.000 everywhere: not a result
    if (!report.scoredQueries) {
      throw new Error(
        report.queries
          ? `no query could be scored: none of the ${report.queries} queries has a gold premise in ${values.index} (${report.resolved} of ${report.total} gold premises found in the index)`
          : `no query could be scored: no step of the dataset has a tactic with a slot (${slotUse === 'given' ? '--slot-from-tactic' : '--slot-steps'})`,
      );
    }
    // English queries: the informal side's contribution, measured in the same run
    if (informal && m === 'hybrid' && dataset === 'mathlibqr') {
      const off = await runEval(engine, dataset, queries, m, { ...opts, informal: false });
      report.withoutInformal = { metrics: off.metrics, byStyle: off.byStyle };
    }
    process.stdout.write(values.json ? JSON.stringify(report) + '\n' : formatEval(report) + '\n');
  } finally {
    await engine.dispose();
  }
  return 0;
}
