/**
 * `premise-lsp mcp --index DIR | --project DIR [engine flags]`: the MCP server
 * for agents over stdio (../mcp/). stdout is the MCP channel: every log line,
 * the index's build progress included, goes to stderr.
 *
 * The server answers `initialize` at once and opens the index after it (for
 * `--project`, the language server's automatic index: cached entries reused,
 * missing ones built first); a tool call waits for it. An index that cannot be
 * opened (missing, broken, not an index) makes every call an error saying why and
 * how to fix it: the process never exits before `initialize` for it. The server
 * ends when stdin closes or on SIGINT/SIGTERM.
 *
 * `--lean` (with `--project`; or `-- <cmd…>`, another prover command) gives the
 * `try` tool a Lean server, `lake serve` in the project's root, started at the
 * first `try` call and stopped when the server ends (../mcp/prover.ts). Without
 * one, `try` answers every call with an error saying how to start it.
 */
import type { OpenedEngine } from '../engine/types.js';
import { projectOptions } from '../indexing/cache-state.js';
import { resolve } from 'node:path';
import { FixtureEngine } from '../engine/open.js';
import { McpProver } from '../mcp/prover.js';
import { createMcpServer, NO_PROVER, type TrySource } from '../mcp/server.js';
import { customCommand, leanCommand } from '../upstream/command.js';
import { PremiseTools, ToolError } from '../mcp/tools.js';
import { LineTransport } from '../mcp/stdio.js';
import { packageVersion } from '../paths.js';
import { choice, indexDirOption, intOption, MODES, parse, UsageError } from './args.js';
import { ENGINE_FLAGS, openTarget, type OpenedTarget } from './engine-flags.js';

const MCP_FLAGS = {
  ...ENGINE_FLAGS,
  lean: { type: 'boolean' },
  'try-timeout-ms': { type: 'string' },
  // tests: premises from a JSON list of records instead of the index (as `serve --fake-engine`)
  'fake-engine': { type: 'string' },
} as const;

/** Default wall-clock limit of one `try` call. */
const TRY_TIMEOUT_MS = 120_000;

export async function mcpCommand(argv: string[]): Promise<number> {
  // `-- <cmd…>`: the prover's command, run in the project's root (instead of `--lean`'s `lake serve`)
  const dash = argv.indexOf('--');
  const proverArgv = dash >= 0 ? argv.slice(dash + 1) : undefined;
  const { values, positionals } = parse(dash >= 0 ? argv.slice(0, dash) : argv, MCP_FLAGS);
  if (positionals.length) throw new UsageError(`mcp takes no positional arguments (got ${positionals.join(' ')})`);
  if (!values.index === !values.project) throw new UsageError('mcp needs --index <index-dir> or --project <dir> (one of them)');
  if (proverArgv !== undefined && proverArgv.length === 0) throw new UsageError('mcp: `--` must be followed by the prover\'s command');
  if (values.lean && proverArgv) throw new UsageError('mcp: give --lean or -- <cmd…>, not both');
  const wantsProver = values.lean === true || proverArgv !== undefined;
  if (wantsProver && !values.project) throw new UsageError('mcp: --lean needs --project <dir> (Lean runs in the project\'s root)');
  const tryTimeoutMs = intOption(values['try-timeout-ms'], 'try-timeout-ms', TRY_TIMEOUT_MS);
  const mode = choice(values.mode, 'mode', MODES);
  const log = (line: string) => process.stderr.write(`premise-lsp mcp: ${line}\n`);
  // a missing or broken index never stops the server before the client connects: the client
  // would only see a server that died; every tool call says why, and how to fix it, instead
  let problem: string | undefined;
  try {
    if (values['fake-engine']) {
      /* premises from the fixture */
    } else if (values.index) indexDirOption(values.index);
    else {
      const where = projectOptions(values.project!);
      if (typeof where === 'string') problem = where;
    }
  } catch (e) {
    problem = (e as Error)?.message ?? String(e);
  }
  if (problem) log(`${problem}; serving anyway, every tool call answers with this`);

  // the index opens once the client has initialized (reading a large one holds the process for
  // seconds, and clients give a server only so long to start), or at the first tool call
  let opened: OpenedEngine | undefined;
  let opening: Promise<OpenedTarget> | undefined;
  const open = () =>
    (opening ??= (
      problem
        ? Promise.reject(new Error(problem))
        : values['fake-engine']
          ? Promise.resolve().then(() => ({ engine: FixtureEngine.fromFile(values['fake-engine']!) as unknown as OpenedEngine, rerank: false }))
          : openTarget('mcp', values, mode === 'bm25')
    ).then(
      (t) => {
        opened = t.engine;
        log(`${t.engine.size} premises ready`);
        return t;
      },
      (e: unknown) => {
        log(`the index could not be opened: ${(e as Error)?.message ?? String(e)}`);
        throw new ToolError(`the index could not be opened: ${(e as Error)?.message ?? String(e)}`);
      },
    ));
  const tools = new PremiseTools(open);

  // the prover for `try`: started at the first call, in the project's root
  let prover: McpProver | undefined;
  let trials: TrySource = { unavailable: NO_PROVER };
  if (wantsProver && !problem) {
    try {
      const root = resolve(values.project!);
      const spec = proverArgv ? customCommand(proverArgv, root) : leanCommand(root);
      prover = new McpProver({ root, spec, engine: async () => (await open()).engine, log, callTimeoutMs: tryTimeoutMs });
      const p = prover;
      trials = { run: (args, signal) => p.try(args, signal) };
      log(`try: ${[spec.command, ...spec.args].join(' ')} in ${root}, started at the first call`);
    } catch (e) {
      trials = { unavailable: `try has no prover: ${(e as Error)?.message ?? String(e)}` };
    }
  } else if (wantsProver && problem) trials = { unavailable: `try has no prover: ${problem}` };
  else if (values.index) trials = { unavailable: `${NO_PROVER}; this server runs with --index, which has no project for Lean to run in` };

  const server = await createMcpServer(tools, { version: packageVersion(), log, trials });
  const { JSONRPCMessageSchema } = await import('@modelcontextprotocol/sdk/types.js');
  // every line that is not a message is answered with a JSON-RPC error, and the server goes on (../mcp/stdio.ts)
  const transport = new LineTransport({ isMessage: (v) => JSONRPCMessageSchema.safeParse(v).success, log: (line) => log(`refused ${line}`) });
  transport.onerror = (e) => log(`stdio: ${e.message}`);
  server.server.oninitialized = () => void setTimeout(() => open().catch(() => undefined), 100);
  await server.connect(transport);
  log('serving MCP on stdio');

  await new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close().catch(() => undefined);
  await prover?.stop().catch(() => undefined);
  await opened?.dispose();
  // an automatic index still being built (its indexer processes) does not hold the exit
  setTimeout(() => process.exit(0), 1000).unref();
  return 0;
}
