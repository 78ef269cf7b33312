/**
 * Automatic index of an Isabelle workspace: the distribution's src/HOL (found
 * by `isabelle getenv ISABELLE_HOME`), the libraries registered in
 * `$ISABELLE_HOME_USER/ROOTS` (the AFP) and the workspace's own sessions, each
 * cached, HOL shared by every workspace on the same distribution.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Editor, requireBuild, searchNames, SERVE, stderrSays } from './harness.js';

const editors: Editor[] = [];
afterEach(() => {
  for (const e of editors.splice(0)) e.kill();
});

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** A fake distribution (src/HOL with one theory), a registered AFP, and an `isabelle` script answering getenv. */
function fakeIsabelle(): { bin: string; home: string } {
  const top = mkdtempSync(join(tmpdir(), 'premise-lsp-isabelle-'));
  const home = join(top, 'Isabelle2099');
  const user = join(top, 'user', 'Isabelle2099');
  write(join(home, 'etc', 'ISABELLE_ID'), 'Isabelle2099\n');
  write(join(home, 'src', 'HOL', 'ROOT'), 'session HOL = Pure + theories Zorp\n');
  write(join(home, 'src', 'HOL', 'Zorp.thy'), 'theory Zorp imports Main begin\n\nlemma zorp_add_commute: "zorp a b = zorp b a"\n  by simp\n\nend\n');
  write(join(top, 'afp', 'thys', 'ROOTS'), 'Blarg\n');
  write(join(top, 'afp', 'thys', 'Blarg', 'ROOT'), 'session Blarg = HOL + theories Blarg\n');
  write(join(top, 'afp', 'thys', 'Blarg', 'Blarg.thy'), 'theory Blarg imports Main begin\n\nlemma blarg_frobnicates: "blarg x = frob x"\n  by simp\n\nend\n');
  write(join(user, 'ROOTS'), `${join(top, 'afp', 'thys')}\n`);
  const bin = join(top, 'bin');
  write(join(bin, 'isabelle'), `#!/bin/sh\nif [ "$1" = getenv ]; then echo "ISABELLE_HOME=${home}"; echo "ISABELLE_HOME_USER=${user}"; exit 0; fi\nexit 2\n`);
  chmodSync(join(bin, 'isabelle'), 0o755);
  return { bin, home };
}

function workspace(name: string): string {
  const root = join(mkdtempSync(join(tmpdir(), 'premise-lsp-isa-ws-')), name);
  write(join(root, 'ROOT'), 'session Mine = HOL + theories Mine\n');
  write(join(root, 'Mine.thy'), 'theory Mine imports Main begin\n\nlemma quibble_twice: "quibble (quibble x) = x"\n  using zorp_add_commute by simp\n\nend\n');
  return root;
}

async function initializeOn(e: Editor, root: string): Promise<void> {
  const loaded = e.notification('$/progress', (p) => p.value.kind === 'end' && /^\d+ premises$/.test(p.value.message ?? ''));
  await e.request('initialize', { processId: null, rootUri: pathToFileURL(root).href, capabilities: { window: { workDoneProgress: true } } });
  e.notify('initialized', {});
  await loaded;
}

describe('automatic index of an Isabelle workspace', () => {
  it('indexes HOL, the registered AFP and the workspace, and shares HOL between workspaces', async () => {
    requireBuild();
    const isa = fakeIsabelle();
    const cache = mkdtempSync(join(tmpdir(), 'premise-lsp-cache-'));
    const env = { PREMISE_LSP_CACHE: cache, PATH: `${isa.bin}:${process.env.PATH}` };
    const first = new Editor(process.execPath, [SERVE, 'serve', '--stdio', '--flavor', 'isabelle'], { env });
    editors.push(first);
    await initializeOn(first, workspace('mine'));
    const titles = first.received.filter((m) => m.method === '$/progress' && m.params.value.kind === 'begin').map((m) => m.params.value.title);
    expect(titles).toContain('premise-lsp: indexing the Isabelle/HOL library');
    expect(titles).toContain('premise-lsp: indexing the registered Isabelle libraries');
    expect(titles).toContain('premise-lsp: indexing mine workspace');
    expect(await searchNames(first, 'zorp add commute')).toContain('Zorp.zorp_add_commute');
    expect(await searchNames(first, 'blarg frobnicates')).toContain('Blarg.blarg_frobnicates');
    expect(await searchNames(first, 'quibble twice')).toContain('Mine.quibble_twice');
    await stderrSays(first, 'engine upgraded');
    await first.shutdown();
    const entries = readdirSync(cache).map((n) => n.replace(/-[0-9a-f]{12}$/, '')).sort();
    expect(entries).toEqual(['isabelle-Isabelle2099-afp', 'isabelle-Isabelle2099-hol', 'mine-workspace']);

    const second = new Editor(process.execPath, [SERVE, 'serve', '--stdio', '--flavor', 'isabelle'], { env });
    editors.push(second);
    await initializeOn(second, workspace('other'));
    expect(second.stderr).toContain('using the cached hol index');
    expect(second.stderr).toContain('using the cached afp index');
    expect(await searchNames(second, 'zorp add commute')).toContain('Zorp.zorp_add_commute');
    await stderrSays(second, 'engine upgraded');
    await second.shutdown();

    // the cache judged by the distribution each use recorded: no isabelle on PATH needed (none is run)
    const listed = spawnSync(process.execPath, [SERVE, 'cache', 'list', '--json'], { encoding: 'utf8', env: { ...process.env, PREMISE_LSP_CACHE: cache, PATH: '/usr/bin:/bin' }, timeout: 60_000 });
    const states = (JSON.parse(listed.stdout).entries as { name: string; state: string }[]).map((e) => [e.name.replace(/-[0-9a-f]{12}$/, ''), e.state]);
    expect(states).toEqual([
      ['isabelle-Isabelle2099-afp', 'fresh'],
      ['isabelle-Isabelle2099-hol', 'fresh'],
      ['mine-workspace', 'fresh'],
      ['other-workspace', 'fresh'],
    ]);
  }, 120_000);
});
