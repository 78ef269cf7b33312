import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { homeFromCommand, isabelleDistribution, isabelleEntries, parseGetenv, registeredLibraries } from '../../indexes/src/isabelle-sessions.js';

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function tree() {
  const top = mkdtempSync(join(tmpdir(), 'premise-lsp-isa-unit-'));
  const home = join(top, 'Isabelle2099');
  const user = join(top, 'user');
  write(join(home, 'src', 'HOL', 'ROOT'), 'session HOL\n');
  write(join(home, 'src', 'HOL', 'A.thy'), 'theory A imports Main begin\nlemma a: "x = x" by simp\nend\n');
  write(join(home, 'bin', 'isabelle'), '');
  write(join(top, 'afp', 'thys', 'ROOTS'), 'X\n');
  write(join(top, 'ws', 'ROOT'), 'session W\n');
  write(join(top, 'ws', 'W.thy'), 'theory W imports Main begin\nend\n');
  write(join(user, 'etc', 'components'), `# components\n${join(top, 'afp', 'thys')}\n${join(top, 'missing')}\n${join(top, 'ws')}\n`);
  return { top, home, user, ws: join(top, 'ws') };
}

describe('Isabelle sessions', () => {
  it('reads `isabelle getenv` output', () => {
    expect(parseGetenv('ISABELLE_HOME=/opt/Isabelle2024\nISABELLE_HOME_USER=/home/u/.isabelle/Isabelle2024\n')).toEqual({
      ISABELLE_HOME: '/opt/Isabelle2024',
      ISABELLE_HOME_USER: '/home/u/.isabelle/Isabelle2024',
    });
    expect(parseGetenv('garbage\nISABELLE_HOME=\n')).toEqual({});
  });

  it('finds the distribution, its version, and the home from the command location', () => {
    const t = tree();
    expect(isabelleDistribution(t.home)).toEqual({ home: t.home, version: 'Isabelle2099' });
    expect(isabelleDistribution(t.top)).toBeUndefined(); // no src/HOL
    expect(homeFromCommand(join(t.home, 'bin', 'isabelle'))).toBe(t.home);
    expect(homeFromCommand('isabelle')).toBeUndefined();
  });

  it('registered libraries exclude missing directories and the workspace itself', () => {
    const t = tree();
    const dist = isabelleDistribution(t.home, t.user)!;
    expect(registeredLibraries(dist, t.ws)).toEqual([join(t.top, 'afp', 'thys')]);
  });

  it('entries: HOL shared per version, then libraries, then the workspace; keys chained', () => {
    const t = tree();
    const dist = isabelleDistribution(t.home, t.user)!;
    const e = isabelleEntries(t.ws, dist, 'enc', '/cache');
    expect(e.map((x) => x.kind)).toEqual(['hol', 'afp', 'workspace']);
    expect(e[0]!.dir).toMatch(/^\/cache\/isabelle-Isabelle2099-hol-[0-9a-f]{12}$/);
    expect(e[0]!.sources).toEqual([join(t.home, 'src', 'HOL')]);
    expect(e[2]!.dir).toMatch(/^\/cache\/ws-workspace-/);
    expect(isabelleEntries(t.ws, undefined, 'enc', '/cache').map((x) => x.kind)).toEqual(['workspace']);
    // another version: another HOL entry, and the workspace entry changes with it
    write(join(t.home, 'etc', 'ISABELLE_ID'), 'Isabelle2099-1\n');
    const f = isabelleEntries(t.ws, isabelleDistribution(t.home, t.user), 'enc', '/cache');
    expect(f[0]!.dir).not.toBe(e[0]!.dir);
    expect(f[2]!.key).not.toBe(e[2]!.key);
  });
});
