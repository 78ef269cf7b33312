/**
 * `premise-lsp mcp`: the built CLI as an MCP server over stdio, driven by the
 * official SDK's client (Client + StdioClientTransport, as Claude Code, Cursor
 * and Codex start it) on the bundled sample's index.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist', 'cli.js');
const tmp = mkdtempSync(join(tmpdir(), 'premise-mcp-'));
const index = join(tmp, 'index');
let client: Client;
let transport: StdioClientTransport;
/** What the client could not read on the channel (a log line on stdout would land here). */
const channelErrors: Error[] = [];
let stderr = '';

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npx tsup` (npm test does) first');
  const built = spawnSync(process.execPath, [CLI, 'index', join(ROOT, 'test', 'fixtures', 'sample'), '--out', index, '--no-dense'], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(built.stderr);
  transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--index', index], stderr: 'pipe' });
  transport.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  client = new Client({ name: 'premise-lsp-test', version: '0.0.0' });
  client.onerror = (e) => channelErrors.push(e);
  await client.connect(transport);
}, 60_000);

afterAll(async () => {
  await client?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
const names = (r: CallToolResult) => (JSON.parse(textOf(r)) as { results: { name: string }[] }).results.map((h) => h.name);

describe('premise-lsp mcp', () => {
  it('says who it is and lists the four tools, each taking {query, k?}, and try', async () => {
    expect(client.getServerVersion()?.name).toBe('premise-lsp');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['declaration', 'pattern', 'premises', 'search', 'try']);
    for (const t of tools.filter((x) => x.name !== 'try')) {
      expect(t.description).toBeTruthy();
      expect(t.inputSchema.required).toEqual(['query']);
      expect(Object.keys(t.inputSchema.properties ?? {}).sort()).toEqual(['k', 'query']);
    }
  });

  it('premises answers a goal with ranked premises and their statements', async () => {
    const r = await call('premises', { query: 'a b : ℕ ⊢ a + b = b + a', k: 5 });
    expect(r.isError).toBeFalsy();
    const body = JSON.parse(textOf(r)) as { results: { rank: number; name: string; statement: string; module: string; line: number }[] };
    expect(body.results.length).toBeGreaterThan(0);
    expect(body.results.length).toBeLessThanOrEqual(5);
    const hit = body.results.find((h) => h.name === "Nat.add_comm'");
    expect(hit, JSON.stringify(body)).toBeDefined();
    expect(hit!.statement).toContain('n + m = m + n');
    expect(hit!.module).toBe('Sample.Algebra');
    expect(r.structuredContent).toEqual(body);
    // a bare goal, without ⊢, is read as one
    expect(names(await call('premises', { query: 'a + b = b + a', k: 5 }))).toContain("Nat.add_comm'");
  });

  it('try without a prover (--index) is isError with the fix, and the server goes on (issue 37)', async () => {
    const r = await call('try', { file: 'Sample/Algebra.lean', line: 3 });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('premise-lsp mcp --project DIR --lean');
    expect(textOf(r)).toContain('--index');
    expect(names(await call('premises', { query: 'a + b = b + a', k: 5 }))).toContain("Nat.add_comm'");
  });

  it('search takes English', async () => {
    const r = await call('search', { query: 'length of an append of two lists', k: 5 });
    expect(r.isError).toBeFalsy();
    expect(names(r).some((n) => n.startsWith('Sample.Lists.'))).toBe(true);
  });

  it('a pattern that does not parse is isError with the reason, and the server goes on', async () => {
    const bad = await call('pattern', { query: '(_ + ', k: 5 });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/pattern/i);
    const good = await call('pattern', { query: '?a * ?b = ?b * ?a' });
    expect(good.isError).toBeFalsy();
    // only what matches, as Loogle answers
    expect(names(good)).toContain('Sample.mul_comm');
    expect(names(good)).not.toContain('Sample.mul_assoc');
  });

  it('declaration gives a known name\'s statement, module, doc and location, and refuses an unknown one', async () => {
    const r = await call('declaration', { query: "Sample.Lists.length_append'" });
    expect(r.isError).toBeFalsy();
    const d = JSON.parse(textOf(r)) as Record<string, unknown>;
    expect(d).toMatchObject({ name: "Sample.Lists.length_append'", kind: 'theorem', module: 'Sample.Lists' });
    // the declaration's range starts at its docstring
    const source = readFileSync(join(ROOT, 'test/fixtures/sample/lean/Sample/Lists.lean'), 'utf8');
    expect(d.line).toBe(source.slice(0, source.indexOf('/-- The length of an appended list')).split('\n').length);
    expect(d.statement).toEqual(expect.stringContaining('(l₁ ++ l₂).length = l₁.length + l₂.length'));
    expect(d.doc).toEqual(expect.stringContaining('The length of an appended list'));
    expect(d.path).toEqual(join(ROOT, 'test/fixtures/sample/lean/Sample/Lists.lean'));
    const miss = await call('declaration', { query: 'Sample.no_such_lemma' });
    expect(miss.isError).toBe(true);
    expect(textOf(miss)).toMatch(/no declaration named "Sample.no_such_lemma"/);
    // the nearest names first: the name with its last words dropped, the same name in a namespace
    expect(textOf(await call('declaration', { query: 'Sample.mul_comm_extra' }))).toMatch(/the nearest names: Sample\.mul_comm,/);
    expect(textOf(await call('declaration', { query: 'mul_comm', k: 2 }))).toMatch(/the nearest names: Sample\.mul_comm, [^,]+$/);
  });

  it('bad arguments are isError, never a dead server', async () => {
    for (const [name, args] of [
      ['premises', { query: '' }],
      ['search', { query: 'x', k: 0 }],
      ['search', { query: 'x', k: 1.5 }],
      ['pattern', {}],
      ['declaration', { query: 42 }],
      ['no-such-tool', { query: 'x' }],
    ] as const) {
      const r = await call(name, args);
      expect(r.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(textOf(r)).toBeTruthy();
    }
    expect(names(await call('premises', { query: '⊢ a * b = b * a' }))).toContain('Sample.mul_comm');
  });

  it('an index that cannot be opened: the server still starts, and each call says why', async () => {
    const broken = join(tmp, 'broken');
    cpSync(index, broken, { recursive: true });
    writeFileSync(join(broken, 'premises.bin'), 'not an index');
    const t = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--index', broken], stderr: 'pipe' });
    const c = new Client({ name: 'premise-lsp-test', version: '0.0.0' });
    await c.connect(t);
    try {
      expect((await c.listTools()).tools).toHaveLength(5);
      for (let i = 0; i < 2; i++) {
        const r = (await c.callTool({ name: 'premises', arguments: { query: '⊢ a * b = b * a' } })) as CallToolResult;
        expect(r.isError).toBe(true);
        expect(textOf(r)).toMatch(/the index could not be opened: .*premises\.bin/);
      }
    } finally {
      await c.close();
    }
  }, 60_000);

  it('premise-lsp mcp --index /nonexistent answers initialize, and each tool call is isError with the fix (issue 35)', async () => {
    const missing = join(tmp, 'nonexistent');
    const t = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--index', missing], stderr: 'pipe' });
    const c = new Client({ name: 'premise-lsp-test', version: '0.0.0' });
    await c.connect(t);
    try {
      expect(c.getServerVersion()?.name).toBe('premise-lsp');
      const r = (await c.callTool({ name: 'search', arguments: { query: 'x' } })) as CallToolResult;
      expect(r.isError).toBe(true);
      expect(textOf(r)).toBe(`the index could not be opened: no index at ${missing}; build one with \`premise-lsp index <source>... --out ${missing}\``);
    } finally {
      await c.close();
    }
  }, 60_000);

  it('answers every line it cannot take with a JSON-RPC error, and keeps serving (issues 35, 36)', async () => {
    const p = spawn(process.execPath, [CLI, 'mcp', '--index', index], { stdio: ['pipe', 'pipe', 'pipe'] });
    const replies: Record<string, unknown>[] = [];
    let buf = '';
    p.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        replies.push(JSON.parse(buf.slice(0, nl)) as Record<string, unknown>);
        buf = buf.slice(nl + 1);
      }
    });
    const send = (line: string) => p.stdin.write(line + '\n');
    /** The n-th reply; a missing one fails here, not by the test's time limit. */
    const next = async (n: number) => {
      for (let waited = 0; replies.length < n; waited += 20) {
        if (waited > 20_000) throw new Error(`no reply #${n} (replies so far: ${JSON.stringify(replies).slice(0, 500)})`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return replies[n - 1]!;
    };
    try {
      send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } }));
      expect(await next(1)).toMatchObject({ id: 1, result: { serverInfo: { name: 'premise-lsp' } } });
      send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      send('{not json');
      expect(await next(2)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error: the line is not JSON/) } });
      send('{"id": 7, "hello": "there"}');
      expect(await next(3)).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32600, message: expect.stringMatching(/^Invalid Request: not a JSON-RPC/) } });
      // a non-string tool name: -32602 and one line (the SDK answered -32603 with its validation's JSON)
      send(JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 42, arguments: { query: 'x' } } }));
      const named = await next(4);
      expect(named).toEqual({ jsonrpc: '2.0', id: 8, error: { code: -32602, message: "Invalid params: tools/call params.name must be a string, the tool's name (tools/list lists them), not a number" } });
      send(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'search', arguments: 'x' } }));
      expect(await next(5)).toMatchObject({ id: 9, error: { code: -32602, message: 'Invalid params: tools/call params.arguments must be an object, not a string' } });
      // one message over 10 MiB, sent in pieces, its id written last as the SDK's clients write it: answered, not fatal
      const big = `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"search","arguments":{"query":"${'x'.repeat(11 * 2 ** 20)}"}},"id":10}`;
      for (let i = 0; i < big.length; i += 2 ** 20) p.stdin.write(big.slice(i, i + 2 ** 20));
      send('');
      expect(await next(6)).toEqual({ jsonrpc: '2.0', id: 10, error: { code: -32600, message: expect.stringMatching(/^Invalid Request: the message has 11534\d+ bytes, more than the 10485760 bytes \(10 MiB\)/) } });
      send(JSON.stringify({ jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'premises', arguments: { query: '⊢ a * b = b * a' } } }));
      const ok = (await next(7)) as { id: number; result: CallToolResult };
      expect(ok.id).toBe(11);
      expect(textOf(ok.result)).toContain('Sample.mul_comm');
      expect(p.exitCode).toBeNull();
    } finally {
      p.kill();
    }
  }, 60_000);

  it('the other commands do not load the MCP SDK (the bundle imports it only when mcp runs)', () => {
    expect(readFileSync(CLI, 'utf8')).not.toMatch(/^import .* from "(@modelcontextprotocol\/sdk[^"]*|zod)";$/m);
  });

  it('writes nothing but MCP messages on stdout (its log is on stderr)', () => {
    expect(channelErrors).toEqual([]);
    expect(stderr).toContain('premise-lsp mcp:');
  });
});
