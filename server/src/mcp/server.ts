/**
 * The MCP server (the official SDK's `McpServer`): the four tools of tools.ts,
 * each `{query: string, k?: number}`. Every call is answered: a result, or one
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

const INSTRUCTIONS =
  'Premise selection for Lean 4 (and Isabelle) over a local index of the project and its dependencies (Mathlib…), offline. ' +
  'premises: a goal or proof state → lemmas that help prove it; search: English or any text; pattern: Loogle syntax; ' +
  'declaration: a full name → its statement, module, docstring and source location.';

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
export async function createMcpServer(tools: PremiseTools, info: { version: string; log: (line: string) => void }): Promise<McpServer> {
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
  return server;
}
