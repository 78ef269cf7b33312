/**
 * `premise-lsp.search` with scope filters (`in`, `ns`, `kinds`, `deprecated`) and
 * patterns (`pattern`, or a query written as one): the result keeps its shape.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexes/src/build.js';
import { Editor, FAKE_LEAN, requireBuild, ROOT, SERVE } from './harness.js';

const SAMPLE = join(ROOT, 'test', 'fixtures', 'sample');
const tmp = mkdtempSync(join(tmpdir(), 'premise-lsp-scope-'));
const index = join(tmp, 'sample-idx');

const editors: Editor[] = [];
afterEach(() => {
  for (const e of editors.splice(0)) e.kill();
});

async function start() {
  requireBuild();
  const e = new Editor(process.execPath, [SERVE, 'serve', '--stdio', '--index', index, '--restart-delay-ms', '50', '--', process.execPath, FAKE_LEAN]);
  editors.push(e);
  await e.initialize({ 'premise-lsp': { liveIndex: false } });
  return e;
}

const search = (e: Editor, args: Record<string, unknown>) => e.request('workspace/executeCommand', { command: 'premise-lsp.search', arguments: [args] });

describe('premise-lsp.search: scope filters and patterns', () => {
  beforeAll(async () => {
    await buildIndex({ sources: [SAMPLE], out: index });
  }, 120_000);

  it('restricts the results to modules, namespaces and kinds; results keep their shape', async () => {
    const e = await start();
    const lists = await search(e, { query: 'length of an append', in: 'Sample.Lists', kinds: ['theorem'], k: 10 });
    expect(lists.error).toBeUndefined();
    const hits = lists.result.results as { name: string; module: string; kind: string }[];
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => h.module === 'Sample.Lists' && h.kind === 'theorem')).toBe(true);
    expect(Object.keys(hits[0]!)).toEqual(expect.arrayContaining(['name', 'rank', 'score', 'kind', 'statement', 'module', 'file', 'range', 'location']));
    const nat = await search(e, { query: 'a + b = b + a', ns: ['Nat'], k: 10 });
    expect((nat.result.results as { name: string }[]).every((h) => h.name.startsWith('Nat.'))).toBe(true);
    expect(await e.shutdown()).toBe(0);
  });

  it('reads a pattern, recognised or asked for, and says what is wrong with a bad one or a bad filter', async () => {
    const e = await start();
    const mul = await search(e, { query: '?a * ?b = ?b * ?a', k: 3 });
    expect((mul.result.results as { name: string }[]).map((h) => h.name)).toContain('Sample.mul_comm');
    const two = await search(e, { query: '"two_mul"', pattern: true, k: 1 });
    expect(two.result.results.map((h: { name: string }) => h.name)).toEqual(["Nat.two_mul'"]);
    const bad = await search(e, { query: '(_ * _', pattern: true });
    expect(bad.error).toMatchObject({ code: -32602, message: expect.stringMatching(/unbalanced/) });
    const badScope = await search(e, { query: 'x', in: 5 });
    expect(badScope.error).toMatchObject({ code: -32602, message: expect.stringMatching(/in must be a name or a list/) });
    expect(await e.shutdown()).toBe(0);
  });
});
