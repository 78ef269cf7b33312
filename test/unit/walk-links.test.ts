/**
 * What a walk of an untrusted checkout may read: library names and links are
 * judged against the source root being walked (an input, or one package of its
 * `.lake/packages`, itself possibly a link), on real trees in temp dirs.
 */
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverSources, lakeRootsUnder, packageLinkRefused } from '../../indexes/src/extract/walk.js';
import { SourcePaths } from '../../indexes/src/source-paths.js';

const LEMMA = (ns: string) => `namespace ${ns}\n\ntheorem t_${ns.toLowerCase()} : True := trivial\n\nend ${ns}\n`;

function tree(): { base: string; write: (rel: string, text: string) => string } {
  const base = mkdtempSync(join(tmpdir(), 'walk-links-'));
  const write = (rel: string, text: string) => {
    const p = join(base, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
    return p;
  };
  return { base, write };
}

const relsOf = (d: ReturnType<typeof discoverSources>) => d.files.map((f) => f.rel).sort();

describe('lean_lib names that leave the package root', () => {
  it('lakefile.lean: «../../../outside» is refused with a warning', () => {
    const { base, write } = tree();
    write('outside/Secret.lean', LEMMA('Secret'));
    write('x/y/proj/lakefile.lean', 'import Lake\nopen Lake DSL\npackage proj\n@[default_target] lean_lib «../../../outside»\n@[default_target] lean_lib Proj\n');
    write('x/y/proj/Proj/Main.lean', LEMMA('Proj'));
    const d = discoverSources([join(base, 'x/y/proj')]);
    expect(relsOf(d)).toEqual(['Proj/Main.lean']);
    expect(d.warnings.join('\n')).toContain('lean_lib "../../../outside" leaves the package root');
  });

  it('lakefile.toml: name = "../../../outside/dir" is refused', () => {
    const { base, write } = tree();
    write('outside/dir/Secret.lean', LEMMA('Secret'));
    write('outside/dir.lean', LEMMA('Dir'));
    write('x/y/proj/lakefile.toml', 'name = "proj"\ndefaultTargets = ["../../../outside/dir"]\n\n[[lean_lib]]\nname = "../../../outside/dir"\n');
    const d = discoverSources([join(base, 'x/y/proj')]);
    expect(d.files).toEqual([]);
    expect(d.warnings.join('\n')).toContain('leaves the package root');
  });

  it('a library directory that is a link out of the package is not followed', () => {
    const { base, write } = tree();
    write('outside/Lib/Secret.lean', LEMMA('Secret'));
    write('outside/Lib.lean', LEMMA('LibRoot'));
    write('proj/lakefile.lean', 'import Lake\nopen Lake DSL\npackage proj\n@[default_target] lean_lib Lib\n');
    symlinkSync(join(base, 'outside/Lib'), join(base, 'proj/Lib'));
    symlinkSync(join(base, 'outside/Lib.lean'), join(base, 'proj/Lib.lean'));
    const d = discoverSources([join(base, 'proj')]);
    expect(d.files).toEqual([]);
    expect(d.links).toHaveLength(2);
    // opted in: followed
    expect(relsOf(discoverSources([join(base, 'proj')], { followLinks: true }))).toEqual(['Lib.lean', 'Lib/Secret.lean']);
  });
});

describe('links judged against the source root being walked', () => {
  it('a link to outside the root is skipped and counted; links inside the root still work', () => {
    const { base, write } = tree();
    write('elsewhere/Far.lean', LEMMA('Far'));
    write('elsewhere/Loose.thy', 'theory Loose imports Main begin\nlemma loose: "True" by simp\nend\n');
    write('src/Own.lean', LEMMA('Own'));
    write('src/hidden-vendor/Near.lean', LEMMA('Near')); // reached only through the in-root link
    mkdirSync(join(base, 'src/sub'));
    symlinkSync(join(base, 'elsewhere'), join(base, 'src/everything'));
    symlinkSync(join(base, 'elsewhere/Loose.thy'), join(base, 'src/Loose.thy'));
    symlinkSync('../.vendor', join(base, 'src/sub/near'));
    write('src/.vendor/Near2.lean', LEMMA('Near2'));
    const d = discoverSources([join(base, 'src')]);
    expect(relsOf(d)).toEqual(['Own.lean', 'hidden-vendor/Near.lean', 'sub/near/Near2.lean']);
    expect(d.links).toHaveLength(2);
    expect(d.links.join('\n')).toContain('src/everything');
    expect(d.links.join('\n')).toContain('Loose.thy');
    // the explicit opt-in follows them
    const all = discoverSources([join(base, 'src')], { followLinks: true });
    expect(relsOf(all)).toEqual(['Loose.thy', 'Own.lean', 'everything/Far.lean', 'everything/Loose.thy', 'hidden-vendor/Near.lean', 'sub/near/Near2.lean']);
    expect(all.links).toEqual([]);
    // nested Lake roots are looked for under the same rule
    write('elsewhere/pkg/lakefile.lean', 'package pkg\n');
    expect(lakeRootsUnder(join(base, 'src'))).toEqual([]);
  });
  // a link to / and a 2,000-level chain: test/cli/hostile-input.test.ts, in a process bounded by a hang guard
});

describe('.lake/packages and its packages may be links (each package is a root of its own)', () => {
  it('a package linked to a checkout elsewhere is indexed relative to that checkout, as the bench sets it up', () => {
    const { base, write } = tree();
    write('corpus/mathlib4/lakefile.lean', 'import Lake\nopen Lake DSL\npackage mathlib\n@[default_target] lean_lib Mathlib\n');
    write('corpus/mathlib4/Mathlib/Order/Basic.lean', LEMMA('Mathlib'));
    write('proj/lakefile.lean', 'import Lake\nopen Lake DSL\npackage proj\n@[default_target] lean_lib Proj\n');
    write('proj/Proj/Main.lean', LEMMA('Proj'));
    mkdirSync(join(base, 'proj/.lake/packages'), { recursive: true });
    symlinkSync(join(base, 'corpus/mathlib4'), join(base, 'proj/.lake/packages/mathlib'));
    const d = discoverSources([join(base, 'proj')]);
    expect(d.files.map((f) => `${f.module} ${f.rel}`).sort()).toEqual(['Mathlib.Order.Basic Mathlib/Order/Basic.lean', 'Proj.Main Proj/Main.lean']);
    expect(d.links).toEqual([]);
    // and the package given on its own (the automatic index's dependencies entry)
    expect(relsOf(discoverSources([join(base, 'proj/.lake/packages/mathlib')]))).toEqual(['Mathlib/Order/Basic.lean']);
    expect(new SourcePaths([join(base, 'proj')]).resolve('Mathlib/Order/Basic.lean')).toBe(join(base, 'proj/.lake/packages/mathlib/Mathlib/Order/Basic.lean'));
  });

  it('a .lake/packages that is itself a link is followed; a link inside a package leaving it is not', () => {
    const { base, write } = tree();
    write('shared/pkgs/dep/lakefile.lean', 'import Lake\nopen Lake DSL\npackage dep\n@[default_target] lean_lib Dep\n');
    write('shared/pkgs/dep/Dep/Basic.lean', LEMMA('Dep'));
    write('shared/secret/Secret.lean', LEMMA('Secret'));
    symlinkSync(join(base, 'shared/secret'), join(base, 'shared/pkgs/dep/Dep/escape'));
    write('proj/lakefile.lean', 'import Lake\nopen Lake DSL\npackage proj\n@[default_target] lean_lib Proj\n');
    write('proj/Proj/Main.lean', LEMMA('Proj'));
    mkdirSync(join(base, 'proj/.lake'));
    symlinkSync(join(base, 'shared/pkgs'), join(base, 'proj/.lake/packages'));
    const d = discoverSources([join(base, 'proj')]);
    expect(d.files.map((f) => `${f.module} ${f.rel}`).sort()).toEqual(['Dep.Basic Dep/Basic.lean', 'Proj.Main Proj/Main.lean']);
    expect(d.links).toHaveLength(1);
    expect(d.links[0]).toContain('Dep/escape');
    // a premise's file is served only under its package's root
    const paths = new SourcePaths([join(base, 'proj')]);
    expect(paths.resolve('Dep/Basic.lean')).toBe(join(base, 'proj/.lake/packages/dep/Dep/Basic.lean'));
    expect(paths.resolve('../secret/Secret.lean')).toBeUndefined();
  });
  it('a package linked to the project or a directory holding it is refused with a counted warning', () => {
    const { base, write } = tree();
    write('proj/lakefile.lean', 'import Lake\nopen Lake DSL\npackage proj\n@[default_target] lean_lib Proj\n');
    write('proj/Proj/Main.lean', LEMMA('Proj'));
    write('Sibling.lean', LEMMA('Sibling'));
    mkdirSync(join(base, 'proj/.lake/packages'), { recursive: true });
    symlinkSync(base, join(base, 'proj/.lake/packages/up'));
    symlinkSync('../..', join(base, 'proj/.lake/packages/self'));
    const d = discoverSources([join(base, 'proj')]);
    expect(d.files.map((f) => `${f.module} ${f.rel}`)).toEqual(['Proj.Main Proj/Main.lean']);
    expect(d.warnings).toEqual([
      `${join(base, 'proj/.lake/packages/self')}: a package that is the project itself; not walked`,
      `${join(base, 'proj/.lake/packages/up')}: a package that is a directory holding the project (${realpathSync(base)}); not walked`,
    ]);
  });

  it('the file system root is never a package (the walk itself: test/cli/hostile-input.test.ts)', () => {
    expect(packageLinkRefused('/', '/home/u/proj')).toBe("a package that is the file system's root (/); not walked");
    expect(packageLinkRefused('/home/u', '/home/u/proj')).toBe('a package that is a directory holding the project (/home/u); not walked');
    expect(packageLinkRefused('/home/u/src/mathlib4', '/home/u/proj')).toBeUndefined();
    expect(packageLinkRefused('/home/u/proj/vendor/dep', '/home/u/proj')).toBeUndefined();
    expect(packageLinkRefused('/home/u/pro', '/home/u/proj')).toBeUndefined();
  });
});
