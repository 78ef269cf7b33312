import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverSources } from '../../indexes/src/extract/walk.js';
import {
  buildDirFor,
  cacheEntries,
  cacheRoot,
  commitBuild,
  dependenciesKey,
  elanToolchainDirName,
  lakeProject,
  leanToolchain,
  pruneWorkspaceEntries,
  removeStaleBuilds,
  workspaceKey,
  type LakeProject,
} from '../../indexes/src/packages.js';
import { markEntryDir } from '../../indexes/src/cache-marker.js';
import { fakeToolchain, lakeFixture } from './lake-project.js';

const project = (root: string): LakeProject => {
  const p = lakeProject(root);
  if (typeof p === 'string') throw new Error(p);
  return p;
};

describe('lakeProject', () => {
  it('reads the manifest: name and the dependencies that exist on disk', () => {
    const f = lakeFixture();
    f.manifest({ deplib: 'abc123', missing: 'def456' });
    const p = project(f.root);
    expect(p.root).toBe(f.root);
    expect(p.name).toBe('proj');
    expect(p.dependencies).toEqual([{ name: 'deplib', rev: 'abc123', dir: f.depDir }]);
  });

  it('honours packagesDir and defaults it to .lake/packages', () => {
    const f = lakeFixture();
    f.write('vendor/other/lakefile.lean', 'package other\n');
    f.manifest({ other: 'r1', deplib: 'r2' }, { packagesDir: 'vendor' });
    expect(project(f.root).dependencies.map((d) => d.dir)).toEqual([join(f.root, 'vendor/other')]);
    f.manifest({ deplib: 'r2' }, { packagesDir: undefined });
    expect(project(f.root).dependencies.map((d) => d.name)).toEqual(['deplib']);
  });

  it('refuses a package linked to /, to the project or to a directory holding it, saying why', () => {
    const f = lakeFixture();
    symlinkSync('/', join(f.root, '.lake/packages/root'));
    symlinkSync(join(f.root, '..'), join(f.root, '.lake/packages/up'));
    f.manifest({ deplib: 'r1', root: 'r2', up: 'r3' });
    const p = project(f.root);
    expect(p.dependencies.map((d) => d.name)).toEqual(['deplib']);
    expect(p.refusedPackages).toEqual([
      `${join(f.root, '.lake/packages/root')}: a package that is the file system's root (/); not walked`,
      `${join(f.root, '.lake/packages/up')}: a package that is a directory holding the project (${realpathSync(join(f.root, '..'))}); not walked`,
    ]);
  });

  it('returns an error string for missing or corrupt manifests, never throws', () => {
    const f = lakeFixture();
    f.write('lake-manifest.json', '{ not json');
    expect(lakeProject(f.root)).toMatch(/lake-manifest\.json: cannot read/);
    f.write('lake-manifest.json', JSON.stringify({ packages: 3 }));
    expect(lakeProject(f.root)).toMatch(/not a Lake manifest/);
    expect(lakeProject(join(f.root, 'Proj'))).toMatch(/not a Lake project/);
    // a lakefile without a manifest: a project with no dependencies
    rmSync(join(f.root, 'lake-manifest.json'));
    expect(project(f.root)).toMatchObject({ name: 'proj', dependencies: [] });
  });

  it('refuses a packagesDir outside the project and a package named `.`', () => {
    const f = lakeFixture();
    f.write('../outside/evil/E.lean', 'theorem evil : True := trivial\n');
    for (const dir of ['../outside', join(f.root, '..', 'outside'), '.', 'vendor/../..']) {
      f.manifest({ evil: 'r1' }, { packagesDir: dir });
      expect(lakeProject(f.root)).toMatch(/lake-manifest\.json: packagesDir .* is not inside the project/);
    }
    f.manifest({ '.': 'r1', deplib: 'r2' });
    expect(project(f.root).dependencies.map((d) => d.name)).toEqual(['deplib']);
  });

  it.skipIf(spawnSync('mkfifo', ['--version']).status !== 0)('does not block on a FIFO named lake-manifest.json or lean-toolchain', () => {
    const f = lakeFixture();
    rmSync(join(f.root, 'lake-manifest.json'), { force: true });
    spawnSync('mkfifo', [join(f.root, 'lake-manifest.json'), join(f.root, 'lean-toolchain')]);
    expect(lakeProject(f.root)).toMatch(/lake-manifest\.json: cannot read \(not a regular file\)/);
    rmSync(join(f.root, 'lake-manifest.json'));
    expect(project(f.root).toolchain).toBeUndefined();
  });
});

describe('cache keys and entries', () => {
  it('are stable, and change when a rev or a workspace file changes', () => {
    const f = lakeFixture();
    const p = project(f.root);
    const dep = dependenciesKey(p, 'enc');
    const ws = workspaceKey(p, 'enc');
    expect(dependenciesKey(project(f.root), 'enc')).toBe(dep);
    expect(workspaceKey(project(f.root), 'enc')).toBe(ws);
    expect(dependenciesKey(p, 'other-encoder')).not.toBe(dep);
    expect(workspaceKey(p, 'other-encoder')).not.toBe(ws);

    f.manifest({ deplib: 'abc124' });
    const p2 = project(f.root);
    expect(dependenciesKey(p2, 'enc')).not.toBe(dep);
    expect(workspaceKey(p2, 'enc')).toBe(ws); // the workspace did not change

    f.write('Proj/Main.lean', 'theorem changed : True := trivial\n');
    expect(workspaceKey(p2, 'enc')).not.toBe(ws);
    const ws2 = workspaceKey(p2, 'enc');
    utimesSync(f.wsFile, new Date(), new Date(Date.now() + 5000));
    expect(workspaceKey(p2, 'enc')).not.toBe(ws2);
    // a dependency's sources are not part of the workspace key
    const ws3 = workspaceKey(p2, 'enc');
    f.write('.lake/packages/deplib/DepLib/More.lean', 'theorem more : True := trivial\n');
    expect(workspaceKey(p2, 'enc')).toBe(ws3);
  });

  it('name entries <cache>/<name>-<kind>-<key12> with their sources', () => {
    const f = lakeFixture();
    const p = project(f.root);
    const entries = cacheEntries(p, 'enc', '/cache');
    expect(entries.map((e) => e.kind)).toEqual(['dependencies', 'workspace']);
    expect(entries[0]).toMatchObject({ dir: `/cache/proj-dependencies-${dependenciesKey(p, 'enc').slice(0, 12)}`, sources: [f.depDir], packages: true });
    expect(entries[1]).toMatchObject({ dir: `/cache/proj-workspace-${entries[1]!.key.slice(0, 12)}`, sources: [f.root], packages: false });
    f.manifest({});
    const alone = cacheEntries(project(f.root), 'enc', '/cache');
    expect(alone.map((e) => e.kind)).toEqual(['workspace']);
    expect(alone[0]!.key).toBe(workspaceKey(project(f.root), 'enc'));
  });

  it('cut a very long project name in entry directory names, which stay creatable and distinct', () => {
    const f = lakeFixture();
    const long = 'x'.repeat(3000);
    f.manifest({ deplib: 'abc123' }, { name: long });
    const p = project(f.root);
    expect(p.name).toBe(long);
    const cache = join(f.root, '..', 'cache');
    const entries = cacheEntries(p, 'enc', cache);
    expect(entries).toHaveLength(2);
    for (const e of entries) {
      mkdirSync(buildDirFor(e), { recursive: true }); // ENAMETOOLONG before
      expect(commitBuild(buildDirFor(e), e)).toBe(true);
      expect(existsSync(e.dir)).toBe(true);
    }
    expect(new Set(entries.map((e) => e.dir)).size).toBe(2);
    // the older workspace entry of the same project is still found and pruned
    writeFileSync(join(entries[1]!.dir, 'manifest.json'), JSON.stringify({ sources: [f.root] }));
    markEntryDir(entries[1]!.dir);
    f.write('Proj/More.lean', 'theorem more : True := trivial\n');
    const next = cacheEntries(project(f.root), 'enc', cache)[1]!;
    expect(next.dir).not.toBe(entries[1]!.dir);
    mkdirSync(next.dir);
    pruneWorkspaceEntries(project(f.root), next, cache);
    expect(existsSync(entries[1]!.dir)).toBe(false);
  });

  it("key each entry by the entries before it too (its references resolve against them)", () => {
    const f = lakeFixture();
    const ws = cacheEntries(project(f.root), 'enc', '/cache')[1]!.key;
    f.manifest({ deplib: 'abc124' });
    expect(cacheEntries(project(f.root), 'enc', '/cache')[1]!.key).not.toBe(ws);
    const tc = fakeToolchain(f.root, 'leanprover/lean4:v4.21.0-rc3');
    const p = project(f.root);
    const withCore = cacheEntries(p, 'enc', '/cache', leanToolchain(p, { ELAN_HOME: tc.elanHome }));
    expect(withCore.map((e) => e.kind)).toEqual(['toolchain', 'dependencies', 'workspace']);
    expect(withCore[1]!.key).not.toBe(cacheEntries(p, 'enc', '/cache')[0]!.key);
  });
});

describe('the Lean toolchain library', () => {
  it("names toolchain directories as elan does", () => {
    expect(elanToolchainDirName('leanprover/lean4:v4.21.0-rc3')).toBe('leanprover--lean4---v4.21.0-rc3');
    expect(elanToolchainDirName('leanprover/lean4:nightly-2025-01-01')).toBe('leanprover--lean4---nightly-2025-01-01');
    expect(elanToolchainDirName('v4.9.0')).toBe('leanprover--lean4---v4.9.0');
    expect(elanToolchainDirName('4.9.0')).toBe('leanprover--lean4---v4.9.0');
  });

  it("finds it from lean-toolchain under ELAN_HOME, else from lean's prefix; one shared entry per toolchain", () => {
    const f = lakeFixture();
    expect(project(f.root).toolchain).toBeUndefined();
    const tc = fakeToolchain(f.root, 'leanprover/lean4:v4.21.0-rc3');
    const p = project(f.root);
    expect(p.toolchain).toBe('leanprover/lean4:v4.21.0-rc3');
    const found = leanToolchain(p, { ELAN_HOME: tc.elanHome });
    expect(found).toEqual({ name: 'leanprover/lean4:v4.21.0-rc3', dir: tc.srcDir });
    expect(leanToolchain(p, { ELAN_HOME: join(tc.elanHome, 'nowhere') })).toBeUndefined();
    // `lean --print-prefix` answers the toolchain directory
    expect(leanToolchain(p, { ELAN_HOME: join(tc.elanHome, 'nowhere') }, join(tc.srcDir, '..', '..'))?.dir).toBe(tc.srcDir);
    const [core] = cacheEntries(p, 'enc', '/cache', found);
    expect(core).toMatchObject({ kind: 'toolchain', sources: [], links: { Init: join(tc.srcDir, 'Init'), 'Init.lean': join(tc.srcDir, 'Init.lean') } });
    expect(core!.dir).toMatch(/^\/cache\/lean-v4\.21\.0-rc3-toolchain-[0-9a-f]{12}$/);
    // another project on the same toolchain shares the entry
    const g = lakeFixture();
    fakeToolchain(g.root, 'leanprover/lean4:v4.21.0-rc3', tc.elanHome);
    const q = project(g.root);
    expect(cacheEntries(q, 'enc', '/cache', leanToolchain(q, { ELAN_HOME: tc.elanHome }))[0]!.dir).toBe(core!.dir);
  });

  it('finds the cache root from the environment', () => {
    expect(cacheRoot({ PREMISE_LSP_CACHE: '/a/b', XDG_CACHE_HOME: '/x' })).toBe('/a/b');
    expect(cacheRoot({ XDG_CACHE_HOME: '/x' })).toBe('/x/premise-lsp/indexes');
    expect(cacheRoot({})).toMatch(/\.cache[\\/]premise-lsp[\\/]indexes$/);
  });

  it('moves finished builds into place and removes builds of dead processes', () => {
    const f = lakeFixture();
    const cache = join(f.root, '..', 'cache');
    const [entry] = cacheEntries(project(f.root), 'enc', cache);
    const tmp = buildDirFor(entry!);
    mkdirSync(tmp, { recursive: true });
    writeFileSync(join(tmp, 'manifest.json'), '{}');
    expect(commitBuild(tmp, entry!)).toBe(true);
    expect(existsSync(join(entry!.dir, 'manifest.json'))).toBe(true);
    // a second finisher keeps the first one's entry
    mkdirSync(tmp);
    writeFileSync(join(tmp, 'manifest.json'), '{}');
    writeFileSync(join(tmp, 'other'), '');
    expect(commitBuild(tmp, entry!)).toBe(true);
    expect(existsSync(tmp)).toBe(false);
    const dead = buildDirFor(entry!, 2 ** 22 + 12345); // above Linux's pid_max default
    const live = buildDirFor(entry!, process.pid);
    mkdirSync(dead);
    markEntryDir(dead);
    mkdirSync(live);
    // a dead build's look-alike that premise-lsp did not mark (a user's, the cache root set to $HOME)
    const theirs = buildDirFor(entry!, 2 ** 22 + 12346);
    mkdirSync(theirs);
    removeStaleBuilds(cache);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(theirs)).toBe(true);
  });
});

describe('discoverSources with packages: false', () => {
  it('walks only the project, not its .lake/packages', () => {
    const f = lakeFixture();
    const all = discoverSources([f.root]).files.map((x) => x.module).sort();
    expect(all).toEqual(['DepLib.Basic', 'Proj.Main']);
    const own = discoverSources([f.root], { packages: false }).files.map((x) => x.module);
    expect(own).toEqual(['Proj.Main']);
  });
});
