/**
 * `/retrieve`'s `imported_modules`: the answer holds premises of those modules
 * and of what they import (the index's recorded module imports), the request's
 * new premises, and premises of modules the index has no imports for;
 * `imported_all_modules: true` or an empty list restricts nothing.
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

  it('takes modules by position in /indexed-modules as well as by name; a position past the list is a 400', async () => {
    const modules = (await api.handle('GET', '/indexed-modules', '')).body as string[];
    expect(await names({ imported_modules: [modules.indexOf('Imp.A')] })).toEqual(['Imp.snark_left', 'Imp.snark_right', 'Old.snark_old']);
    const r = await api.handle('POST', '/retrieve', JSON.stringify({ state, imported_modules: [modules.length] }));
    expect(r).toEqual({ status: 400, body: { error: `imported_modules has index ${modules.length}, but the index has ${modules.length} modules (/indexed-modules)` } });
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
  });
});
