/**
 * `premise-lsp doctor [DIR] [--index DIR]`: checks from the shell what an editor
 * setup needs, one line each (✓, or ✗ with the fix), exit 1 when a check fails:
 * the command on PATH and its version, the shipped models load, the server
 * starts, the index given (opened as the server opens it, index-opener.ts) or the
 * automatic index cache of DIR's project (each
 * entry cached with vectors, sparse-only or not built yet; stale ones), and the
 * prover on PATH (`lake` for a Lake project, run in DIR so elan picks its
 * toolchain, and the toolchain's library sources; `isabelle` for an Isabelle workspace).
 */
import { accessSync, constants, existsSync, realpathSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { checkShippedModels } from '../engine/open.js';
import { lakeProject, leanToolchain } from '../../../indexes/src/packages.js';
import { indexOutFor } from '../../../indexes/src/source-tree.js';
import { autoIndexPlan } from '../indexing/auto-index.js';
import { cacheReport, plannedStates, projectOptions } from '../indexing/cache-state.js';
import { Logger } from '../lsp/log.js';
import { packageRoot, packageVersion } from '../paths.js';
import { parse, UsageError } from './args.js';
import { formatBytes } from './cache-cmd.js';
import { runShort, serverStarts } from './doctor-probe.js';
import { serverIndexOpener } from './index-opener.js';

interface Check {
  ok: boolean;
  line: string;
  /** What to do about a failure. */
  fix?: string;
}

const pass = (line: string): Check => ({ ok: true, line });
const fail = (line: string, fix: string): Check => ({ ok: false, line, fix });

export async function doctorCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { index: { type: 'string', short: 'i' } });
  if (positionals.length > 1) throw new UsageError('doctor takes one project directory at most');
  const given = positionals[0];
  if (given !== undefined && !existsSync(given)) throw new UsageError(`no such directory: ${given}`);
  const dir = resolve(given ?? '.');
  let failed = 0;
  const say = (c: Check) => {
    if (!c.ok) failed++;
    process.stdout.write(`${c.ok ? '✓' : '✗'} ${c.line}${c.fix ? `\n    fix: ${c.fix}` : ''}\n`);
  };

  say(pass(`premise-lsp ${packageVersion()} (node ${process.version}) in ${packageRoot()}`));
  const onPath = findOnPath('premise-lsp');
  const elsewhere = onPath && !sameFile(onPath, join(packageRoot(), 'dist', 'cli.js')) ? ' (another install than this one: editors start that one)' : '';
  say(
    onPath
      ? pass(`premise-lsp on PATH: ${onPath}${elsewhere}`)
      : fail('premise-lsp is not on PATH (editors start the server by that name)', '`npm install -g premise-lsp` (from a checkout: `npm link`), or give your editor the full command: node <premise-lsp>/dist/cli.js serve --stdio'),
  );
  for (const m of await checkShippedModels()) {
    say(m.error ? fail(`${m.model}: ${m.error}`, `reinstall premise-lsp (the shipped models are part of the package: ${m.dir})`) : pass(`${m.model} loads: ${m.detail}`));
  }
  const server = await serverStarts(join(packageRoot(), 'dist', 'cli.js'));
  say(server.ok ? pass(`server starts: ${server.detail}`) : fail(`server does not start: ${server.detail}`, 'run `premise-lsp serve --stdio` by hand to see its errors; PREMISE_LSP_DEBUG=1 prints stacks'));

  if (values.index) for (const c of await indexChecks(values.index)) say(c);
  else for (const c of await projectChecks(dir, given !== undefined)) say(c);

  process.stdout.write(failed ? `${failed} check${failed === 1 ? '' : 's'} failed\n` : 'all checks passed\n');
  return failed ? 1 : 0;
}

/** The index given, opened as the server opens its `index` setting (files, encoder, reranker): a pass means the server loads it. */
async function indexChecks(index: string): Promise<Check[]> {
  const warnings: string[] = [];
  try {
    const engine = await serverIndexOpener((w) => warnings.push(w))(index);
    const size = engine.size;
    const vectors = engine.hasDense ? 'with vectors' : 'sparse-only';
    await engine.dispose();
    return [pass(`index ${index}: ${size} premises, ${vectors}; the server loads it${warnings.length ? ` (${warnings.join('; ')})` : ''}`)];
  } catch (e) {
    return [fail(`index ${index}: ${(e as Error).message}`, `rebuild it: premise-lsp index <source>... --out ${indexOutFor(index)} (or leave \`index\` unset: the server indexes your project by itself)`)];
  }
}

/** The automatic index of the project at `dir` and its prover; `explicit`: DIR was given (not being a project is then a failure). */
async function projectChecks(dir: string, explicit: boolean): Promise<Check[]> {
  const what = projectOptions(dir);
  if (typeof what === 'string') return [fail(what, 'pass a project directory: premise-lsp doctor DIR')];
  const out: Check[] = [];
  let plan;
  try {
    plan = await autoIndexPlan({ ...what, log: new Logger(() => {}, 'error') });
  } catch (e) {
    const msg = (e as Error).message.replace(/^automatic index: /, '');
    if (!explicit) return [pass(`${dir}: no Lean or Isabelle project here (${msg}); run \`premise-lsp doctor DIR\` for a project's automatic index`)];
    return [fail(`automatic index of ${dir}: ${msg}`, 'open a Lake project (a lakefile or lake-manifest.json) or an Isabelle workspace (ROOT, or .thy files)')];
  }
  const title = `${plan.prover === 'lean' ? 'Lake project' : 'Isabelle workspace'} ${plan.name} at ${plan.root}`;
  out.push(pass(`${title}; automatic index cache ${plan.cache}`));
  const report = await cacheReport(plan.cache);
  const bytes = new Map(report.map((e) => [resolve(e.dir), e]));
  for (const { entry, state, dir: at } of plannedStates(plan)) {
    const e = bytes.get(resolve(at));
    const size = e ? `, ${formatBytes(e.bytes)}` : '';
    const name = `${entry.kind} entry ${at}`;
    if (state === 'hybrid') out.push(pass(`${name}: cached with vectors${size}`));
    else if (state === 'sparse-only') out.push(pass(`${name}: cached sparse-only${size} (the server adds the vectors when it starts)`));
    else out.push(pass(`${name}: not built yet (the server builds it when it starts; \`premise-lsp query --project ${plan.root} x\` builds it now)`));
  }
  const stale = report.filter((e) => (e.state === 'stale' || e.state === 'leftover') && e.usedBy.some((u) => u.root === plan.root));
  if (stale.length) out.push(pass(`${stale.length} stale cache entr${stale.length === 1 ? 'y' : 'ies'} of this project (${formatBytes(stale.reduce((s, e) => s + e.bytes, 0))}): \`premise-lsp cache clean\` removes them`));
  if (plan.prover === 'lean') out.push(...(await leanChecks(plan.root, plan.full.some((e) => e.kind === 'toolchain'))));
  else out.push(await isabelleCheck());
  return out;
}

async function leanChecks(root: string, indexedToolchain: boolean): Promise<Check[]> {
  const out: Check[] = [];
  // run in the project: elan's `lake` is the project's lean-toolchain's
  const lake = await runShort('lake', ['--version'], { cwd: root });
  out.push(lake.ok ? pass(`lake: ${lake.detail}`) : fail(`lake: ${lake.detail}`, 'install elan (https://github.com/leanprover/elan) and open a new shell, so that `lake` and `lean` are on PATH; the server starts `lake serve` in the project'));
  const project = lakeProject(root);
  if (typeof project !== 'string' && project.toolchain) {
    const tc = leanToolchain(project);
    if (tc || indexedToolchain) out.push(pass(`toolchain library ${project.toolchain}: ${tc?.dir ?? 'found by `lean --print-prefix`'} (Init and Std are indexed)`));
    else out.push(fail(`toolchain library ${project.toolchain}: no sources under $ELAN_HOME/toolchains (Init and Std are not indexed)`, `\`elan toolchain install ${project.toolchain}\`, or run \`lake build\` in the project once`));
  }
  return out;
}

async function isabelleCheck(): Promise<Check> {
  const r = await runShort('isabelle', ['version']);
  return r.ok ? pass(`isabelle: ${r.detail}`) : fail(`isabelle: ${r.detail}`, "put Isabelle's bin directory on PATH (the server starts `isabelle vscode_server`), or give the editor its full path");
}

/** The first executable `name` in PATH's directories. */
function findOnPath(name: string, path = process.env.PATH ?? ''): string | undefined {
  for (const d of path.split(delimiter)) {
    if (!d) continue;
    const p = join(d, name);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      /* next */
    }
  }
  return undefined;
}

function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}
