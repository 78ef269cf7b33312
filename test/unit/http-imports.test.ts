/**
 * `/retrieve`'s `imported_modules`: the answer holds premises of those modules
 * and of what they import (the index's recorded module imports), the request's
 * new premises, and premises of modules the index has no imports for;
 * `imported_all_modules: true` or an empty list restricts nothing. Lists are read
 * as LeanHammer's server reads them: what names nothing is ignored; inside Lean's
 * module system, `imported_all_modules` lets hidden definitions through.
 */
import { describe, expect, it } from 'vitest';
import { FixtureEngine } from '../../server/src/engine/open.js';
import { LeanHammerApi } from '../../server/src/http/leanhammer.js';

const stmt = (n: string) => `theorem ${n} (a b : Nat) : a + b = b + a`;
const engine = new FixtureEngine(
  [
    { name: 'Imp.snark_left', module: 'Imp.A', statement: stmt('Imp.snark_left'), goal: 'a + b = b + a' },
    { name: 'Imp.snark_right', module: 'Imp.B', statement: stmt('Imp.snark_right'), goal: 'a + b = b + a' },
    { name: 'Imp.snark_swap', module: 'Imp.C', statement: stmt('Imp.snark_swap'), goal: 'a + b = b + a' },
    { name: 'Old.snark_old', module: 'Old.Unrecorded', statement: stmt('Old.snark_old'), goal: 'a + b = b + a' },
  ],
  new Map([
    ['Imp.A', ['Imp.B']],
    ['Imp.B', []],
    ['Imp.C', []],
  ]),
);
const api = new LeanHammerApi(engine, { maxNewPremises: 4 });
const state = 'a b : Nat\n⊢ a + b = b + a';

async function names(body: Record<string, unknown>): Promise<string[]> {
  const r = await api.handle('POST', '/retrieve', JSON.stringify({ state, k: 10, ...body }));
  expect(r.status).toBe(200);
  return (r.body as { name: string }[]).map((h) => h.name).sort();
}

describe('/retrieve imported_modules', () => {
  it('keeps premises of the imported modules and what they import, and of modules without recorded imports', async () => {
    expect(await names({ imported_modules: ['Imp.A'] })).toEqual(['Imp.snark_left', 'Imp.snark_right', 'Old.snark_old']);
    expect(await names({ imported_modules: ['Imp.C'] })).toEqual(['Imp.snark_swap', 'Old.snark_old']);
  });

  it('never leaves out the request\'s new premises, even one that shadows an unimported indexed name', async () => {
    const got = await names({ imported_modules: ['Imp.B'], new_premises: [{ name: 'Imp.snark_swap', decl: stmt('Imp.snark_swap') }] });
    expect(got).toContain('Imp.snark_swap');
    expect(got).not.toContain('Imp.snark_left');
  });

  it('with local_premises: two scopes, a premise either allows is kept (LeanHammer\'s reading)', async () => {
    const all = engine.indexedNames();
    const local = ['Imp.snark_swap'].map((n) => all.indexOf(n));
    expect(await names({ imported_modules: ['Imp.B'], local_premises: local })).toEqual(['Imp.snark_right', 'Imp.snark_swap', 'Old.snark_old']);
  });

  it('takes modules by position in /indexed-modules, by name or as a path; ignores positions past the list and unknown names (issue 35)', async () => {
    const modules = (await api.handle('GET', '/indexed-modules', '')).body as string[];
    const fromA = ['Imp.snark_left', 'Imp.snark_right', 'Old.snark_old'];
    expect(await names({ imported_modules: [modules.indexOf('Imp.A')] })).toEqual(fromA);
    expect(await names({ imported_modules: ['Imp/A.lean'] })).toEqual(fromA);
    // as LeanHammer's server reads them: what names no module is left out, never a 400
    expect(await names({ imported_modules: [modules.indexOf('Imp.A'), modules.length, 1e9, -1, 'No.Such.Module'] })).toEqual(fromA);
  });

  it('local_premises: positions or names; positions past the list and unknown names are ignored (issue 35)', async () => {
    const all = engine.indexedNames();
    expect(await names({ local_premises: [all.indexOf('Imp.snark_swap'), all.length, 'Imp.snark_left', 'No.such_name'] })).toEqual(['Imp.snark_left', 'Imp.snark_swap']);
    expect(await names({ local_premises: [all.indexOf('Imp.snark_swap'), 1e9, -1] })).toEqual(['Imp.snark_swap']);
    // the same positions past the list, as another request: its own allowed set
    expect(await names({ local_premises: [all.length, 1e9] })).toEqual([]);
  });

  it('restricts nothing with imported_all_modules, an empty list, or none', async () => {
    const everything = ['Imp.snark_left', 'Imp.snark_right', 'Imp.snark_swap', 'Old.snark_old'];
    expect(await names({ imported_modules: ['Imp.A'], imported_all_modules: true })).toEqual(everything);
    expect(await names({ imported_modules: [] })).toEqual(everything);
    expect(await names({})).toEqual(everything);
  });

  it('refuses a list of anything but module names with a 400', async () => {
    const r = await api.handle('POST', '/retrieve', JSON.stringify({ state, imported_modules: [true, {}] }));
    expect(r).toEqual({ status: 400, body: { error: expect.stringMatching(/imported_modules must be a list of at most 100000 module names or indices/) } });
    const b = await api.handle('POST', '/retrieve', JSON.stringify({ state, imported_modules: ['Imp.A'], imported_all_modules: 'yes' }));
    expect(b.status).toBe(400);
    const c = await api.handle('POST', '/retrieve', JSON.stringify({ state, caller_in_module_system: 'no' }));
    expect(c).toEqual({ status: 400, body: { error: 'caller_in_module_system must be true or false' } });
  });

  it('answers k above its maximum with its maximum, as LeanHammer\'s server answers up to 1,024 (issue 35)', async () => {
    const r = await api.handle('POST', '/retrieve', JSON.stringify({ state, k: 1024 }));
    expect(r.status).toBe(200);
    expect((r.body as unknown[]).length).toBe(4);
    expect((await api.handle('POST', '/retrieve', JSON.stringify({ state, k: 0 }))).status).toBe(400);
  });
});

describe("/retrieve in Lean's module system (LeanHammer's caller_in_module_system, imported_all_modules)", () => {
  // Mod.A is a module-system file: its def hides its body, its theorem and its exposed def do not
  const modEngine = new FixtureEngine(
    [
      { name: 'Mod.sealed_swap', kind: 'def', module: 'Mod.A', statement: stmt('Mod.sealed_swap'), goal: 'a + b = b + a', unexposed: true },
      { name: 'Mod.open_swap', kind: 'def', module: 'Mod.A', statement: stmt('Mod.open_swap'), goal: 'a + b = b + a' },
      { name: 'Mod.thm_swap', module: 'Mod.A', statement: stmt('Mod.thm_swap'), goal: 'a + b = b + a' },
      { name: 'Old.plain_swap', kind: 'def', module: 'Old.B', statement: stmt('Old.plain_swap'), goal: 'a + b = b + a' },
    ],
    new Map([
      ['Mod.A', []],
      ['Old.B', []],
    ]),
  );
  const modApi = new LeanHammerApi(modEngine, { maxNewPremises: 4 });
  const modules = modEngine.indexedModules();
  const modNames = async (body: Record<string, unknown>) => {
    const r = await modApi.handle('POST', '/retrieve', JSON.stringify({ state, k: 10, ...body }));
    expect(r.status).toBe(200);
    return (r.body as { name: string }[]).map((h) => h.name).sort();
  };
  const everything = ['Mod.open_swap', 'Mod.sealed_swap', 'Mod.thm_swap', 'Old.plain_swap'];

  it('outside the module system every premise is visible, and imported_all_modules (a list, [] there) is not read', async () => {
    expect(await modNames({ caller_in_module_system: false, imported_all_modules: [] })).toEqual(everything);
    expect(await modNames({ caller_in_module_system: false, imported_all_modules: [modules.indexOf('Old.B')] })).toEqual(everything);
  });

  it('inside it, a definition whose body its module hides is left out unless its module is imported with `import all`', async () => {
    const visible = ['Mod.open_swap', 'Mod.thm_swap', 'Old.plain_swap'];
    expect(await modNames({ caller_in_module_system: true, imported_all_modules: [] })).toEqual(visible);
    expect(await modNames({ caller_in_module_system: true, imported_all_modules: [modules.indexOf('Old.B'), modules.length, 'No.Such'] })).toEqual(visible);
    expect(await modNames({ caller_in_module_system: true, imported_all_modules: [modules.indexOf('Mod.A')] })).toEqual(everything);
    expect(await modNames({ caller_in_module_system: true, imported_all_modules: ['Mod/A.lean'] })).toEqual(everything);
    // with the other scopes: still both
    const imported = [modules.indexOf('Mod.A')];
    expect(await modNames({ caller_in_module_system: true, imported_modules: imported, imported_all_modules: [] })).toEqual(['Mod.open_swap', 'Mod.thm_swap']);
    // the caller's own new premises are always visible (here one that has the hidden one's name: the caller's own version)
    const fresh = [{ name: 'Mod.sealed_swap', decl: 'def Mod.sealed_swap (a b : Nat) : a + b = b + a' }];
    expect(await modNames({ caller_in_module_system: true, imported_all_modules: [], local_premises: [], new_premises: fresh })).toEqual(['Mod.sealed_swap']);
  });
});
