/** `premise-lsp eval (--index DIR --dataset mathlibqr|mathlibmpr|leandojo|heldout <file> | --index DIR --dataset afp | --project DIR [--limit N] [--half dev|test]) [--mode M|bm25-plain|all] [--rerank | --no-rerank] [--no-informal] [--weights …] [--slot-steps | --slot-from-tactic] [--no-context] [--json]`
 *  --slot-steps: score only LeanDojo steps whose tactic has a slot (rw, simp, exact, apply…);
 *  --slot-from-tactic: the same steps, with the tactic given to the engine as the slot;
 *  --no-context: each query as a new statement typed in a scratch file (see `scratch` in eval/run.ts);
 *  heldout: the index's own held-out statements (eval/statements.ts), the file being the holdout list;
 *  afp: the index's own held-out Isabelle lemmas (eval/isabelle-lemmas.ts), no file;
 *  --project: a Lake project's own theorems searched in its automatic index, the server's entries
 *  (eval/statements.ts `projectStatements`), gold also scored by part (dependency, workspace);
 *  --mode all: every mode on the same engine (bm25-plain, bm25, sine, mepo, dense, hybrid, hybrid + rerank). */
import { existsSync } from 'node:fs';
import { DATASETS, loadDataset } from '../eval/datasets.js';
import { evalModes, formatEval, runEval, type EvalMode, type EvalOptions, type EvalReport } from '../eval/run.js';
import { heldOutLemmas } from '../eval/isabelle-lemmas.js';
import { heldOutStatements, projectQueries, readHoldoutList } from '../eval/statements.js';
import { choice, intOption, MODES, parse, UsageError } from './args.js';
import { ENGINE_FLAGS, openTarget } from './engine-flags.js';

export async function evalCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {
    ...ENGINE_FLAGS,
    dataset: { type: 'string', short: 'd' },
    limit: { type: 'string' },
    half: { type: 'string' },
    'slot-steps': { type: 'boolean' },
    'slot-from-tactic': { type: 'boolean' },
    'no-informal': { type: 'boolean' },
    'no-context': { type: 'boolean' },
  });
  if (!values.index && !values.project) throw new UsageError('eval needs --index <index-dir> or --project <Lake project dir>');
  const sets = [...DATASETS, 'heldout', 'afp'] as const;
  const dataset = choice(values.dataset, 'dataset', sets);
  if (values.project) {
    if (dataset || positionals.length) throw new UsageError('eval --project takes no dataset: its queries are the project\'s own theorems');
  } else if (!dataset) throw new UsageError(`eval needs --dataset ${sets.join('|')}`);
  else if (dataset === 'afp') {
    if (positionals.length) throw new UsageError('--dataset afp takes no file: its lemmas come from the index');
  } else {
    if (positionals.length !== 1) throw new UsageError('eval takes one dataset file');
    if (!existsSync(positionals[0]!)) throw new UsageError(`no such dataset file: ${positionals[0]}`);
  }
  if ((values.limit || values.half) && !values.project) throw new UsageError('--limit and --half are for --project');
  const limit = values.limit === undefined ? undefined : intOption(values.limit, 'limit', 1);
  const half = choice(values.half, 'half', ['dev', 'test'] as const);
  const mode = choice(values.mode, 'mode', [...MODES, 'bm25-plain', 'all'] as const);
  const slotUse = values['slot-from-tactic'] ? 'given' : values['slot-steps'] ? 'steps' : undefined;
  if (slotUse && dataset !== 'leandojo') throw new UsageError('--slot-steps and --slot-from-tactic need --dataset leandojo (steps with a tactic)');
  const target = await openTarget('eval', values, mode === 'bm25' || mode === 'bm25-plain' || mode === 'sine' || mode === 'mepo');
  const { engine, rerank } = target;
  try {
    const name = values.project ? 'project' : dataset!;
    const queries =
      values.project ? projectQueries(target.project!, { limit, half })
      : dataset === 'afp' ? heldOutLemmas(values.index!)
      : dataset === 'heldout' ? heldOutStatements(values.index!, readHoldoutList(positionals[0]!))
      : loadDataset(dataset!, positionals[0]!);
    if (!queries.length) {
      throw new Error(values.project ? `${values.project}: no theorems of its own whose proofs use indexed premises` : `${values.index}: no held-out ${dataset === 'afp' ? 'Isabelle lemmas' : 'statements'} in this index`);
    }
    const informal = !values['no-informal'];
    const opts: EvalOptions = { rerank, slot: slotUse, informal, context: !values['no-context'] };
    const runs: [EvalMode, boolean][] = mode === 'all' ? evalModes(engine) : [[mode ?? (engine.hasDense ? 'hybrid' : 'bm25'), rerank]];
    const reports: EvalReport[] = [];
    for (const [m, r] of runs) {
      const report = await runEval(engine, name, queries, m, { ...opts, rerank: r });
      // metrics over no query would read 0.000 everywhere: not a result
      if (!report.scoredQueries) {
        throw new Error(
          report.queries
            ? `no query could be scored: none of the ${report.queries} queries has a gold premise in ${values.index ?? values.project} (${report.resolved} of ${report.total} gold premises found in the index)`
            : `no query could be scored: no step of the dataset has a tactic with a slot (${slotUse === 'given' ? '--slot-from-tactic' : '--slot-steps'})`,
        );
      }
      // English queries: the informal side's contribution, measured in the same run
      if (informal && m === 'hybrid' && dataset === 'mathlibqr') {
        const off = await runEval(engine, name, queries, m, { ...opts, rerank: r, informal: false });
        report.withoutInformal = { metrics: off.metrics, byStyle: off.byStyle };
      }
      reports.push(report);
    }
    const json = mode === 'all' ? JSON.stringify(reports) : JSON.stringify(reports[0]);
    process.stdout.write(values.json ? json + '\n' : reports.map(formatEval).join('\n') + '\n');
  } finally {
    await engine.dispose();
  }
  return 0;
}
