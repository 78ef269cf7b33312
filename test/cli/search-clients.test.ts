/**
 * The search clients' contracts on `premise-lsp http` (server/src/http/loogle.ts,
 * leansearch.ts, statesearch.ts): the built CLI over real HTTP on the sample index,
 * each answer read by a port of its client's parser (PROTOCOLS.md in the shared notes beside the checkout,
 * "Search clients a local server can stand in for"): LeanSearchClient's Loogle
 * reader throws when a hit lacks `name` or `type`, or when neither `hits` nor
 * `error` is there; lean-lsp-mcp reads `hits[:n]`, and LeanSearch's `result` lists.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSampleHttp } from './http-server.js';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist', 'cli.js');
const tmp = mkdtempSync(join(tmpdir(), 'premise-clients-'));
const index = join(tmp, 'index');
let server: ChildProcess;
let base = '';

beforeAll(async () => {
  ({ server, base } = await startSampleHttp(CLI, ROOT, index));
}, 60_000);

afterAll(() => {
  server?.kill();
  rmSync(tmp, { recursive: true, force: true });
});

interface Reply {
  status: number;
  type: string | null;
  body: unknown;
}
async function call(path: string, init?: RequestInit): Promise<Reply> {
  const r = await fetch(base + path, init);
  return { status: r.status, type: r.headers.get('content-type'), body: await r.json() };
}

// ── LeanSearchClient's `getLoogleQueryJson` (LoogleSyntax.lean), ported ──
type LoogleResult = { kind: 'success'; hits: { name: string; type: string; doc?: string }[] } | { kind: 'failure'; error: string; suggestions?: string[] };
function leanSearchClientLoogle(js: Record<string, unknown>, numResults = 6): LoogleResult {
  const hits = js.hits;
  if (hits !== undefined && hits !== null) {
    if (!Array.isArray(hits)) throw new Error(`Could not obtain array from ${JSON.stringify(js)}`);
    return {
      kind: 'success',
      hits: hits.slice(0, numResults).map((h: Record<string, unknown>) => {
        if (typeof h.name !== 'string' || typeof h.type !== 'string') throw new Error(`Could not obtain name and type from ${JSON.stringify(h)}`);
        return { name: h.name, type: h.type, ...(typeof h.doc === 'string' ? { doc: h.doc } : {}) };
      }),
    };
  }
  if (typeof js.error === 'string') {
    const s = js.suggestions;
    return { kind: 'failure', error: js.error, ...(Array.isArray(s) && s.every((x) => typeof x === 'string') ? { suggestions: s as string[] } : {}) };
  }
  throw new Error(`Could not obtain hits or error from ${JSON.stringify(js)}`);
}

// ── lean-lsp-mcp's `loogle_remote` (loogle.py) ──
function leanLspMcpLoogle(js: Record<string, unknown>, n = 8): { name: string; type: string; module: string }[] | string {
  if (!('hits' in js)) return 'No results found.';
  return (js.hits as Record<string, string>[]).slice(0, n).map((r) => ({ name: r.name ?? '', type: r.type ?? '', module: r.module ?? '' }));
}

// ── the LeanSearch readers: LeanSearchClient (names joined with `.`, items without one dropped) and lean-lsp-mcp ──
function leanSearchClientLeanSearch(js: unknown): { name: string; type?: string; doc?: string; kind?: string }[] {
  if (!Array.isArray(js) || !Array.isArray(js[0])) throw new Error(`not a list of lists: ${JSON.stringify(js)}`);
  return (js[0] as { result?: Record<string, unknown> }[]).flatMap(({ result: r }) =>
    r && Array.isArray(r.name) ? [{ name: r.name.join('.'), type: r.type as string, doc: (r.docstring as string | null) ?? undefined, kind: r.kind as string }] : [],
  );
}
function leanLspMcpLeanSearch(js: unknown, n: number) {
  const results = js as { result: Record<string, unknown> }[][];
  if (!results.length || !results[0]!.length) return [];
  return results[0]!.slice(0, n).map(({ result: r }) => ({
    name: (r.name as string[]).join('.'),
    module_name: (r.module_name as string[]).join('.'),
    kind: r.kind,
    type: r.type,
  }));
}

// ── LeanStateSearch's answer as `#statesearch` reads it: a list of {name, formal_type, module, rev} ──
function stateSearchHits(js: unknown): { name: string; formal_type: string; module: string; rev: string }[] {
  if (!Array.isArray(js)) throw new Error(`not a list: ${JSON.stringify(js)}`);
  return js.map((h: Record<string, unknown>) => {
    for (const k of ['name', 'formal_type', 'module', 'rev']) if (typeof h[k] !== 'string') throw new Error(`hit lacks ${k}: ${JSON.stringify(h)}`);
    return h as { name: string; formal_type: string; module: string; rev: string };
  });
}

const loogle = (q: string) => call(`/json?q=${encodeURIComponent(q)}`);

describe("Loogle's JSON API: GET /json?q=", () => {
  it('answers a pattern with header, count and hits of {name, type, module, doc}, as both clients read them', async () => {
    const r = await loogle('?a * ?b = ?b * ?a');
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^application\/json/);
    const body = r.body as { header: string; heartbeats: number; count: number; hits: unknown[] };
    expect(body).toMatchObject({ header: expect.stringMatching(/^Found \d+ declarations? matching \?a \* \?b = \?b \* \?a\.$/), heartbeats: 0, count: body.hits.length });
    const lsc = leanSearchClientLoogle(body as unknown as Record<string, unknown>);
    expect(lsc.kind).toBe('success');
    // the statement as Loogle prints it: the binders (the section's variables included) and the conclusion, no name
    expect(body.hits).toContainEqual({ name: 'Sample.mul_comm', type: "{M : Type} [CommMonoid' M] (a b : M) : a * b = b * a", module: 'Sample.Algebra', doc: 'Multiplication is commutative.' });
    const mcp = leanLspMcpLoogle(body as unknown as Record<string, unknown>);
    expect(mcp).toContainEqual({ name: 'Sample.mul_comm', type: "{M : Type} [CommMonoid' M] (a b : M) : a * b = b * a", module: 'Sample.Algebra' });
  });

  it('reads name fragments, drops a leading #find and collapses whitespace, as Loogle does', async () => {
    const r = (await loogle('"two_mul"')).body as { hits: { name: string; doc: string | null }[] };
    expect(r.hits.map((h) => h.name)).toEqual(["Nat.two_mul'"]);
    expect((await loogle('  #find  ?a   * ?b = ?b * ?a ')).body).toEqual((await loogle('?a * ?b = ?b * ?a')).body);
    // a hit with no docstring has doc null, and LeanSearchClient still reads it
    const noDoc = (await loogle('?a * (?b * ?c) = ?b * (?a * ?c)')).body as Record<string, unknown>;
    expect((noDoc.hits as { doc: unknown }[]).some((h) => h.doc === null)).toBe(true);
    expect(leanSearchClientLoogle(noDoc).kind).toBe('success');
  });

  it('answers {} for a missing or empty q', async () => {
    expect(await call('/json')).toMatchObject({ status: 200, body: {} });
    expect(await loogle('')).toMatchObject({ status: 200, body: {} });
    expect(await loogle('   ')).toMatchObject({ status: 200, body: {} });
  });

  it('answers {error, suggestions?} for a query that does not parse or names nothing, never a 500', async () => {
    const bad = await loogle('(_ * _');
    expect(bad).toEqual({ status: 200, type: expect.any(String), body: { error: expect.stringMatching(/unbalanced/), heartbeats: 0 } });
    expect(leanSearchClientLoogle(bad.body as Record<string, unknown>)).toEqual({ kind: 'failure', error: expect.stringMatching(/unbalanced/) });
    expect(leanLspMcpLoogle(bad.body as Record<string, unknown>)).toBe('No results found.');
    const unknown = await loogle('mul_pow_two');
    // Loogle's wording, and its suggestions: the name quoted first, then the constants it ends
    expect(unknown.body).toEqual({ error: "unknown identifier 'mul_pow_two'", heartbeats: 0, suggestions: ['"mul_pow_two"', 'Sample.mul_pow_two'] });
    expect(leanSearchClientLoogle(unknown.body as Record<string, unknown>)).toMatchObject({ kind: 'failure', suggestions: ['"mul_pow_two"', 'Sample.mul_pow_two'] });
    const huge = await loogle('?a * '.repeat(420) + '?a');
    expect(huge).toMatchObject({ status: 200, body: { error: expect.stringMatching(/more than the 2048 allowed/) } });
    // a URL past what the server reads: 431 with a JSON {error}
    expect(await loogle('?a * '.repeat(14_000))).toMatchObject({ status: 431, type: expect.stringMatching(/^application\/json/), body: { error: expect.stringMatching(/over 65536 bytes/) } });
    expect(await call('/json?q=x', { method: 'POST', body: '{}' })).toMatchObject({ status: 405, body: { error: '/json takes GET' } });
  });
});

const leanSearch = (body: unknown) => call('/search', { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });

describe('LeanSearch: POST /search', () => {
  it('answers one list per query of {result: {name, module_name, kind, type, signature, docstring, informal_name, informal_description}, distance}', async () => {
    const r = await leanSearch({ query: ['Multiplication is commutative.', 'Two times a number is the number plus itself.'], num_results: 3 });
    expect(r.status).toBe(200);
    const lists = r.body as { result: Record<string, unknown>; distance: number }[][];
    expect(lists).toHaveLength(2);
    for (const list of lists) {
      expect(list.length).toBeGreaterThan(0);
      expect(list.length).toBeLessThanOrEqual(3);
      for (const { result, distance } of list) {
        expect(Object.keys(result).sort()).toEqual(['docstring', 'informal_description', 'informal_name', 'kind', 'module_name', 'name', 'signature', 'type']);
        expect(result.name).toEqual(expect.arrayContaining([expect.any(String)]));
        expect(typeof result.type).toBe('string');
        expect(typeof distance).toBe('number');
      }
      expect(list.map((x) => x.distance)).toEqual([...list.map((x) => x.distance)].sort((a, b) => a - b));
    }
    const first = leanSearchClientLeanSearch(r.body);
    expect(first[0]).toEqual({ name: 'Sample.mul_comm', type: "{M : Type} [CommMonoid' M] (a b : M) : a * b = b * a", doc: 'Multiplication is commutative.', kind: 'theorem' });
    expect(leanSearchClientLeanSearch([lists[1]]).map((h) => h.name)).toContain("Nat.two_mul'");
    expect(lists[0]![0]!.result).toMatchObject({ module_name: ['Sample', 'Algebra'], signature: 'theorem mul_comm (a b : M) : a * b = b * a' });
  });

  it("takes num_results as a string of digits, as lean-lsp-mcp sends it", async () => {
    const asNumber = await leanSearch({ query: ['Multiplication is commutative.'], num_results: 2 });
    const asString = await leanSearch({ num_results: '2', query: ['Multiplication is commutative.'] });
    expect(asString).toEqual(asNumber);
    expect(leanLspMcpLeanSearch(asString.body, 2)[0]).toEqual({ name: 'Sample.mul_comm', module_name: 'Sample.Algebra', kind: 'theorem', type: "{M : Type} [CommMonoid' M] (a b : M) : a * b = b * a" });
  });

  it('answers num_results above 50 with 50, as LeanSearch takes more (issue 35)', async () => {
    const fifty = await leanSearch({ query: ['Multiplication is commutative.'], num_results: 50 });
    for (const n of [51, '500']) {
      const r = await leanSearch({ query: ['Multiplication is commutative.'], num_results: n });
      expect(r.status).toBe(200);
      expect(r.body).toEqual(fifty.body);
    }
  });

  it('answers a bad body with 400 {error}, never a 500', async () => {
    const cases: [unknown, RegExp][] = [
      ['{not json', /not JSON/],
      [[1, 2], /JSON object/],
      [{ num_results: 3 }, /query must be/],
      [{ query: [] }, /query must be/],
      [{ query: [''] }, /query must be/],
      [{ query: ['x'], num_results: 'abc' }, /num_results must be a positive integer/],
      [{ query: ['x'], num_results: 0 }, /num_results/],
      [{ query: ['x'], num_results: 2.5 }, /num_results/],
      [{ query: ['x'.repeat(20_001)] }, /more than the 20000 allowed/],
      [{ query: Array(17).fill('x') }, /more than the 16 allowed/],
    ];
    for (const [body, error] of cases) expect(await leanSearch(body)).toMatchObject({ status: 400, body: { error: expect.stringMatching(error) } });
    expect(await call('/search')).toMatchObject({ status: 405, body: { error: '/search takes POST' } });
  });
});

const stateSearch = (params: Record<string, string>) => call(`/api/search?${new URLSearchParams(params)}`);

describe('LeanStateSearch: GET /api/search?query=&results=&rev=', () => {
  it('answers a proof state with [{name, formal_type, module, rev}], the rev echoed', async () => {
    const r = await stateSearch({ query: 'M : Type\ninst : CommMonoid\' M\na b : M\n⊢ a * b = b * a', results: '3', rev: 'v4.19.0' });
    expect(r.status).toBe(200);
    const hits = stateSearchHits(r.body);
    expect(hits.length).toBeLessThanOrEqual(3);
    expect(hits).toContainEqual({ name: 'Sample.mul_comm', formal_type: "{M : Type} [CommMonoid' M] (a b : M) : a * b = b * a", module: 'Sample.Algebra', rev: 'v4.19.0' });
    // a state written on one line reads the same
    const oneLine = stateSearchNames(await stateSearch({ query: 'a b : M ⊢ a * b = b * a', results: '3', rev: 'v4.19.0' }));
    expect(oneLine).toContain('Sample.mul_comm');
  });

  it('answers 400 {error, schema: {description}} for a missing parameter, no ⊢, or results not a number', async () => {
    const ok = { query: 'a b : M ⊢ a * b = b * a', results: '3', rev: 'v4.19.0' };
    for (const missing of ['query', 'results', 'rev'] as const) {
      const { [missing]: _, ...rest } = ok;
      const r = await stateSearch(rest);
      expect(r).toMatchObject({ status: 400, body: { error: 'Missing required parameters', schema: { description: expect.any(String) } } });
    }
    expect(await stateSearch({ ...ok, query: 'a * b = b * a' })).toMatchObject({
      status: 400,
      body: { error: 'Invalid parameter value', schema: { description: "The 'query' parameter must be a valid Lean proof state" } },
    });
    expect(await stateSearch({ ...ok, results: 'many' })).toMatchObject({
      status: 400,
      body: { error: 'Invalid parameter value', schema: { description: "The 'results' parameter must be a valid number" } },
    });
    expect(await stateSearch({ ...ok, results: '0' })).toMatchObject({ status: 400, body: { schema: { description: expect.stringMatching(/positive number/) } } });
    // more than 100 is answered with 100, never refused (issue 35)
    const hundred = await stateSearch({ ...ok, results: '100' });
    expect(hundred.status).toBe(200);
    expect(await stateSearch({ ...ok, results: '1000' })).toEqual(hundred);
    expect(await stateSearch({ ...ok, query: '⊢ ' + 'a'.repeat(20_001) })).toMatchObject({ status: 400, body: { schema: { description: expect.stringMatching(/more than the 20000 allowed/) } } });
    expect(await call('/api/search', { method: 'POST', body: '{}' })).toMatchObject({ status: 405 });
  });
});

function stateSearchNames(r: Reply): string[] {
  return stateSearchHits(r.body).map((h) => h.name);
}

describe('one route table, one port', () => {
  it("serves LeanHammer's /retrieve beside the three, and lists every route for an unknown path", async () => {
    const r = await call('/retrieve', { method: 'POST', body: JSON.stringify({ state: '⊢ a * b = b * a', k: 2 }) });
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(2);
    expect(await call('/nope')).toEqual({
      status: 404,
      type: expect.any(String),
      body: { error: 'no route "/nope": /, /api/search, /indexed-modules, /indexed-premises, /json, /max-new-premises, /retrieve, /search, /source, /sources' },
    });
  });
});
