/**
 * Optional LLM help against a fake OpenAI-compatible endpoint: the client
 * (URL forms, Bearer key from the environment, retries, deadline), query
 * augmentation fused with the offline search (success, timeout, garbage,
 * refusal and HTTP 500 fall back), the HTTP API and the search command with
 * the `llm` settings, and index-time informal statements (cached, resumable).
 */
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexes/src/build.js';
import { Engine } from '../../server/src/engine/engine.js';
import { openEngine } from '../../server/src/engine/open.js';
import { LeanHammerApi } from '../../server/src/http/leanhammer.js';
import { parseAugmentation } from '../../server/src/llm/augment.js';
import { InformalCache } from '../../server/src/llm/cache.js';
import { endpointUrl, LlmClient, MAX_REPLY_BYTES } from '../../server/src/llm/client.js';
import { informalizeHook } from '../../server/src/llm/index-hook.js';
import { fuseRankings, searchWithLlm } from '../../server/src/llm/search.js';
import { applyConfig, defaultConfig } from '../../server/src/lsp/config.js';
import { searchCommand } from '../../server/src/lsp/features/commands.js';
import { premiseCompletions } from '../../server/src/lsp/features/completion.js';
import { DocumentStore } from '../../server/src/lsp/documents.js';
import { Logger } from '../../server/src/lsp/log.js';
import { fakeLlm, type FakeLlm } from '../doubles/fake-llm.js';
import { lakeFixture, WS_THEOREM, DEP_THEOREM } from './lake-project.js';
import { RECORDS, segmentOf } from './engine-helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'premise-llm-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const engine = () => new Engine([segmentOf(RECORDS)]);
/** The query the offline (BM25) search gets wrong and the rewrites that fix it. */
const QUERY = 'swapping the factors leaves the product unchanged';
const REWRITE = JSON.stringify({ formal: '∀ a b : α, a * b = b * a', informal: 'commutativity of the product of two elements' });

let fake: FakeLlm;
let notes: string[];
const log = (l: string) => notes.push(l);
beforeEach(async () => {
  notes = [];
  fake = await fakeLlm(() => REWRITE);
});
afterEach(() => fake.close());

describe('LLM client', () => {
  it('accepts a base URL, a /v1 URL or the full chat-completions URL', () => {
    expect(endpointUrl('http://localhost:8080')).toBe('http://localhost:8080/v1/chat/completions');
    expect(endpointUrl('http://localhost:11434/v1/')).toBe('http://localhost:11434/v1/chat/completions');
    expect(endpointUrl('https://api.example.com/openai/v1/chat/completions')).toBe('https://api.example.com/openai/v1/chat/completions');
    expect(() => endpointUrl('ftp://x')).toThrow(/http/);
    expect(() => endpointUrl('not a url')).toThrow(/not a URL/);
  });

  it('sends the API key from the environment as a Bearer token, and the model', async () => {
    await new LlmClient({ url: fake.url, model: 'qwen2.5:7b' }, { PREMISE_LSP_LLM_KEY: 'sk-test-123' }).chat([{ role: 'user', content: 'hi' }]);
    await new LlmClient({ url: fake.url }, {}).chat([{ role: 'user', content: 'hi' }]);
    expect(fake.requests[0]!.path).toBe('/v1/chat/completions');
    expect(fake.requests[0]!.headers.authorization).toBe('Bearer sk-test-123');
    expect(fake.requests[0]!.body.model).toBe('qwen2.5:7b');
    expect(fake.requests[1]!.headers.authorization).toBeUndefined();
  });

  it('retries HTTP 500 a bounded number of times, then fails', async () => {
    fake.behaviour = () => ({ status: 500, body: '{"error":"boom"}' });
    await expect(new LlmClient({ url: fake.url, retries: 2 }).chat([{ role: 'user', content: 'x' }])).rejects.toMatchObject({ kind: 'http' });
    expect(fake.requests).toHaveLength(3);
  });

  it('a rate limit slower than the timeout: waiting for a turn does not count against the deadline', async () => {
    fake.behaviour = () => 'ok';
    // 2 starts a second, 4 calls at once: the last waits 1.5 s for its turn, over the 1 s timeout
    const client = new LlmClient({ url: fake.url, timeoutMs: 1000, ratePerSecond: 2, retries: 0 });
    const answers = await Promise.allSettled(Array.from({ length: 4 }, () => client.chat([{ role: 'user', content: 'x' }])));
    // before: the calls that waited longest failed as 'no answer within 1000 ms', blaming the endpoint
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect(fake.requests).toHaveLength(4);
  });

  it('does not retry a client error', async () => {
    fake.behaviour = () => ({ status: 401, body: '{"error":"bad key"}' });
    await expect(new LlmClient({ url: fake.url, retries: 2 }).chat([{ role: 'user', content: 'x' }])).rejects.toMatchObject({ kind: 'http' });
    expect(fake.requests).toHaveLength(1);
  });

  it('an error body or refusal with terminal escapes reaches the log without control characters', async () => {
    fake.behaviour = () => ({ status: 400, body: 'bad\u001b]0;pwned\u0007 request\u001b[2J' });
    await expect(new LlmClient({ url: fake.url }).chat([{ role: 'user', content: 'x' }])).rejects.toThrow(/^HTTP 400: bad ]0;pwned request \[2J$/);
    fake.behaviour = () => ({ refusal: 'no\u001b[31m way' });
    await expect(new LlmClient({ url: fake.url }).chat([{ role: 'user', content: 'x' }])).rejects.toThrow(/^refused: no \[31m way$/);
  });

  it('stops reading a reply over the size limit (an endless stream), not at the deadline', async () => {
    fake.behaviour = () => 'flood';
    await expect(new LlmClient({ url: fake.url, timeoutMs: 60_000 }).chat([{ role: 'user', content: 'x' }])).rejects.toMatchObject({
      kind: 'malformed',
      message: `the reply is over ${MAX_REPLY_BYTES} bytes`,
    });
    expect(fake.requests).toHaveLength(1);
  }, 60_000);

  it('a declared Content-Length over the limit is refused before reading', async () => {
    const body = ' '.repeat(MAX_REPLY_BYTES + 1);
    fake.behaviour = () => ({ status: 200, body });
    await expect(new LlmClient({ url: fake.url }).chat([{ role: 'user', content: 'x' }])).rejects.toThrow(/over \d+ bytes/);
  });

  it('drops <think> blocks in linear time (many unclosed ones do not block the event loop)', async () => {
    fake.behaviour = () => '<think>a</think>x<think>b</think>y';
    expect(await new LlmClient({ url: fake.url }).chat([{ role: 'user', content: 'x' }])).toBe('xy');
    const hostile = '<think>'.repeat(150_000);
    fake.behaviour = () => hostile + 'x';
    await expect(new LlmClient({ url: fake.url }).chat([{ role: 'user', content: 'x' }])).rejects.toThrow(/no message content/);
  }, 20_000);

  it('a thought cut off by max_tokens is no answer (it was cached as the informal statement); a template-opened thought is dropped', async () => {
    fake.behaviour = () => '<think>Okay, the user wants me to explain this declaration. First';
    await expect(new LlmClient({ url: fake.url }).chat([{ role: 'user', content: 'x' }])).rejects.toMatchObject({ kind: 'malformed' });
    fake.behaviour = () => 'Okay, let me think.</think>\nThe product commutes.';
    expect(await new LlmClient({ url: fake.url }).chat([{ role: 'user', content: 'x' }])).toBe('\nThe product commutes.');
  });

  it('honours Retry-After: waits as asked within the deadline, gives up at once past it', async () => {
    let first: number | undefined;
    fake.behaviour = () => {
      first ??= Date.now();
      return Date.now() - first < 1000 ? { status: 429, body: 'slow down', headers: { 'retry-after': '1' } } : 'ok';
    };
    await expect(new LlmClient({ url: fake.url, retries: 1 }).chat([{ role: 'user', content: 'x' }])).resolves.toBe('ok');
    expect(fake.requests).toHaveLength(2);
    fake.requests = [];
    fake.behaviour = () => ({ status: 429, body: 'slow down', headers: { 'retry-after': '3600' } });
    await expect(new LlmClient({ url: fake.url, retries: 3 }).chat([{ role: 'user', content: 'x' }])).rejects.toThrow(/HTTP 429.*Retry-After 3600 s is past the 10000 ms deadline/);
    expect(fake.requests).toHaveLength(1);
  }, 20_000);
});

describe('query augmentation', () => {
  it('reads the JSON object out of fences and prose, and rejects garbage', () => {
    expect(parseAugmentation('Sure!\n```json\n{"formal": "a * b = b * a", "informal": "commutativity {of} multiplication"}\n```')).toEqual({
      formal: 'a * b = b * a',
      informal: 'commutativity {of} multiplication',
    });
    expect(parseAugmentation('{"lean": "x = x"}')).toEqual({ formal: 'x = x', informal: undefined });
    expect(parseAugmentation('the product commutes')).toBeUndefined();
    expect(parseAugmentation('{"formal": 3}')).toBeUndefined();
    expect(parseAugmentation('{"formal": "a = b", ')).toBeUndefined();
  });

  it('fuses by reciprocal rank: agreement wins', () => {
    const hit = (name: string, rank: number) => ({ ...RECORDS[0]!, uses: 0, name, rank, score: 0, parts: {} });
    const fused = fuseRankings([
      { hits: [hit('a', 1), hit('b', 2)], weight: 1 },
      { hits: [hit('b', 1), hit('c', 2)], weight: 1 },
    ], 3);
    expect(fused.map((h) => h.name)).toEqual(['b', 'a', 'c']);
    expect(fused.map((h) => h.rank)).toEqual([1, 2, 3]);
  });

  it('success: the rewrites bring the right premise to the top', async () => {
    const offline = await engine().search(QUERY, { k: 3 });
    expect(offline[0]?.name).not.toBe('mul_comm');
    const r = await searchWithLlm(engine(), new LlmClient({ url: fake.url }), QUERY, { k: 3 }, log);
    expect(r.hits[0]!.name).toBe('mul_comm');
    expect(r.augmentation?.formal).toContain('a * b');
    expect(fake.requests[0]!.body.messages!.at(-1)!.content).toBe(QUERY);
    expect(notes).toEqual([]);
  });

  it('skips a reasoning model\'s <think> block before the answer', async () => {
    fake.behaviour = () => `<think>maybe {"formal": "a + b = b + a"}?</think>\n${REWRITE}`;
    const r = await searchWithLlm(engine(), new LlmClient({ url: fake.url }), QUERY, { k: 3 }, log);
    expect(r.augmentation?.formal).toBe('∀ a b : α, a * b = b * a');
    expect(r.hits[0]!.name).toBe('mul_comm');
  });

  const fallsBack = async (client: LlmClient, note: RegExp) => {
    const r = await searchWithLlm(engine(), client, QUERY, { k: 3 }, log);
    expect(r.augmentation).toBeUndefined();
    expect(r.hits).toEqual(await engine().search(QUERY, { k: 3 }));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(note);
  };

  it('timeout: falls back to the offline search after the deadline', async () => {
    fake.behaviour = () => 'hang';
    await fallsBack(new LlmClient({ url: fake.url, timeoutMs: 200, retries: 3 }), /within 200 ms/);
  }, 5000);

  it('garbage: prose, a non-JSON body or a reply without choices fall back', async () => {
    fake.behaviour = () => 'I think the product commutes.';
    await fallsBack(new LlmClient({ url: fake.url }), /no \{formal, informal\}/);
    notes = [];
    fake.behaviour = () => ({ status: 200, body: '<html>oops' });
    await fallsBack(new LlmClient({ url: fake.url }), /not JSON/);
    notes = [];
    fake.behaviour = () => ({ status: 200, body: '{"choices": []}' });
    await fallsBack(new LlmClient({ url: fake.url }), /no choices/);
  });

  it('refusal and HTTP 500 fall back', async () => {
    fake.behaviour = () => ({ refusal: 'I cannot help with that.' });
    await fallsBack(new LlmClient({ url: fake.url }), /refused/);
    notes = [];
    fake.behaviour = () => ({ status: 500, body: 'internal error' });
    await fallsBack(new LlmClient({ url: fake.url, retries: 1 }), /HTTP 500/);
  });

  it('the HTTP API fuses the rewrites when started with an LLM, unless the request says llm: false', async () => {
    const api = new LeanHammerApi(engine(), { maxNewPremises: 10, llm: new LlmClient({ url: fake.url }), log });
    const ask = async (extra: object) => (await api.handle('POST', '/retrieve', JSON.stringify({ state: QUERY, k: 3, ...extra }))).body as { name: string }[];
    expect((await ask({}))[0]!.name).toBe('mul_comm');
    expect(fake.requests).toHaveLength(1);
    expect((await ask({ llm: false }))[0]?.name).not.toBe('mul_comm');
    expect(fake.requests).toHaveLength(1);
    expect((await api.handle('POST', '/retrieve', JSON.stringify({ state: QUERY, llm: 'yes' }))).status).toBe(400);
  });

  it('the search command uses the llm settings, without them it never asks; completion never asks', async () => {
    const e = engine();
    let cfg = applyConfig(defaultConfig(), { mode: 'bm25' }).config;
    const ctx = {
      docs: new DocumentStore(),
      engines: { get: async () => e, now: () => e, error: undefined },
      goals: { goalAt: async () => undefined },
      config: () => cfg,
      flavor: () => 'generic',
      log: new Logger(log, 'debug'),
      live: { around: () => ({ after: [], before: [] }), documentOf: () => undefined },
    } as unknown as Parameters<typeof searchCommand>[0];
    const off = await searchCommand(ctx, [{ query: QUERY, k: 3 }]);
    expect(fake.requests).toHaveLength(0);
    expect(off.results[0]?.name).not.toBe('mul_comm');
    cfg = applyConfig(cfg, { llm: { url: fake.url, model: 'm', timeoutMs: 2000 } }).config;
    const on = await searchCommand(ctx, [{ query: QUERY, k: 3 }]);
    expect(fake.requests).toHaveLength(1);
    expect(on.results[0]!.name).toBe('mul_comm');
    expect((on as { llm?: unknown }).llm).toBeDefined();
    const text = 'theorem t (a b : α) : a * b = b * a := by\n  exact mul_co';
    ctx.docs.open({ textDocument: { uri: 'file:///t.lean', languageId: 'lean4', version: 1, text } });
    const c = await premiseCompletions(ctx, { textDocument: { uri: 'file:///t.lean' }, position: { line: 1, character: '  exact mul_co'.length } });
    expect(c.items.map((i) => i.label)).toContain('mul_comm');
    expect(fake.requests).toHaveLength(1);
  });
});

describe('llm settings', () => {
  it('validates url, model and timeout, keeping the previous value on error', () => {
    const r = applyConfig(defaultConfig(), { llm: { url: 'ftp://x', timeoutMs: 5 } });
    expect(r.errors).toHaveLength(2);
    expect(r.config.llm).toEqual({ timeoutMs: 8000 });
    const ok = applyConfig(defaultConfig(), { 'llm.url': 'http://localhost:11434', llm: { model: 'llama3.1:8b', timeoutMs: 3000 } });
    expect(ok.errors).toEqual([]);
    expect(ok.config.llm).toEqual({ url: 'http://localhost:11434', model: 'llama3.1:8b', timeoutMs: 3000 });
    expect(applyConfig(ok.config, { llm: { url: '' } }).config.llm.url).toBeUndefined();
  });
});

describe('index-time informal statements', () => {
  const answer = (name: string) => `Zorblattic restatement of ${name}.`;
  const nameIn = (req: { body: { messages?: { content: string }[] } }) => /theorem (\S+)/.exec(req.body.messages!.at(-1)!.content)?.[1] ?? '?';

  it('informalizes only the sources\' own declarations, caches them, and a second run asks nothing', async () => {
    fake.behaviour = (req) => answer(nameIn(req));
    const lake = lakeFixture();
    const cacheDir = join(tmp, 'cache-own');
    const build = async (out: string) => {
      const client = new LlmClient({ url: fake.url, ratePerSecond: 1000 });
      await buildIndex({ sources: [lake.root], out, enrich: informalizeHook(client, { cacheDir, log }) });
      return client;
    };
    const first = await build(join(tmp, 'own1'));
    expect(first.requests).toBe(1);
    expect(fake.requests.map(nameIn)).toEqual(['quux_wibble']);
    const second = await build(join(tmp, 'own2'));
    expect(second.requests).toBe(0);
    expect(fake.requests).toHaveLength(1);
    expect(notes[1]).toMatch(/1 of 1 declarations, 1 from the cache/);
    const e = await openEngine(join(tmp, 'own2'), { sparseOnly: true, defaultReranker: false });
    expect(e.lookup(WS_THEOREM)!.informal).toBe(answer('quux_wibble'));
    expect(e.lookup(DEP_THEOREM)!.informal).toBeUndefined();
    // the informal statement is part of the premise's English side
    const hits = await e.search('zorblattic restatement', { k: 1, mode: 'hybrid' });
    expect(hits[0]!.name).toBe(WS_THEOREM);
  });

  it('resumes an interrupted run: cached answers are reused, a cut-off line is skipped', async () => {
    const sample = resolve(__dirname, '../fixtures/sample/lean');
    const cacheDir = join(tmp, 'cache-resume');
    fake.behaviour = (req) => answer(nameIn(req));
    const client = new LlmClient({ url: fake.url, ratePerSecond: 1000 });
    await buildIndex({ sources: [sample], out: join(tmp, 'r1'), enrich: informalizeHook(client, { cacheDir, log, max: 3 }) });
    expect(client.requests).toBe(3);
    appendFileSync(join(cacheDir, 'informal.jsonl'), '{"key": "cut-o'); // killed mid-write
    expect(new InformalCache(cacheDir).size).toBe(3);
    const again = new LlmClient({ url: fake.url, ratePerSecond: 1000 });
    await buildIndex({ sources: [sample], out: join(tmp, 'r2'), enrich: informalizeHook(again, { cacheDir, log, max: 5 }) });
    expect(again.requests).toBe(2);
    expect(new InformalCache(cacheDir).size).toBe(5);
    expect(readFileSync(join(cacheDir, 'informal.jsonl'), 'utf8').split('\n').filter((l) => l.startsWith('{"key"')).length).toBeGreaterThanOrEqual(5);
  });

  it('a cached answer from another endpoint is not reused (both serve their one model as "default")', async () => {
    const sample = resolve(__dirname, '../fixtures/sample/lean');
    const cacheDir = join(tmp, 'cache-endpoints');
    fake.behaviour = (req) => `Endpoint one on ${nameIn(req)}.`;
    const other = await fakeLlm((req) => `Endpoint two on ${nameIn(req)}.`);
    try {
      await buildIndex({ sources: [sample], out: join(tmp, 'e1'), enrich: informalizeHook(new LlmClient({ url: fake.url, ratePerSecond: 1000 }), { cacheDir, log, max: 2 }) });
      const second = new LlmClient({ url: other.url, ratePerSecond: 1000 });
      await buildIndex({ sources: [sample], out: join(tmp, 'e2'), enrich: informalizeHook(second, { cacheDir, log, max: 2 }) });
      expect(second.requests).toBe(2);
      const e = await openEngine(join(tmp, 'e2'), { sparseOnly: true, defaultReranker: false });
      const informal = e.indexedNames().flatMap((n) => e.lookup(n)?.informal ?? []);
      expect(informal).toHaveLength(2);
      expect(informal.every((t) => t.startsWith('Endpoint two'))).toBe(true);
    } finally {
      await other.close();
    }
  });

  it('an unwritable or unreadable cache costs no answer and fails no build: each answer is used, and the summary says the cache is not usable', async () => {
    const sample = resolve(__dirname, '../fixtures/sample/lean');
    const notADir = join(tmp, 'cache-is-a-file');
    writeFileSync(notADir, '');
    fake.behaviour = (req) => answer(nameIn(req));
    const client = new LlmClient({ url: fake.url, ratePerSecond: 1000 });
    await buildIndex({ sources: [sample], out: join(tmp, 'nocache'), enrich: informalizeHook(client, { cacheDir: join(notADir, 'informal'), log, max: 3 }) });
    expect(client.requests).toBe(3);
    expect(notes.at(-1)).toMatch(/3 of 3 declarations, 0 from the cache .*, 3 requests; the cache is not usable \(ENOTDIR/);
    expect(notes.at(-1)).not.toMatch(/failed/);
    // a directory where the cache file should be: the build goes on without the cache (it failed with a bare EISDIR)
    const dirAsFile = join(tmp, 'cache-dir-as-file');
    mkdirSync(join(dirAsFile, 'informal.jsonl'), { recursive: true });
    const again = new LlmClient({ url: fake.url, ratePerSecond: 1000 });
    await buildIndex({ sources: [sample], out: join(tmp, 'nocache2'), enrich: informalizeHook(again, { cacheDir: dirAsFile, log, max: 2 }) });
    expect(notes.at(-1)).toMatch(/2 of 2 declarations, .*; the cache is not usable \(.*informal\.jsonl: EISDIR/);
  });

  it('an endpoint that keeps failing is given up on, and the index is still built', async () => {
    fake.behaviour = () => ({ status: 503, body: 'down' });
    const sample = resolve(__dirname, '../fixtures/sample');
    const client = new LlmClient({ url: fake.url, retries: 0, ratePerSecond: 1000 });
    const progress: { done: number; total: number }[] = [];
    const onProgress = (p: { phase: string; done: number; total: number }) => void (p.phase === 'informal' && progress.push(p));
    const s = await buildIndex({ sources: [sample], out: join(tmp, 'down'), enrich: informalizeHook(client, { cacheDir: join(tmp, 'cache-down'), log, onProgress }) });
    expect(s.declarations).toBeGreaterThan(10);
    expect(client.requests).toBeLessThan(s.declarations);
    expect(notes.at(-1)).toMatch(/stopped asking/);
    // progress ends at the total (it stopped where the asking did, e.g. 13 of 34)
    expect(progress.at(-1)).toEqual({ phase: 'informal', done: s.declarations, total: s.declarations });
  });
});
