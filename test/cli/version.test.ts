/**
 * `premise-lsp --version` / `-V`, and the version the language server reports to
 * editors: both are the installed package.json's, read when the program runs (a copy
 * of the built CLI beside another package.json reports that one's version).
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonRpcClient } from '../../server/src/jsonrpc/client.js';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist', 'cli.js');
const OWN = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;
const tmp = mkdtempSync(join(tmpdir(), 'premise-version-'));
const OTHER = '7.8.9-test.1';
/** A copy of the built CLI in a package whose package.json says OTHER. */
const COPY = join(tmp, 'pkg', 'dist', 'cli.js');

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npx tsup` (npm test does) first');
  mkdirSync(join(tmp, 'pkg', 'dist'), { recursive: true });
  copyFileSync(CLI, COPY);
  symlinkSync(join(ROOT, 'node_modules'), join(tmp, 'pkg', 'node_modules'));
  writeFileSync(join(tmp, 'pkg', 'package.json'), JSON.stringify({ name: 'premise-lsp', version: OTHER }));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const run = (cli: string, args: string[]) =>
  spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: tmp, timeout: 30_000, input: '' });

/** serverInfo.version of `serve --stdio` from `cli`, after initialize; then shutdown and exit. */
async function serverVersion(cli: string): Promise<string> {
  const proc = spawn(process.execPath, [cli, 'serve', '--stdio'], { cwd: tmp, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new JsonRpcClient(proc.stdout, proc.stdin, { timeoutMs: 30_000, describe: () => stderr });
  try {
    const init = await client.request('initialize', { processId: null, rootUri: null, capabilities: {} });
    await client.request('shutdown');
    client.notify('exit');
    return init.result.serverInfo.version;
  } finally {
    await new Promise((r) => (proc.exitCode !== null ? r(null) : proc.on('exit', r)));
  }
}

describe('premise-lsp --version', () => {
  it.each(['--version', '-V'])('%s prints package.json\'s version and exits 0', (flag) => {
    const r = run(CLI, [flag]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`${OWN}\n`);
    expect(r.stderr).toBe('');
  });

  it('reads the version of the package it runs from', () => {
    expect(run(COPY, ['--version']).stdout).toBe(`${OTHER}\n`);
  });

  it('the language server reports the same version to editors', async () => {
    expect(await serverVersion(CLI)).toBe(OWN);
    expect(await serverVersion(COPY)).toBe(OTHER);
  });
});
