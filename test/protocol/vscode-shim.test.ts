/**
 * `premise-lsp setup vscode`'s `lake` and `lean` shims, as VS Code's Lean extension
 * runs them: `lake [+toolchain] serve -- <folder>` (a Lake project) and
 * `lean [+toolchain] --server` (a folder without a lakefile), found first on PATH
 * (`lean4.envPathExtensions`), in front of a fake `lake` and a fake `lean` that
 * record their arguments and, for `serve` / `--server`, run the fake Lean. Every
 * other invocation reaches the fake tool as it was, with its exit status; a shim
 * never runs itself, nor premise-lsp in front of itself. Behind the shims the server
 * advertises command names of its project's own (two Lake projects in one window),
 * and a space typed in a comment gets no premise completions.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { shQuote } from '../../server/src/cli/vscode-shim.js';
import { COMMANDS, projectCommandSuffix } from '../../server/src/lsp/capabilities.js';
import { lakeFixture, WS_THEOREM } from '../unit/lake-project.js';
import { Editor, FAKE_LEAN, requireBuild, searchNames, SERVE } from './harness.js';

const tmp = mkdtempSync(join(tmpdir(), 'premise-vscode-'));
const shimDir = join(tmp, 'shim');
const fakeDir = join(tmp, 'fake');
const argsFile = join(tmp, 'lake-args');
const leanArgsFile = join(tmp, 'lean-args');
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
  // the fake lean: the same, for `--server`; each call's arguments appended as one line (the server runs `lean --print-prefix` too)
  writeFileSync(
    join(fakeDir, 'lean'),
    `#!/bin/sh
{ for a in "$@"; do printf '%s\\t' "$a"; done; printf '\\n'; } >> ${shQuote(leanArgsFile)}
case $1 in +*) shift ;; esac
[ "$1" = --server ] && exec ${shQuote(process.execPath)} ${shQuote(FAKE_LEAN)}
echo "fake lean $1" >&2
exit 7
`,
  );
  chmodSync(join(fakeDir, 'lean'), 0o755);
});
afterEach(() => {
  for (const e of editors.splice(0)) e.kill();
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** `lake ARGS` (or `lean ARGS`) as a program on PATH runs it: looked up by the shell on `path`. */
function lake(path: string[], args: string[], tool = 'lake') {
  const r = spawnSync('/bin/sh', ['-c', `exec ${tool} "$@"`, 'sh', ...args], { encoding: 'utf8', timeout: 20_000, env: { HOME: tmp, PATH: path.join(':') } });
  return { code: r.status, stderr: r.stderr, timedOut: r.error !== undefined || r.signal !== null };
}

/** A language server started through the shims as vscode-lean4 starts it: `TOOL ARGS` in `cwd`, the shim directory first on PATH. */
function shimmed(cwd: string, tool: string, args: string[], env: Record<string, string> = {}): Editor {
  const e = new Editor('/bin/sh', ['-c', `cd ${shQuote(cwd)} && exec ${tool} "$@"`, 'sh', ...args], {
    env: { PATH: `${shimDir}:${fakeDir}:/usr/bin:/bin`, ...env },
  });
  editors.push(e);
  return e;
}
/** premise-lsp's commands as a server of the project at `root` names them. */
const namesFor = (root: string) => Object.values(COMMANDS).map((c) => `${c}.${projectCommandSuffix(root)}`);
const ourCommands = (init: any): string[] => (init.result.capabilities.executeCommandProvider?.commands ?? []).filter((c: string) => c.startsWith('premise-lsp.'));
const recorded = () => readFileSync(argsFile, 'utf8').split('\n').slice(0, -1);
/** Every call of the fake lean so far, each its arguments. */
const recordedLean = () => (existsSync(leanArgsFile) ? readFileSync(leanArgsFile, 'utf8').split('\n').slice(0, -1).map((l) => l.split('\t').slice(0, -1)) : []);

describe('setup vscode', () => {
  it('writes executable sh scripts, lake and lean, naming this installation by absolute paths', () => {
    for (const tool of ['lake', 'lean']) {
      const text = readFileSync(join(shimDir, tool), 'utf8');
      expect(text.startsWith(`#!/bin/sh\n# premise-lsp ${tool} shim`)).toBe(true);
      expect(statSync(join(shimDir, tool)).mode & 0o111).toBe(0o111);
      expect(text).toContain(shQuote(process.execPath));
      expect(text).toContain(shQuote(SERVE));
    }
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
    const suffix = projectCommandSuffix(f.root);
    expect(caps.executeCommandProvider.commands).toEqual(expect.arrayContaining([`premise-lsp.search.${suffix}`, `premise-lsp.insert.${suffix}`]));
    expect(caps.codeActionProvider).toBeTruthy();
    expect(init.result.serverInfo?.name).toBe('Lean 4 Server'); // the fake Lean's, through the proxy
    // the real lake got the extension's arguments as they were
    expect(recorded()).toEqual([TOOLCHAIN, 'serve', '--', f.root]);
    await loaded;
    expect(await searchNames(e, 'quux wibble')).toContain(WS_THEOREM);
    // completions as VS Code asks for them: a space typed in a comment after an unclosed `simp [` gets no premise items; `[` after `simp` does
    const uri = pathToFileURL(join(f.root, 'Proj', 'Scratch.lean')).href;
    const text = 'theorem s (a b : Nat) : a * b = b * a := by\n  -- goal: a b : Nat\\n⊢ a * b = b * a\n  simp [\n  -- a note \n  ]\n';
    const ready = e.notification('$/lean/fileProgress', (p) => p.textDocument.uri === uri && p.processing.length === 0);
    e.open(uri, text);
    await ready;
    const at = (needle: string) => {
      const lines = text.slice(0, text.indexOf(needle) + needle.length).split('\n');
      return { line: lines.length - 1, character: lines[lines.length - 1]!.length };
    };
    const premises = (r: any) => (r.result?.items ?? []).filter((i: any) => i?.data?.['premise-lsp']).map((i: any) => i.label);
    const inComment = await e.request('textDocument/completion', { textDocument: { uri }, position: at('-- a note '), context: { triggerKind: 2, triggerCharacter: ' ' } });
    expect(premises(inComment)).toEqual([]);
    const inSlot = await e.request('textDocument/completion', { textDocument: { uri }, position: at('simp ['), context: { triggerKind: 2, triggerCharacter: '[' } });
    expect(premises(inSlot)).toContain(WS_THEOREM);
    expect(await e.shutdown()).toBe(0);
    rmSync(cache, { recursive: true, force: true });
  }, 120_000);
});

describe('the lean shim', () => {
  it('passes `lean +toolchain --version` and `lean --print-prefix` to the real lean, with their exit status', () => {
    const r = lake([shimDir, fakeDir], [TOOLCHAIN, '--version'], 'lean');
    expect(r.code).toBe(7);
    expect(recordedLean().at(-1)).toEqual([TOOLCHAIN, '--version']);
    expect(lake([shimDir, fakeDir], ['--print-prefix'], 'lean').stderr).toBe('fake lean --print-prefix\n');
    // with no real lean: a clear message and 127, not a loop
    const none = lake([shimDir], ['--server'], 'lean');
    expect(none.code).toBe(127);
    expect(none.stderr).toMatch(/premise-lsp lean shim .*no other lean on PATH/);
  });

  it('runs `lean --server` (a folder without a lakefile) behind premise-lsp, with command names of its own', async () => {
    const folder = mkdtempSync(join(tmp, 'loose-'));
    writeFileSync(join(folder, 'Scratch.lean'), 'theorem t : True := trivial\n');
    const e = shimmed(folder, 'lean', [TOOLCHAIN, '--server'], { PREMISE_LSP_CACHE: join(folder, '.cache') });
    const init = await e.request('initialize', { processId: null, rootUri: pathToFileURL(folder).href, capabilities: {} });
    e.notify('initialized', {});
    expect(init.result.serverInfo?.name).toBe('Lean 4 Server');
    expect(recordedLean()).toContainEqual([TOOLCHAIN, '--server']);
    expect(ourCommands(init)).toEqual(namesFor(folder));
    expect(ourCommands(init)[0]).toMatch(/^premise-lsp\.search\.[0-9a-f]{8}$/);
    expect(await e.shutdown()).toBe(0);
  });

  it('never puts premise-lsp in front of itself: a server already behind it gets the real lean', async () => {
    const e = shimmed(tmp, 'lean', ['--server'], { PREMISE_LSP_SHIMMED: '1' });
    const init = await e.request('initialize', { processId: null, rootUri: null, capabilities: {} });
    expect(init.result.serverInfo?.name).toBe('Lean 4 Server');
    expect(ourCommands(init)).toEqual([]);
    e.kill();
  });
});

describe('two Lake projects in one window', () => {
  it('each server advertises command names of its own project, and answers them', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'premise-lsp-cache-'));
    const servers = [lakeFixture(), lakeFixture()].map((f) => {
      const e = shimmed(f.root, 'lake', [TOOLCHAIN, 'serve', '--', f.root], { PREMISE_LSP_CACHE: cache, ELAN_HOME: join(cache, 'no-elan') });
      const loaded = e.waitFor((m) => m.method === '$/progress' && m.params.value.kind === 'end' && /^\d+ premises$/.test(m.params.value.message ?? ''), { timeoutMs: 100_000 });
      return { e, f, loaded };
    });
    const names: string[][] = [];
    for (const { e, f } of servers) {
      const init = await e.request('initialize', { processId: null, rootUri: pathToFileURL(f.root).href, capabilities: { window: { workDoneProgress: true } } });
      e.notify('initialized', {});
      names.push(ourCommands(init));
    }
    // VS Code registers each server's commands: no name twice
    expect(new Set(names.flat()).size).toBe(2 * Object.values(COMMANDS).length);
    for (const [i, { e, f, loaded }] of servers.entries()) {
      expect(names[i]).toEqual(namesFor(f.root));
      await loaded;
      const r = await e.request('workspace/executeCommand', { command: `premise-lsp.search.${projectCommandSuffix(f.root)}`, arguments: [{ query: 'quux wibble', k: 5 }] });
      expect(r.error).toBeUndefined();
      expect(r.result.results.map((h: { name: string }) => h.name)).toContain(WS_THEOREM);
    }
    for (const { e } of servers) expect(await e.shutdown()).toBe(0);
    rmSync(cache, { recursive: true, force: true });
  }, 200_000);
});
