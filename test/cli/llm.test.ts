/**
 * `index --llm` and `query --llm` of the built CLI against a fake
 * OpenAI-compatible endpoint (in this process, so the CLI runs asynchronously):
 * the key travels from the environment, a second index run asks nothing, and
 * usage errors exit 2.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeLlm, type FakeLlm } from '../doubles/fake-llm.js';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist', 'cli.js');
const SAMPLE = join(ROOT, 'test', 'fixtures', 'sample');
const tmp = mkdtempSync(join(tmpdir(), 'premise-cli-llm-'));
const ENV = { ...process.env, PREMISE_LSP_LLM_KEY: 'sk-cli-test', PREMISE_LSP_CACHE: join(tmp, 'cache') };

function run(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((done) => {
    const p = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: ENV });
    let out = '';
    let err = '';
    p.stdout.on('data', (c) => (out += c));
    p.stderr.on('data', (c) => (err += c));
    p.on('close', (code) => done({ code, out, err }));
  });
}

let fake: FakeLlm;
beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npx tsup` (npm test does) first');
  fake = await fakeLlm((req) => {
    const user = req.body.messages?.at(-1)?.content ?? '';
    if (/JSON object/.test(req.body.messages?.[0]?.content ?? '')) return JSON.stringify({ formal: '(l₁ ++ l₂).length = l₁.length + l₂.length', informal: 'length of appended lists' });
    return `Frobnitzal informal statement of ${/(?:theorem|lemma|def) (\S+)/.exec(user)?.[1] ?? 'something'}.`;
  });
});
afterAll(async () => {
  await fake.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('premise-lsp index/query --llm', () => {
  const index = join(tmp, 'idx');

  it('index --llm writes informal statements with the key from the environment; a second run asks nothing', async () => {
    const r = await run(['index', join(SAMPLE, 'lean'), '--out', index, '--no-dense', '--llm', fake.url, '--llm-model', 'fake-7b', '--llm-rate', '100/s']);
    expect(r.code).toBe(0);
    const n = fake.requests.length;
    expect(n).toBeGreaterThan(3);
    expect(fake.requests.every((q) => q.headers.authorization === 'Bearer sk-cli-test' && q.body.model === 'fake-7b')).toBe(true);
    expect(r.err).toMatch(new RegExp(`informal statements \\(LLM fake-7b\\): ${n} of ${n} declarations, 0 from the cache`));
    const again = await run(['index', join(SAMPLE, 'lean'), '--out', join(tmp, 'idx2'), '--no-dense', '--llm', fake.url, '--llm-model', 'fake-7b']);
    expect(again.code).toBe(0);
    expect(fake.requests).toHaveLength(n);
    expect(again.err).toMatch(/from the cache .*, 0 requests/);
  }, 60_000);

  it('query --llm fuses the rewrites and shows them on stderr', async () => {
    const before = fake.requests.length;
    const r = await run(['query', '--index', index, '--k', '3', '--json', '--llm', fake.url, 'how long is a concatenation']);
    expect(r.code).toBe(0);
    expect(fake.requests.length).toBe(before + 1);
    expect(r.err).toMatch(/LLM rewrites: .*length of appended lists/);
    expect(JSON.parse(r.out)[0].name).toBe("Sample.Lists.length_append'");
  }, 60_000);

  it('query --llm falls back offline when the endpoint is unreachable', async () => {
    const r = await run(['query', '--index', index, '--k', '1', '--json', '--llm', 'http://127.0.0.1:1', '--llm-timeout', '2000', 'triangle inequality']);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/LLM help unavailable/);
    expect(JSON.parse(r.out)).toHaveLength(1);
  }, 60_000);

  it('--llm-* without --llm, or a bad URL, is a usage error', async () => {
    expect((await run(['query', '--index', index, '--llm-model', 'x', 'q'])).code).toBe(2);
    expect((await run(['query', '--index', index, '--llm', 'ftp://x', 'q'])).code).toBe(2);
    expect((await run(['index', SAMPLE, '--out', join(tmp, 'x'), '--llm-max', '3'])).code).toBe(2);
    expect((await run(['index', SAMPLE, '--out', join(tmp, 'x'), '--llm', fake.url, '--llm-rate', 'fast'])).code).toBe(2);
  }, 60_000);

  it('an --llm-timeout too long for a timer, or a URL with a password, is a usage error that does not echo the password', async () => {
    const long = await run(['query', '--index', index, '--llm', fake.url, '--llm-timeout', '3000000000', 'q']);
    expect(long.code).toBe(2);
    expect(long.err).toMatch(/--llm-timeout .*at most 3600000/);
    expect(long.err).not.toMatch(/TimeoutOverflowWarning/);
    const cred = await run(['query', '--index', index, '--llm', fake.url.replace('//', '//me:hunter2@'), 'q']);
    expect(cred.code).toBe(2);
    expect(cred.err).toMatch(/PREMISE_LSP_LLM_KEY/);
    expect(cred.err).not.toMatch(/hunter2/);
  }, 60_000);
});
