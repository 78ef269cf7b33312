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
 */
import type { OpenedEngine } from '../engine/types.js';
import { projectOptions } from '../indexing/cache-state.js';
import { createMcpServer } from '../mcp/server.js';
import { PremiseTools, ToolError } from '../mcp/tools.js';
import { LineTransport } from '../mcp/stdio.js';
import { packageVersion } from '../paths.js';
import { choice, indexDirOption, MODES, parse, UsageError } from './args.js';
import { ENGINE_FLAGS, openTarget, type OpenedTarget } from './engine-flags.js';

export async function mcpCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, ENGINE_FLAGS);
  if (positionals.length) throw new UsageError(`mcp takes no positional arguments (got ${positionals.join(' ')})`);
  if (!values.index === !values.project) throw new UsageError('mcp needs --index <index-dir> or --project <dir> (one of them)');
  const mode = choice(values.mode, 'mode', MODES);
  const log = (line: string) => process.stderr.write(`premise-lsp mcp: ${line}\n`);
  // a missing or broken index never stops the server before the client connects: the client
  // would only see a server that died; every tool call says why, and how to fix it, instead
  let problem: string | undefined;
  try {
    if (values.index) indexDirOption(values.index);
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
    (opening ??= (problem ? Promise.reject(new Error(problem)) : openTarget('mcp', values, mode === 'bm25')).then(
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

  const server = await createMcpServer(tools, { version: packageVersion(), log });
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
  await opened?.dispose();
  // an automatic index still being built (its indexer processes) does not hold the exit
  setTimeout(() => process.exit(0), 1000).unref();
  return 0;
}
