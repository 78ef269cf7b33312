/**
 * The MCP server (the official SDK's `McpServer`): the four tools of tools.ts,
 * each `{query: string, k?: number}`, and `try` (prover.ts; without a prover each
 * call is an error saying how to start one). Every call is answered: a result, or one
 * with `isError: true` and the reason (bad input, an unknown name, a pattern that
 * does not parse, an index that could not be opened, anything thrown), and the
 * server goes on serving. Unexpected errors are logged through `log` (stderr),
 * never written to stdout, which is the MCP channel.
 *
 * The SDK and zod are imported when a server is made, not when the CLI starts:
 * the bundle would otherwise load them for every command.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MAX_K, TOOL_DESCRIPTIONS, TOOL_NAMES, ToolError, type PremiseTools, type ToolName } from './tools.js';
import type { TryToolArgs } from './prover.js';

/** What answers the `try` tool: the prover (`--project DIR --lean`), or why there is none (every call says it). */
export type TrySource = { run(args: TryToolArgs, signal?: AbortSignal): Promise<unknown> } | { unavailable: string };

export const TRY_DESCRIPTION =
  'Try premises at a tactic step against the Lean server (needs `premise-lsp mcp --project DIR --lean`): the file is read ' +
  'from disk, Lean elaborates each candidate step (exact p a b, rw [p], simp [p]…) in place of the step at the position, ' +
  'and says which close the goal. file: a .lean file in the project (relative to it or absolute); line: 1-based; ' +
  'column (1-based) or after (text on that line: the position is just after it), else the end of the line; premises: names ' +
  "to try (default: the index's top ones for the goal there); tactics: some of exact, apply, rw, simp, grind. " +
  'Returns {results: [{step, premise, outcome, goals?, message?}]}, best first: outcome closes, progress (goals left), timeout, fails (Lean\'s message). The file is not changed.';

const INSTRUCTIONS =
  'Premise selection for Lean 4 (and Isabelle) over a local index of the project and its dependencies (Mathlib…), offline. ' +
  'premises: a goal or proof state → lemmas that help prove it; search: English or any text; pattern: Loogle syntax; ' +
  'declaration: a full name → its statement, module, docstring and source location; ' +
  'try (with --project DIR --lean): which premises Lean accepts at a tactic step of a file.';

const TITLES: Record<ToolName, string> = {
  premises: 'Premises for a goal',
  search: 'Search premises by text',
  pattern: 'Pattern search (Loogle syntax)',
  declaration: 'Look up a declaration',
};

function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** The server with its tools registered; `connect` it to a transport. */
export async function createMcpServer(tools: PremiseTools, info: { version: string; log: (line: string) => void; trials?: TrySource }): Promise<McpServer> {
  const [{ McpServer }, { z }] = await Promise.all([import('@modelcontextprotocol/sdk/server/mcp.js'), import('zod')]);
  const inputSchema = {
    query: z.string().describe('the goal, text, pattern or name'),
    k: z.number().int().min(1).max(MAX_K).optional().describe('how many results'),
  };
  const server = new McpServer({ name: 'premise-lsp', version: info.version }, { instructions: INSTRUCTIONS });
  for (const name of TOOL_NAMES) {
    server.registerTool(
      name,
      { title: TITLES[name], description: TOOL_DESCRIPTIONS[name], inputSchema, annotations: { readOnlyHint: true, openWorldHint: false } },
      async (args): Promise<CallToolResult> => {
        try {
          const value = (await tools.run(name, args)) as Record<string, unknown>;
          return { content: [{ type: 'text', text: JSON.stringify(value, null, 1) }], structuredContent: value };
        } catch (e) {
          if (e instanceof ToolError) return errorResult(e.message);
          info.log(`${name} failed: ${(e as Error)?.stack ?? String(e)}`);
          return errorResult(`${name} failed: ${(e as Error)?.message ?? String(e)}`);
        }
      },
    );
  }
  const trials: TrySource = info.trials ?? { unavailable: NO_PROVER };
  server.registerTool(
    'try',
    {
      title: 'Try premises against Lean',
      description: TRY_DESCRIPTION,
      inputSchema: {
        file: z.string().describe('a .lean file in the project'),
        line: z.number().int().min(1).describe('1-based line of the tactic step'),
        column: z.number().int().min(1).optional().describe('1-based column on that line (default: its end)'),
        after: z.string().optional().describe('text on that line; the position is just after its first occurrence'),
        premises: z.array(z.string()).max(50).optional().describe('premise names to try (default: the top ones for the goal)'),
        tactics: z.array(z.string()).max(5).optional().describe('some of exact, apply, rw, simp, grind'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args, extra): Promise<CallToolResult> => {
      try {
        if ('unavailable' in trials) throw new ToolError(trials.unavailable);
        const value = (await trials.run(args, extra.signal)) as Record<string, unknown>;
        return { content: [{ type: 'text', text: JSON.stringify(value, null, 1) }], structuredContent: value };
      } catch (e) {
        if (e instanceof ToolError) return errorResult(e.message);
        info.log(`try failed: ${(e as Error)?.stack ?? String(e)}`);
        return errorResult(`try failed: ${(e as Error)?.message ?? String(e)}`);
      }
    },
  );
  return server;
}

/** The `try` tool's answer without a prover. */
export const NO_PROVER = 'try needs a Lean server behind the MCP server: start it with `premise-lsp mcp --project DIR --lean` (DIR: the Lake project)';
