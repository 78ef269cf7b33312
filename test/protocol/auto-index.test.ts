/**
 * Automatic index: with no index given, the server indexes the editor's Lake
 * project (dependencies and workspace, in child processes, with progress) into
 * the cache, serves both as one engine, and reuses the cache next time.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CORE_THEOREM, DEP_THEOREM, fakeToolchain, lakeFixture, WS_THEOREM } from '../unit/lake-project.js';
import { DEFERRED_INFORMAL_FILE } from '../../indexes/src/deferred-informal.js';
import { readIndexDir } from '../../indexes/src/store/index-dir.js';
import { PremiseTable } from '../../indexes/src/store/premises.js';
import { Editor, requireBuild, searchNames, SERVE, stderrSays, type Msg } from './harness.js';

const editors: Editor[] = [];
afterEach(() => {
  for (const e of editors.splice(0)) e.kill();
});

function start(cache: string, extra: string[] = [], env: Record<string, string> = {}): Editor {
  requireBuild();
  // no elan toolchain unless a test makes one
  const e = new Editor(process.execPath, [SERVE, 'serve', '--stdio', ...extra], { env: { PREMISE_LSP_CACHE: cache, ELAN_HOME: join(cache, 'no-elan'), ...env } });
  editors.push(e);
  return e;
}

/** Initialize on `root`, wait for the index load to end; the `$/progress` begin titles seen. */
async function initializeOn(e: Editor, root: string, options?: unknown): Promise<{ titles: string[]; loaded: Msg }> {
  const loaded = e.notification('$/progress', (p) => p.value.kind === 'end' && /^\d+ premises$/.test(p.value.message ?? ''));
  await e.request('initialize', { processId: null, rootUri: pathToFileURL(root).href, capabilities: { window: { workDoneProgress: true } }, initializationOptions: options });
  e.notify('initialized', {});
  const msg = await loaded;
  const titles = e.received.filter((m) => m.method === '$/progress' && m.params.value.kind === 'begin').map((m) => m.params.value.title as string);
  return { titles, loaded: msg };
}

const snapshot = (dir: string) => readdirSync(dir).sort().map((n) => `${n}@${statSync(join(dir, n, 'manifest.json')).mtimeMs}`);

describe('automatic index of a Lake project', () => {
  it('builds dependencies and workspace once, serves both, and reuses the cache', async () => {
    const f = lakeFixture();
    const cache = mkdtempSync(join(tmpdir(), 'premise-lsp-cache-'));

    const first = start(cache);
    const { titles, loaded } = await initializeOn(first, f.root);
    expect(loaded.params.value.message).toBe('2 premises');
    expect(titles).toContain('premise-lsp: indexing proj dependencies');
    expect(titles).toContain('premise-lsp: indexing proj workspace');
    expect(await searchNames(first, 'zorble frob')).toContain(DEP_THEOREM);
    expect(await searchNames(first, 'quux wibble')).toContain(WS_THEOREM);
    // a lemma being written is live-indexed into the sparse engine…
    const uri = pathToFileURL(join(f.root, 'Proj', 'Draft.lean')).href; // not on disk: the workspace entry stays as it is
    first.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'lean4', version: 1, text: 'namespace Proj\n\ntheorem snorkel_draft (n : Nat) : n = n := rfl\n\nend Proj\n' } });
    for (let i = 0; i < 100 && !(await searchNames(first, 'snorkel draft')).includes('Proj.snorkel_draft'); i++) await new Promise((r) => setTimeout(r, 50));
    // served sparse-only first, then the vectors were added from the finished indexes
    await stderrSays(first, 'engine upgraded: 2 premises');
    // …and read again into the hybrid one
    for (let i = 0; i < 100 && !(await searchNames(first, 'snorkel draft')).includes('Proj.snorkel_draft'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await searchNames(first, 'snorkel draft')).toContain('Proj.snorkel_draft');
    expect(first.stderr.indexOf('engine ready: 2 premises')).toBeLessThan(first.stderr.indexOf('engine upgraded'));
    expect(titles.filter((t) => t.includes('indexing'))).toEqual(['premise-lsp: indexing proj dependencies', 'premise-lsp: indexing proj workspace']);
    const progressTitles = first.received.filter((m) => m.method === '$/progress' && m.params.value.kind === 'begin').map((m) => m.params.value.title);
    expect(progressTitles).toContain('premise-lsp: adding vectors to proj dependencies');
    expect(await searchNames(first, 'zorble frob')).toContain(DEP_THEOREM);
    expect(await first.shutdown()).toBe(0);
    const entries = snapshot(cache);
    expect(entries.map((n) => n.replace(/-[0-9a-f]{12}@.*/, ''))).toEqual(['proj-dependencies', 'proj-workspace']);
    // the first step left the informal (English) field to the second, which built it
    for (const n of readdirSync(cache)) {
      expect(existsSync(join(cache, n, DEFERRED_INFORMAL_FILE))).toBe(false);
      expect(readIndexDir(join(cache, n)).informal.arrays.vocab.size).toBeGreaterThan(0);
    }
    expect(first.received.some((m) => m.method === '$/progress' && /indexing the English side/.test(m.params.value.message ?? ''))).toBe(true);

    const second = start(cache);
    const again = await initializeOn(second, f.root);
    expect(again.titles.filter((t) => t.includes('indexing'))).toEqual([]);
    expect(await searchNames(second, 'zorble frob')).toContain(DEP_THEOREM);
    expect(await searchNames(second, 'quux wibble')).toContain(WS_THEOREM);
    expect(snapshot(cache)).toEqual(entries);
    expect(second.stderr).toContain('using the cached dependencies index');
    expect(await second.shutdown()).toBe(0);
  });

  it('rebuilds only the workspace when its sources change; autoIndex: false turns it off', async () => {
    const f = lakeFixture();
    const cache = mkdtempSync(join(tmpdir(), 'premise-lsp-cache-'));
    const first = start(cache);
    await initializeOn(first, f.root);
    await stderrSays(first, 'engine upgraded');
    await first.shutdown();

    f.write('Proj/Extra.lean', 'namespace Proj\n\ntheorem blorp_snark (p : Prop) (h : p) : p := h\n\nend Proj\n');
    const second = start(cache);
    const { titles, loaded } = await initializeOn(second, f.root);
    expect(titles.filter((t) => t.includes('indexing'))).toEqual(['premise-lsp: indexing proj workspace']);
    expect(loaded.params.value.message).toBe('3 premises');
    expect(await searchNames(second, 'blorp snark')).toContain('Proj.blorp_snark');
    await stderrSays(second, 'engine upgraded');
    await second.shutdown();
    // the superseded workspace entry is gone
    expect(readdirSync(cache).filter((n) => n.startsWith('proj-workspace-'))).toHaveLength(1);

    const off = start(cache);
    const r = await initializeOn(off, f.root, { autoIndex: false });
    expect(r.loaded.params.value.message).toBe('0 premises');
    await off.shutdown();
  });

  it("indexes the Lean toolchain's Init and Std once per toolchain, shared by projects", async () => {
    const f = lakeFixture();
    const cache = mkdtempSync(join(tmpdir(), 'premise-lsp-cache-'));
    const tc = fakeToolchain(f.root, 'leanprover/lean4:v4.21.0-rc3');
    // a dependency's alias of a core theorem
    f.write('.lake/packages/deplib/DepLib/Alias.lean', 'namespace DepLib\n\nalias snorp_le := Nat.blip_le_blop\n\nend DepLib\n');
    const first = start(cache, [], { ELAN_HOME: tc.elanHome });
    const { titles, loaded } = await initializeOn(first, f.root);
    expect(titles).toContain('premise-lsp: indexing the Lean toolchain library');
    expect(loaded.params.value.message).toBe('6 premises'); // Init's two, Std's one, the dependency's two, the workspace's (not Lean's)
    expect(await searchNames(first, 'blips below blops')).toContain(CORE_THEOREM);
    expect(await searchNames(first, 'grumble nil')).toContain('Std.grumble_nil');
    expect(await searchNames(first, 'elab internal thing')).not.toContain('Lean.elab_internal_thing');
    await stderrSays(first, 'engine upgraded');
    // each hit's uri is its source: the toolchain's (built from a directory of links, gone since), the dependency's, the workspace's
    const uriOf = async (query: string, name: string) => {
      const r = await first.request('workspace/executeCommand', { command: 'premise-lsp.search', arguments: [{ query, k: 5 }] });
      return r.result.results.find((h: { name: string }) => h.name === name)?.uri;
    };
    expect(await uriOf('blips below blops', CORE_THEOREM)).toBe(pathToFileURL(join(tc.srcDir, 'Init', 'Core.lean')).href);
    expect(await uriOf('zorble frob', DEP_THEOREM)).toBe(pathToFileURL(join(f.depDir, 'DepLib', 'Basic.lean')).href);
    expect(await uriOf('quux wibble', WS_THEOREM)).toBe(pathToFileURL(f.wsFile).href);
    await first.shutdown();
    const core = readdirSync(cache).filter((n) => n.startsWith('lean-v4.21.0-rc3-toolchain-'));
    expect(core).toHaveLength(1);
    // the dependencies were built against the toolchain's index: the alias states what its target states
    const deps = readdirSync(cache).find((n) => n.startsWith('proj-dependencies-'))!;
    const table = PremiseTable.open(join(cache, deps, 'premises.bin'));
    try {
      const alias = [...table.scan()].find((p) => p.name === 'DepLib.snorp_le');
      expect(alias).toMatchObject({ kind: 'theorem', args: ['(n : Nat)'], goal: 'n ≤ n + 1' });
    } finally {
      table.close();
    }

    // another project on the same toolchain reuses the entry
    const g = lakeFixture();
    fakeToolchain(g.root, 'leanprover/lean4:v4.21.0-rc3', tc.elanHome);
    g.manifest({ deplib: 'other-rev' });
    const second = start(cache, [], { ELAN_HOME: tc.elanHome });
    const again = await initializeOn(second, g.root);
    expect(again.titles.filter((t) => t.includes('indexing'))).toEqual(['premise-lsp: indexing proj dependencies', 'premise-lsp: indexing proj workspace']);
    expect(second.stderr).toContain(`using the cached toolchain index ${join(cache, core[0]!)}`);
    expect(await searchNames(second, 'blips below blops')).toContain(CORE_THEOREM);
    await stderrSays(second, 'engine upgraded');
    await second.shutdown();
  }, 90_000);

  it('serves the rest when one entry cannot be built, and tells the user once', async () => {
    const f = lakeFixture();
    const cache = mkdtempSync(join(tmpdir(), 'premise-lsp-cache-'));
    const first = start(cache);
    await initializeOn(first, f.root);
    await stderrSays(first, 'engine upgraded');
    await first.shutdown();
    // where the workspace entry is built (sparse, then with vectors): a stray file in its place makes its build fail
    const built = [...first.stderr.matchAll(/(?:indexing|adding vectors to) proj workspace → (\S+)/g)].map((m) => m[1]!);
    expect(built).toHaveLength(2);
    for (const dir of built) {
      rmSync(dir, { recursive: true, force: true });
      writeFileSync(dir, 'in the way');
    }

    const second = start(cache);
    const shown = second.notification('window/showMessage');
    const { loaded } = await initializeOn(second, f.root);
    expect(loaded.params.value.message).toBe('1 premises'); // the dependencies' (cached)
    expect((await shown).params.type).toBe(2);
    expect((await shown).params.message).toMatch(/automatic index of proj workspace failed: could not move the finished index.*serves the rest.*restart the language server/);
    expect(await searchNames(second, 'zorble frob')).toContain(DEP_THEOREM);
    expect(await second.shutdown()).toBe(0);
    expect(second.received.filter((m) => m.method === 'window/showMessage')).toHaveLength(1);
  });

  it('keeps serving (without premises) when the project cannot be indexed', async () => {
    const f = lakeFixture();
    f.write('lake-manifest.json', '{ broken');
    const cache = mkdtempSync(join(tmpdir(), 'premise-lsp-cache-'));
    const e = start(cache);
    const failed = e.notification('$/progress', (p) => p.value.kind === 'end' && String(p.value.message).startsWith('failed'));
    const shown = e.notification('window/showMessage');
    await e.request('initialize', { processId: null, rootUri: pathToFileURL(f.root).href, capabilities: { window: { workDoneProgress: true } } });
    e.notify('initialized', {});
    expect((await failed).params.value.message).toContain('lake-manifest.json');
    // shown where the user looks, once, with the fix
    expect((await shown).params.type).toBe(1);
    expect((await shown).params.message).toMatch(/automatic index.*lake-manifest\.json.*restart the language server.*premise-lsp index --out/);
    const r = await e.request('workspace/executeCommand', { command: 'premise-lsp.search', arguments: [{ query: 'zorble' }] });
    expect(r.error?.message).toContain('premise index not available');
    expect(await e.shutdown()).toBe(0);
    expect(e.received.filter((m) => m.method === 'window/showMessage')).toHaveLength(1);
    expect(readdirSync(cache)).toEqual([]);
  });
});
