/**
 * `premise-lsp mcp --project DIR -- <prover>`: the `try` tool (docs/mcp.md) against
 * the fake Lean (test/doubles/fake-lean.mjs), whose step table in
 * test/fixtures/lsp/Trials.lean says what each step does, with the premises of
 * trial-premises.json (`--fake-engine`, as `serve` takes it). The built CLI is
 * driven by the SDK's client over stdio, as an agent starts it.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist', 'cli.js');
const FAKE_LEAN = join(ROOT, 'test', 'doubles', 'fake-lean.mjs');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'lsp');
const tmp = mkdtempSync(join(tmpdir(), 'premise-mcp-try-'));
const project = join(tmp, 'Proj');
const transcript = join(tmp, 'lean.jsonl');
const clients: Client[] = [];
let stderr = '';

/** The 1-based number of the line holding `needle`. */
const lineOf = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length;
const trials = readFileSync(join(FIXTURES, 'Trials.lean'), 'utf8');

async function connect(args: string[], env: Record<string, string> = {}): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ...args], stderr: 'pipe', env: { ...(process.env as Record<string, string>), ...env } });
  transport.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'premise-lsp-test', version: '0.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

let client: Client;
beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npx tsup` (npm test does) first');
  mkdirSync(join(project, 'Proj'), { recursive: true });
  cpSync(join(FIXTURES, 'Trials.lean'), join(project, 'Proj', 'Trials.lean'));
  writeFileSync(join(tmp, 'Outside.lean'), trials);
  symlinkSync(join(tmp, 'Outside.lean'), join(project, 'Proj', 'Link.lean'));
  client = await connect(['--project', project, '--fake-engine', join(FIXTURES, 'trial-premises.json'), '--', process.execPath, FAKE_LEAN], { FAKE_TRANSCRIPT: transcript });
}, 60_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  rmSync(tmp, { recursive: true, force: true });
});

const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
const tryCall = async (c: Client, args: Record<string, unknown>) => (await c.callTool({ name: 'try', arguments: args }, undefined, { timeout: 60_000 })) as CallToolResult;

describe('premise-lsp mcp: the try tool, with a prover', () => {
  it('lists try, with file and line required', async () => {
    const { tools } = await client.listTools();
    const t = tools.find((x) => x.name === 'try');
    expect(t?.description).toContain('closes');
    expect(t?.inputSchema.required?.sort()).toEqual(['file', 'line']);
  });

  it('at `exact ` of `a b : ℕ ⊢ a + b = b + a`: exact add_comm a b first, closing the goal; a failing step is marked fails', async () => {
    const r = await tryCall(client, { file: 'Proj/Trials.lean', line: lineOf(trials, '  exact \n') });
    expect(r.isError, textOf(r)).toBeFalsy();
    const results = (r.structuredContent as { results: any[] }).results;
    expect(results[0]).toEqual({ step: 'exact add_comm a b', premise: 'add_comm', outcome: 'closes' });
    const mul = results.find((x) => x.step === 'exact mul_comm');
    expect(mul.outcome).toBe('fails');
    expect(mul.message).toMatch(/^type mismatch/);
    const order = results.map((x) => x.outcome);
    expect(order.lastIndexOf('closes')).toBeLessThan(order.indexOf('fails'));
    expect(JSON.parse(textOf(r))).toEqual(r.structuredContent);
    // the prover got the file from disk, and the trials went to a document of their own
    const got = readFileSync(transcript, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((x) => x.dir === 'in').map((x) => x.msg);
    const opened = got.filter((m) => m.method === 'textDocument/didOpen').map((m) => m.params.textDocument.uri as string);
    expect(opened[0]).toMatch(/\/Proj\/Proj\/Trials\.lean$/);
    expect(opened.some((u) => u.includes('__premise_trial'))).toBe(true);
  });

  it('a column or a piece of the line gives the position too; named premises and tactics are tried alone', async () => {
    const line = lineOf(trials, '  exact \n');
    const r = await tryCall(client, { file: join(project, 'Proj', 'Trials.lean'), line, after: 'exact ', premises: ['add_comm'], tactics: ['rw'] });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect((r.structuredContent as { results: unknown[] }).results).toEqual([
      { step: 'rw [add_comm]', premise: 'add_comm', outcome: 'closes' },
      expect.objectContaining({ step: 'rw [← add_comm]', outcome: 'fails' }),
    ]);
    const c = await tryCall(client, { file: 'Proj/Trials.lean', line, column: 9, premises: ['mul_comm'], tactics: ['exact'] });
    expect((c.structuredContent as { results: any[] }).results.every((x) => x.outcome === 'fails')).toBe(true);
  });

  it('a path outside the project (.., absolute, or through a link) is isError, and the server goes on', async () => {
    for (const file of ['../Outside.lean', join(tmp, 'Outside.lean'), 'Proj/Link.lean']) {
      const r = await tryCall(client, { file, line: lineOf(trials, '  exact \n') });
      expect(r.isError, file).toBe(true);
      expect(textOf(r)).toContain('is outside the project');
    }
    const ok = await tryCall(client, { file: 'Proj/Trials.lean', line: lineOf(trials, '  exact \n'), premises: ['add_comm'], tactics: ['exact'] });
    expect(ok.isError, textOf(ok)).toBeFalsy();
  });

  it('a missing file, a line or a column out of range, text not on the line: isError with the reason', async () => {
    const line = lineOf(trials, '  exact \n');
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ file: 'Proj/Nope.lean', line }, /no file Proj\/Nope\.lean in the project/],
      [{ file: 'Proj/Trials.lean', line: 999 }, /line 999 is past the end/],
      [{ file: 'Proj/Trials.lean', line, column: 99 }, /column 99 is past the end of line/],
      [{ file: 'Proj/Trials.lean', line, after: 'rfl' }, /has no "rfl"/],
      [{ file: 'Proj/Trials.lean', line, tactics: ['omega'] }, /unknown tactics omega/],
    ];
    for (const [args, why] of cases) {
      const r = await tryCall(client, args);
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(textOf(r)).toMatch(why);
    }
    // not at a tactic step: nothing tried, and why
    const decl = await tryCall(client, { file: 'Proj/Trials.lean', line: lineOf(trials, 'theorem add_comm_example'), column: 1 });
    expect(decl.structuredContent).toEqual({ results: [], reason: 'not at a tactic step' });
    expect(stderr).not.toMatch(/try failed/);
  });

  it('reads the file again at each call (an edit on disk is what Lean gets), and keeps one project file open at a time', async () => {
    const edit = join(project, 'Proj', 'Edit.lean');
    writeFileSync(edit, trials);
    const line = lineOf(trials, '  exact \n');
    const args = { file: 'Proj/Edit.lean', line, premises: ['add_comm'], tactics: ['exact'] };
    const first = await tryCall(client, args);
    expect((first.structuredContent as { results: any[] }).results[0]).toEqual({ step: 'exact add_comm a b', premise: 'add_comm', outcome: 'closes' });
    writeFileSync(edit, trials.replace('-- step: exact add_comm a b => closes', '-- step: exact add_comm a b => error: boom'));
    const second = await tryCall(client, args);
    expect((second.structuredContent as { results: any[] }).results.find((x) => x.step === 'exact add_comm a b')).toMatchObject({ outcome: 'fails', message: 'boom' });
    // two calls at once: both answered, one after the other
    const both = await Promise.all([tryCall(client, { ...args, file: 'Proj/Trials.lean' }), tryCall(client, args)]);
    expect(both.map((r) => (r.structuredContent as { results: any[] }).results[0].outcome)).toEqual(['closes', 'closes']);
    const got = readFileSync(transcript, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((x) => x.dir === 'in').map((x) => x.msg);
    const editUri = got.find((m) => m.method === 'textDocument/didOpen' && m.params.textDocument.uri.endsWith('/Edit.lean')).params.textDocument.uri;
    expect(got.some((m) => m.method === 'textDocument/didChange' && m.params.textDocument.uri === editUri)).toBe(true);
    // never more than two documents open in Lean: the file tried and its trial document
    const open = new Set<string>();
    let most = 0;
    for (const m of got) {
      if (m.method === 'textDocument/didOpen') open.add(m.params.textDocument.uri);
      if (m.method === 'textDocument/didClose') open.delete(m.params.textDocument.uri);
      most = Math.max(most, open.size);
    }
    expect(most).toBe(2);
  });

  it('a prover that cannot start: each call is isError saying why', async () => {
    const none = await connect(['--project', project, '--fake-engine', join(FIXTURES, 'trial-premises.json'), '--', join(tmp, 'no-such-lean')]);
    for (let i = 0; i < 2; i++) {
      const r = await tryCall(none, { file: 'Proj/Trials.lean', line: lineOf(trials, '  exact \n') });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/the prover is not running: .*no-such-lean/);
    }
    expect((await none.listTools()).tools.length).toBe(5);
  });

  it('a call past its wall-clock limit is stopped, and says so', async () => {
    const slow = await connect(['--project', project, '--fake-engine', join(FIXTURES, 'trial-premises.json'), '--try-timeout-ms', '1500', '--', process.execPath, FAKE_LEAN]);
    // simp [add_comm] never finishes in the fake (its table says `hangs`); the trial's own limit is 10 s
    const r = await tryCall(slow, { file: 'Proj/Trials.lean', line: lineOf(trials, '  exact \n'), premises: ['add_comm'], tactics: ['simp'] });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('no answer within 1.5 s');
    const ok = await tryCall(slow, { file: 'Proj/Trials.lean', line: lineOf(trials, '  exact \n'), premises: ['add_comm'], tactics: ['exact'] });
    expect(ok.isError, textOf(ok)).toBeFalsy();
    expect((ok.structuredContent as { results: any[] }).results[0]).toMatchObject({ outcome: 'closes' });
  }, 30_000);
});
