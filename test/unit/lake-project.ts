/** A tiny Lake project written into a temp dir: one dependency package and the workspace's own sources. */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const DEP_THEOREM = 'DepLib.zorble_frob';
export const WS_THEOREM = 'Proj.quux_wibble';

export interface LakeFixture {
  root: string;
  depDir: string;
  wsFile: string;
  write(rel: string, text: string): string;
  manifest(revs: Record<string, string>, extra?: Record<string, unknown>): void;
}

export function lakeFixture(): LakeFixture {
  const root = join(mkdtempSync(join(tmpdir(), 'premise-lsp-lake-')), 'proj');
  const write = (rel: string, text: string) => {
    const p = join(root, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
    return p;
  };
  const manifest = (revs: Record<string, string>, extra: Record<string, unknown> = {}) =>
    write(
      'lake-manifest.json',
      JSON.stringify({
        version: '1.1.0',
        packagesDir: '.lake/packages',
        packages: Object.entries(revs).map(([name, rev]) => ({ type: 'git', url: `https://example.invalid/${name}`, name, rev, inherited: false })),
        name: 'proj',
        lakeDir: '.lake',
        ...extra,
      }),
    );
  write('lakefile.lean', 'import Lake\nopen Lake DSL\n\npackage proj\n\n@[default_target]\nlean_lib Proj\n');
  const wsFile = write('Proj/Main.lean', 'namespace Proj\n\n/-- Quux wibbles commute. -/\ntheorem quux_wibble (a b : Nat) : a * b = b * a := Nat.mul_comm a b\n\nend Proj\n');
  write('.lake/packages/deplib/lakefile.lean', 'import Lake\nopen Lake DSL\n\npackage deplib\n\nlean_lib DepLib\n');
  write('.lake/packages/deplib/DepLib/Basic.lean', 'namespace DepLib\n\n/-- Zorbles are frobnicated. -/\ntheorem zorble_frob (n : Nat) : n + 0 = n := rfl\n\nend DepLib\n');
  manifest({ deplib: 'abc123' });
  return { root, depDir: join(root, '.lake/packages/deplib'), wsFile, write, manifest };
}

export const CORE_THEOREM = 'Nat.blip_le_blop';

/**
 * A fake elan toolchain with a tiny `Init` (and `Std`), and the project's
 * `lean-toolchain` naming it. `elanHome` is created unless given.
 */
export function fakeToolchain(projectRoot: string, name: string, elanHome = mkdtempSync(join(tmpdir(), 'premise-lsp-elan-'))): { elanHome: string; srcDir: string } {
  writeFileSync(join(projectRoot, 'lean-toolchain'), `${name}\n`);
  const srcDir = join(elanHome, 'toolchains', name.split('/').join('--').split(':').join('---'), 'src', 'lean');
  const write = (rel: string, text: string) => {
    if (existsSync(join(srcDir, rel))) return; // a toolchain shared with another project stays as it was
    mkdirSync(dirname(join(srcDir, rel)), { recursive: true });
    writeFileSync(join(srcDir, rel), text);
  };
  write('Init.lean', 'prelude\nimport Init.Core\n');
  write('Init/Core.lean', 'prelude\nnamespace Nat\n\n/-- Blips are below blops. -/\ntheorem blip_le_blop (n : Nat) : n ≤ n + 1 := Nat.le_succ n\n\ntheorem blip_self (n : Nat) : n = n := rfl\n\nend Nat\n');
  write('Std/Data.lean', 'namespace Std\n\ntheorem grumble_nil : True := trivial\n\nend Std\n');
  write('Lean/Elab.lean', 'namespace Lean\n\ntheorem elab_internal_thing : True := trivial\n\nend Lean\n');
  return { elanHome, srcDir };
}
