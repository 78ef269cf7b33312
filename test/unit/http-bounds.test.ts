/** What one /retrieve request's new premises may cost the server's other callers (../../server/src/http/leanhammer.ts). */
import { describe, expect, it } from 'vitest';
import type { PremiseSearch } from '../../server/src/engine/types.js';
import { LeanHammerApi, MAX_DECL_CHARS, MAX_NAME_CHARS, MAX_NEW_PREMISE_CHARS, MAX_STATE_CHARS } from '../../server/src/http/leanhammer.js';

/** An engine that answers at once, with the names of the request's own premises. */
const engine = {
  indexedNames: () => ['Nat.add_comm'],
  indexedModules: () => ['Init'],
  search: async (_q: string, opts: { extra?: { name: string }[] }) => (opts.extra ?? []).slice(0, 1).map((r) => ({ name: r.name, score: 1 })),
} as unknown as PremiseSearch;

const api = () => new LeanHammerApi(engine, { maxNewPremises: 4096 });
const retrieve = (a: LeanHammerApi, body: object) => a.handle('POST', '/retrieve', JSON.stringify({ state: '⊢ a + b = b + a', ...body }));
/** A printed signature of `n` characters. */
const decl = (name: string, n: number) => `theorem ${name} (x : Nat) : ${'HAdd.hAdd x '.repeat(Math.ceil(n / 12))}`.slice(0, n);

describe('/retrieve bounds on new premises', () => {
  it('refuses a declaration over MAX_DECL_CHARS with a 400 naming the premise and the limit', async () => {
    const premises = [
      { name: 'Ok.one', decl: decl('Ok.one', 100) },
      { name: 'Huge.decl', decl: decl('Huge.decl', MAX_DECL_CHARS + 1) },
    ];
    const r = await retrieve(api(), { new_premises: premises });
    expect(r.status).toBe(400);
    expect((r.body as { error: string }).error).toBe(
      `new_premises[1] ("Huge.decl") has a decl of ${MAX_DECL_CHARS + 1} characters, more than the ${MAX_DECL_CHARS} allowed per declaration`,
    );
    // one at the limit is read
    const at = await retrieve(api(), { new_premises: [{ name: 'At.limit', decl: decl('At.limit', MAX_DECL_CHARS) }] });
    expect(at).toEqual({ status: 200, body: [{ name: 'At.limit', score: 1 }] });
  });

  it('refuses new premises over MAX_NEW_PREMISE_CHARS in all', async () => {
    const n = Math.floor(MAX_NEW_PREMISE_CHARS / MAX_DECL_CHARS) + 1;
    const premises = Array.from({ length: n }, (_, i) => ({ name: `P.p${i}`, decl: decl(`P.p${i}`, MAX_DECL_CHARS) }));
    const r = await retrieve(api(), { new_premises: premises });
    expect(r.status).toBe(400);
    expect((r.body as { error: string }).error).toBe(
      `new_premises' decls have ${n * MAX_DECL_CHARS} characters in all, more than the ${MAX_NEW_PREMISE_CHARS} allowed per request`,
    );
  });

  it('refuses a state over MAX_STATE_CHARS and a new premise name over MAX_NAME_CHARS, naming the limit', async () => {
    const big = await api().handle('POST', '/retrieve', JSON.stringify({ state: '⊢ ' + 'a'.repeat(MAX_STATE_CHARS) }));
    expect(big).toEqual({ status: 400, body: { error: `state has ${MAX_STATE_CHARS + 2} characters, more than the ${MAX_STATE_CHARS} allowed` } });
    const at = await api().handle('POST', '/retrieve', JSON.stringify({ state: '⊢ ' + 'a'.repeat(MAX_STATE_CHARS - 2) }));
    expect(at.status).toBe(200);
    const name = 'N.'.repeat(MAX_NAME_CHARS);
    const r = await retrieve(api(), { new_premises: [{ name: 'Ok', decl: decl('Ok', 50) }, { name, decl: decl('N', 50) }] });
    expect(r).toEqual({ status: 400, body: { error: `new_premises[1] has a name of ${name.length} characters, more than the ${MAX_NAME_CHARS} allowed` } });
  });

  it('answers a small request while a large one (within the bounds) is still reading its new premises', async () => {
    const a = api();
    const premises = Array.from({ length: 2048 }, (_, i) => ({ name: `Big.p${i}`, decl: decl(`Big.p${i}`, 2000) }));
    const done: string[] = [];
    const big = retrieve(a, { new_premises: premises }).then((r) => (done.push('big'), r));
    const small = retrieve(a, {}).then((r) => (done.push('small'), r));
    const [b, s] = await Promise.all([big, small]);
    expect(b).toEqual({ status: 200, body: [{ name: 'Big.p0', score: 1 }] });
    expect(s).toEqual({ status: 200, body: [] });
    // before: the big request read all 4 M characters in one piece, and was answered first
    expect(done).toEqual(['small', 'big']);
  });
});

describe('/retrieve bounds on local_premises', () => {
  /** An engine of `n` indexed premises that answers at once with the first allowed one. */
  const big = (n: number) => {
    const names = Array.from({ length: n }, (_, i) => `P.p${i}`);
    return {
      indexedNames: () => names,
      indexedModules: () => ['Init'],
      search: async (_q: string, opts: { only?: { has(n: string): boolean } }) => names.filter((n) => !opts.only || opts.only.has(n)).slice(0, 1).map((name) => ({ name, score: 1 })),
    } as unknown as PremiseSearch;
  };

  it('refuses more local_premises than 4 times the index has premises, with a 400 saying so', async () => {
    const a = new LeanHammerApi(big(20_000), { maxNewPremises: 4 });
    const r = await retrieve(a, { local_premises: new Array(80_001).fill(3) });
    expect(r).toEqual({ status: 400, body: { error: "local_premises has 80001 entries, more than the 80000 allowed (4 times the index's 20000 premises, /indexed-premises)" } });
    // names of constants the index does not have (an environment's) are ignored, as LeanHammer's server ignores them (issue 35)
    const names = Array.from({ length: 80_000 }, (_, i): string | number => (i ? `Env.c${i}` : 3));
    expect(await retrieve(a, { local_premises: names })).toEqual({ status: 200, body: [{ name: 'P.p3', score: 1 }] });
  });

  it('answers a small request while a large local_premises list is still being turned into names', async () => {
    const n = 200_000;
    const a = new LeanHammerApi(big(n), { maxNewPremises: 4 });
    const done: string[] = [];
    const all = Array.from({ length: n }, (_, i) => n - 1 - i);
    const large = retrieve(a, { local_premises: all }).then((r) => (done.push('large'), r));
    const small = retrieve(a, {}).then((r) => (done.push('small'), r));
    const [l, s] = await Promise.all([large, small]);
    expect(l).toEqual({ status: 200, body: [{ name: 'P.p0', score: 1 }] });
    expect(s).toEqual({ status: 200, body: [{ name: 'P.p0', score: 1 }] });
    // before: the set of 200,000 names was built in one piece, and the large request answered first
    expect(done).toEqual(['small', 'large']);
  });
});
