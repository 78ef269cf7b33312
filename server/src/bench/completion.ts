/**
 * Completion latency added by premise-lsp with the goal already known: the same
 * invoked completions (after `exact `, where prover items and premises are
 * merged) are timed against the fake Lean server directly and through
 * `premise-lsp serve` in front of it, serving the benchmark index. Each goal is
 * first made known the way editors do it (the editor's own `$/lean/plainGoal`,
 * captured passively), so the timed request pays for retrieval and merging only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { JsonRpcClient } from '../jsonrpc/client.js';
import { packageRoot } from '../paths.js';
import { TAG as PREMISE_TAG } from '../lsp/features/completion.js';

/** A client over the child's stdio that ends the session properly. */
class Client extends JsonRpcClient {
  constructor(readonly proc: ChildProcess) {
    super(proc.stdout!, proc.stdin!);
  }

  async close(): Promise<void> {
    await this.request('shutdown', null);
    this.notify('exit', null);
    await new Promise((r) => this.proc.once('exit', r));
  }
}

type Position = { line: number; character: number };
type Items = { data?: unknown }[];

/** One theorem per goal, each with a `-- goal:` annotation the fake Lean answers from. */
function document(goals: string[]): { text: string; slots: Position[] } {
  const lines: string[] = [];
  const slots: Position[] = [];
  goals.forEach((g, i) => {
    lines.push(`theorem bench_${i} : True := by`, `  -- goal: ${g.replace(/\n/g, '\\n')}`, '  exact ', '');
    slots.push({ line: lines.length - 2, character: 8 });
  });
  return { text: lines.join('\n'), slots };
}

/** An invoked completion at `position` with its goal made known first, as editors do; its reply and how long the completion took. */
async function complete(client: Client, uri: string, position: Position): Promise<{ items: Items; ms: number }> {
  await client.request('$/lean/plainGoal', { textDocument: { uri }, position });
  const t = performance.now();
  const reply = (await client.request('textDocument/completion', { textDocument: { uri }, position, context: { triggerKind: 1 } })).result as
    | { items?: Items }
    | Items
    | null;
  const ms = performance.now() - t;
  return { items: Array.isArray(reply) ? reply : (reply?.items ?? []), ms };
}

async function timeCompletions(client: Client, uri: string, slots: Position[]): Promise<number[]> {
  const times: number[] = [];
  for (const position of slots) times.push((await complete(client, uri, position)).ms);
  return times;
}

/**
 * Waits until completions carry premises: the server loads its index in the
 * background, and replies timed while it loads would measure the load (or no
 * retrieval at all), not the retrieval the editor waits for afterwards.
 */
async function untilPremises(client: Client, uri: string, position: Position): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const { items } = await complete(client, uri, position);
    if (items.some((i) => typeof i.data === 'object' && i.data !== null && PREMISE_TAG in i.data)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('bench: the server gave no premise completions within 120 s (index not loaded?)');
}

async function session(command: string[], goals: string[], proxied: boolean): Promise<number[]> {
  const proc = spawn(process.execPath, command, { stdio: ['pipe', 'pipe', 'ignore'], cwd: packageRoot() });
  const client = new Client(proc);
  await client.request('initialize', { processId: process.pid, rootUri: null, capabilities: {} });
  client.notify('initialized', {});
  const uri = 'file:///bench/Bench.lean';
  const { text, slots } = document(goals);
  client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'lean4', version: 1, text } });
  await timeCompletions(client, uri, slots.slice(0, 10)); // warm-up (JIT)
  if (proxied) await untilPremises(client, uri, slots[0]!);
  const times = await timeCompletions(client, uri, slots.slice(10));
  await client.close();
  return times;
}

export async function completionOverhead(indexDir: string, goals: string[]): Promise<{ direct: number[]; proxied: number[] }> {
  const root = packageRoot();
  const fakeLean = join(root, 'test', 'doubles', 'fake-lean.mjs');
  const sample = goals.slice(0, 210);
  const direct = await session([fakeLean], sample, false);
  const proxied = await session([join(root, 'dist', 'cli.js'), 'serve', '--stdio', '--index', indexDir, '--', process.execPath, fakeLean], sample, true);
  return { direct, proxied };
}
