/** Pattern searches over /retrieve: the partial flag, and the lane of their own (../../server/src/http/leanhammer.ts, server.ts). */
import { describe, expect, it } from 'vitest';
import type { PremiseSearch, SearchOptions } from '../../server/src/engine/types.js';
import { LeanHammerApi, PARTIAL_HEADER } from '../../server/src/http/leanhammer.js';
import { LoogleApi } from '../../server/src/http/loogle.js';
import { LeanSearchApi } from '../../server/src/http/leansearch.js';
import { RouteTable } from '../../server/src/http/routes.js';
import { QueryError } from '../../server/src/engine/open.js';

/** An engine whose pattern searches run out of budget. */
const engine = {
  indexedNames: () => ['Nat.add_comm'],
  indexedModules: () => ['Init'],
  search: async (_q: string, opts: SearchOptions) => {
    if (opts.pattern !== false) opts.onPartial?.('the pattern search stopped after its 2000 ms budget');
    return [{ name: 'Nat.add_comm', score: 1 }];
  },
} as unknown as PremiseSearch;

const api = () => new LeanHammerApi(engine, { maxNewPremises: 16 });
const body = (o: object) => JSON.stringify(o);

describe('/retrieve pattern searches', () => {
  it('flags a partial answer in a header, the body in LeanHammer’s shape', async () => {
    const r = await api().handle('POST', '/retrieve', body({ state: '_ + _ = _ + _', pattern: true }));
    expect(r.status).toBe(200);
    expect(r.body).toEqual([{ name: 'Nat.add_comm', score: 1 }]);
    expect(r.headers?.[PARTIAL_HEADER]).toMatch(/budget/);
    const whole = await api().handle('POST', '/retrieve', body({ state: '⊢ a + b = b + a', pattern: false }));
    expect(whole.headers).toBeUndefined();
  });

  it('puts pattern searches in a lane of their own, whether flagged or recognised', () => {
    const a = api();
    expect(a.lane('POST', '/retrieve', body({ state: '⊢ _ ≤ _ → _ ≤ _' }))).toBe('pattern');
    expect(a.lane('POST', '/retrieve', body({ state: 'Real.sqrt', pattern: true }))).toBe('pattern');
    expect(a.lane('POST', '/retrieve', body({ state: '_ * _ ns:Nat' }))).toBe('pattern');
    expect(a.lane('POST', '/retrieve', body({ state: '⊢ _ ≤ _', pattern: false }))).toBe('prover');
    expect(a.lane('POST', '/retrieve', body({ state: 'a b : ℕ\n⊢ a + b = b + a' }))).toBe('prover');
    expect(a.lane('POST', '/retrieve', 'not json')).toBe('prover');
    expect(a.lane('GET', '/indexed-premises', '')).toBe('normal');
  });

  it('puts every Loogle query in the pattern lane, through the one route table', () => {
    const table = new RouteTable([api(), new LoogleApi(engine)]);
    expect(table.lane('GET', '/json?q=Real.sqrt', '')).toBe('pattern');
    expect(table.lane('POST', '/retrieve', body({ state: '⊢ _ ≤ _ → _ ≤ _' }))).toBe('pattern');
    expect(table.lane('POST', '/retrieve', body({ state: 'a b : ℕ\n⊢ a + b = b + a' }))).toBe('prover');
    expect(table.lane('GET', '/indexed-premises', '')).toBe('normal');
    expect(new RouteTable([api(), new LeanSearchApi(engine)]).lane('POST', '/search', body({ query: ['x'] }))).toBe('normal');
  });

  it('answers a query the engine refuses with 400 on every contract, never 500', async () => {
    const refuse = async () => {
      throw new QueryError('more than 100 ns: entries');
    };
    const refusing = { ...engine, search: refuse, searchBatch: refuse } as unknown as PremiseSearch;
    const table = new RouteTable([new LeanSearchApi(refusing)]);
    const r = await table.handle('POST', '/search', body({ query: ['ns:A ns:B'], num_results: 5 }));
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'more than 100 ns: entries' });
  });
});
