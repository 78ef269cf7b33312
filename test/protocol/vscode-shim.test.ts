/**
 * `premise-lsp setup vscode`'s `lake` shim, as VS Code's Lean extension runs it:
 * `lake [+toolchain] serve -- <folder>` found first on PATH
 * (`lean4.envPathExtensions`), in front of a fake `lake` that records its
 * arguments and, for `serve`, runs the fake Lean. Every other invocation reaches
 * the fake lake as it was, with its exit status; the shim never runs itself.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { shQuote } from '../../server/src/cli/vscode-shim.js';
import { lakeFixture, WS_THEOREM } from '../unit/lake-project.js';
import { Editor, FAKE_LEAN, requireBuild, searchNames, SERVE } from './harness.js';

const tmp = mkdtempSync(join(tmpdir(), 'premise-vscode-'));
const shimDir = join(tmp, 'shim');
const fakeDir = join(tmp, 'fake');
const argsFile = join(tmp, 'lake-args');
const TOOLCHAIN = '+leanprover/lean4:v4.20.0';
const editors: Editor[] = [];

beforeAll(() => {
  requireBuild();
  const setup = spawnSync(process.execPath, [SERVE, 'setup', 'vscode', '--shim-dir', shimDir], { encoding: 'utf8', timeout: 30_000 });
  expect(setup.status, setup.stderr).toBe(0);
  expect(setup.stdout).toContain(`"lean4.envPathExtensions": [${JSON.stringify(shimDir)}]`);
  mkdirSync(fakeDir);
  // the fake lake: records its arguments (one per line); `serve` runs the fake Lean, anything else exits 7
  writeFileSync(
    join(fakeDir, 'lake'),
    `#!/bin/sh
: > ${shQuote(argsFile)}
for a in "$@"; do printf '%s\\n' "$a" >> ${shQuote(argsFile)}; done
case $1 in +*) shift ;; esac
[ "$1" = serve ] && exec ${shQuote(process.execPath)} ${shQuote(FAKE_LEAN)}
echo "fake lake $1" >&2
exit 7
`,
  );
  chmodSync(join(fakeDir, 'lake'), 0o755);
});
afterEach(() => {
  for (const e of editors.splice(0)) e.kill();
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** `lake ARGS` as a program on PATH runs it: looked up by the shell on `path`. */
function lake(path: string[], args: string[]) {
  const r = spawnSync('/bin/sh', ['-c', 'exec lake "$@"', 'sh', ...args], { encoding: 'utf8', timeout: 20_000, env: { HOME: tmp, PATH: path.join(':') } });
  return { code: r.status, stderr: r.stderr, timedOut: r.error !== undefined || r.signal !== null };
}
const recorded = () => readFileSync(argsFile, 'utf8').split('\n').slice(0, -1);

describe('setup vscode', () => {
  it('writes an executable sh script naming this installation by absolute paths', () => {
    const text = readFileSync(join(shimDir, 'lake'), 'utf8');
    expect(text.startsWith('#!/bin/sh\n')).toBe(true);
    expect(statSync(join(shimDir, 'lake')).mode & 0o111).toBe(0o111);
    expect(text).toContain(shQuote(process.execPath));
    expect(text).toContain(shQuote(SERVE));
  });

  it('rewrites its own shim, and never overwrites another lake', () => {
    expect(spawnSync(process.execPath, [SERVE, 'setup', 'vscode', '--shim-dir', shimDir], { encoding: 'utf8' }).status).toBe(0);
    const r = spawnSync(process.execPath, [SERVE, 'setup', 'vscode', '--shim-dir', fakeDir], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/is not a premise-lsp shim/);
    expect(readFileSync(join(fakeDir, 'lake'), 'utf8')).toContain('fake lake');
  });

  it('a `lake` that is a FIFO is no shim: left alone, without hanging on it (issue 36 item 7)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'premise-shim-fifo-'));
    expect(spawnSync('mkfifo', [join(dir, 'lake')]).status).toBe(0);
    const r = spawnSync(process.execPath, [SERVE, 'setup', 'vscode', '--shim-dir', dir], { encoding: 'utf8', timeout: 30_000 });
    expect(r.signal).toBeNull();
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/lake exists and is not a premise-lsp shim/);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('the lake shim', () => {
  it('passes `lake +toolchain --version` to the real lake, with its arguments and exit status', () => {
    const r = lake([shimDir, fakeDir], [TOOLCHAIN, '--version']);
    expect(r.code).toBe(7);
    expect(recorded()).toEqual([TOOLCHAIN, '--version']);
  });

  it('passes `lake build` and `lake env` through, arguments as given', () => {
    const r = lake([shimDir, fakeDir], ['build', 'Proj.Main', 'a b']);
    expect(r.code).toBe(7);
    expect(r.stderr).toBe('fake lake build\n');
    expect(recorded()).toEqual(['build', 'Proj.Main', 'a b']);
    expect(lake([shimDir, fakeDir], ['env', 'printenv']).code).toBe(7);
    expect(recorded()).toEqual(['env', 'printenv']);
  });

  it('never runs itself: its directory first on PATH, again later, through a link, or a second shim', () => {
    const link = join(tmp, 'shim-link');
    if (!existsSync(link)) symlinkSync(shimDir, link);
    const second = join(tmp, 'shim-2');
    cpSync(shimDir, second, { recursive: true });
    const r = lake([shimDir, `${shimDir}/`, link, second, fakeDir], ['build']);
    expect(r.timedOut).toBe(false);
    expect(r.code).toBe(7);
    expect(recorded()).toEqual(['build']);
    // with no real lake anywhere: a clear message and 127, not a loop
    const none = lake([link, shimDir, second], [TOOLCHAIN, 'serve', '--', tmp]);
    expect(none.timedOut).toBe(false);
    expect(none.code).toBe(127);
    expect(none.stderr).toMatch(/premise-lsp lake shim .*no other lake on PATH/);
  });

  it('runs `lake +toolchain serve -- <folder>` behind premise-lsp: completions and the premise commands, the automatic index of the folder', async () => {
    const f = lakeFixture();
    const cache = mkdtempSync(join(tmpdir(), 'premise-lsp-cache-'));
    // as vscode-lean4 starts it: `lake [+toolchain] serve -- <folder>` in the folder, the shim's directory first on PATH
    const e = new Editor('/bin/sh', ['-c', `cd ${shQuote(f.root)} && exec lake "$@"`, 'sh', TOOLCHAIN, 'serve', '--', f.root], {
      env: { PATH: `${shimDir}:${fakeDir}:/usr/bin:/bin`, PREMISE_LSP_CACHE: cache, ELAN_HOME: join(cache, 'no-elan') },
    });
    editors.push(e);
    // indexing the folder's dependencies and workspace in child processes takes a while on a busy machine
    const loaded = e.waitFor((m) => m.method === '$/progress' && m.params.value.kind === 'end' && /^\d+ premises$/.test(m.params.value.message ?? ''), { timeoutMs: 100_000 });
    const init = await e.request('initialize', { processId: null, rootUri: pathToFileURL(f.root).href, capabilities: { window: { workDoneProgress: true } }, initializationOptions: { hasWidgets: true } });
    e.notify('initialized', {});
    const caps = init.result.capabilities;
    expect(caps.completionProvider).toMatchObject({ resolveProvider: true });
    expect(caps.executeCommandProvider.commands).toEqual(expect.arrayContaining(['premise-lsp.search', 'premise-lsp.insert']));
    expect(caps.codeActionProvider).toBeTruthy();
    expect(init.result.serverInfo?.name).toBe('Lean 4 Server'); // the fake Lean's, through the proxy
    // the real lake got the extension's arguments as they were
    expect(recorded()).toEqual([TOOLCHAIN, 'serve', '--', f.root]);
    await loaded;
    expect(await searchNames(e, 'quux wibble')).toContain(WS_THEOREM);
    expect(await e.shutdown()).toBe(0);
    rmSync(cache, { recursive: true, force: true });
  }, 120_000);
});
