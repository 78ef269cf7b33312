/**
 * The search page of `premise-lsp http` (server/src/http/page.ts): the built CLI
 * over real HTTP on the sample index (with one file of hostile docstrings added).
 * The page and its headers (a CSP whose script hash is the inline script's), the
 * `/sources` route, and in headless Chromium (Debian's `chromium`; skipped, with
 * the reason printed, when it is not installed): `/?q=add_comm` runs the query on
 * load and shows `add_comm` in the results list, and markup in a docstring is shown
 * as text, never as elements.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttp } from './http-server.js';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist', 'cli.js');
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const tmp = mkdtempSync(join(tmpdir(), 'premise-page-'));
const HOSTILE_DOC = `<img src=x onerror="document.title='owned'"><b>bold</b> & "quoted"`;
let server: ChildProcess;
let base = '';

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npx tsup` first');
  const src = join(tmp, 'src');
  cpSync(join(ROOT, 'test', 'fixtures', 'sample'), src, { recursive: true });
  writeFileSync(join(src, 'lean', 'Sample', 'Hostile.lean'), `namespace Sample\n\n/-- ${HOSTILE_DOC} -/\ntheorem zzhostile_lt (a b : Nat) (h : a < b) : a < b + 1 := Nat.lt_succ_of_lt h\n\nend Sample\n`);
  const built = spawnSync(process.execPath, [CLI, 'index', src, '--out', join(tmp, 'index'), '--no-dense'], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(built.stderr);
  ({ server, base } = await startHttp(CLI, ['--index', join(tmp, 'index'), '--port', '0']));
}, 60_000);

afterAll(() => {
  server?.kill();
  rmSync(tmp, { recursive: true, force: true });
});

describe('the source page', () => {
  it("/source?name= serves the declaring file as numbered lines, escaped, under a CSP with no script", async () => {
    const r = await fetch(`${base}/source?name=${encodeURIComponent("Nat.add_comm'")}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = r.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script-src');
    const html = await r.text();
    // the declaration's range starts at its docstring
    expect(html).toContain('<span id="L40">/-- Addition of natural numbers is commutative. -/</span>');
    expect(html).toMatch(/<span id="L41">protected theorem add_comm&#39; \(n m : Nat\)/);
    expect(html).not.toContain('<script');
    // a docstring's markup is text
    const hostile = await (await fetch(`${base}/source?name=Sample.zzhostile_lt`)).text();
    expect(hostile).toContain('&#60;img src=x onerror=&#34;');
    expect(hostile).not.toContain('<img');
  });

  it('/source answers 404 with the reason for an unknown name, a missing name= and a source no longer on disk', async () => {
    for (const q of ['?name=No.such', '']) {
      const r = await fetch(`${base}/source${q}`);
      expect(r.status).toBe(404);
      expect((await r.json()).error).toMatch(/unknown name: No.such|name= is missing/);
    }
    const moved = join(tmp, 'src', 'lean', 'Sample', 'Hostile.lean');
    const keep = readFileSync(moved);
    rmSync(moved);
    try {
      const r = await fetch(`${base}/source?name=Sample.zzhostile_lt`);
      expect(r.status).toBe(404);
      expect((await r.json()).error).toMatch(/is not on this machine/);
    } finally {
      writeFileSync(moved, keep);
    }
  });
});

describe('the page', () => {
  it('is served at / (and /?q=…) as HTML under a CSP that allows its own inline script and style alone', async () => {
    for (const path of ['/', '/?q=add_comm']) {
      const r = await fetch(base + path);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      const csp = r.headers.get('content-security-policy') ?? '';
      const html = await r.text();
      const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
      const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
      const sha = (s: string) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;
      expect(csp).toContain(`script-src ${sha(script)}`);
      expect(csp).toContain(`style-src ${sha(style)}`);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("connect-src 'self'");
      // data never becomes markup
      expect(html).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
    }
  });

  it('/sources says where each known name is declared, and leaves out the others', async () => {
    const r = await fetch(`${base}/sources?name=${encodeURIComponent("Nat.add_comm'")}&name=No.such&name=__proto__`);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ "Nat.add_comm'": { module: 'Sample.Algebra', file: 'Sample/Algebra.lean', line: 40 } });
    const many = await fetch(`${base}/sources?${Array.from({ length: 201 }, (_, i) => `name=n${i}`).join('&')}`);
    expect(many.status).toBe(400);
    expect((await many.json()).error).toMatch(/at most 200 names/);
  });
});

/** The page's DOM once its script has run, as headless Chromium dumps it. */
function dumpDom(url: string): string {
  const profile = mkdtempSync(join(tmp, 'chromium-'));
  const r = spawnSync(
    CHROMIUM!,
    ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--user-data-dir=${profile}`, '--virtual-time-budget=15000', '--dump-dom', url],
    { encoding: 'utf8', timeout: 90_000 },
  );
  if (r.status !== 0) throw new Error(`chromium exited ${r.status}: ${r.stderr.slice(-2000)}`);
  return r.stdout;
}
const resultsOf = (dom: string) => /<ol id="results">([\s\S]*?)<\/ol>/.exec(dom)?.[1] ?? '';

describe('in headless Chromium', () => {
  if (!CHROMIUM) {
    console.log('search-page.test.ts: skipping the browser tests: no chromium at /usr/bin/chromium (apt-get install chromium)');
    it.skip('needs chromium', () => {});
    return;
  }

  it('/?q=add_comm runs the query on load and shows add_comm in the results, with module, source and a copy button', () => {
    const dom = dumpDom(`${base}/?q=add_comm`);
    const results = resultsOf(dom);
    expect(results).toContain('add_comm');
    expect(results).toContain('<span class="name">Nat.add_comm\'</span> (n m : Nat) : n + m = m + n');
    expect(results).toContain('<span class="module">Sample.Algebra</span>');
    expect(results).toContain(`<a class="source" href="source?name=${encodeURIComponent("Nat.add_comm'")}#L40">Sample/Algebra.lean:40</a>`);
    expect(results).toMatch(/<button class="copy"[^>]*>copy<\/button>/);
  }, 120_000);

  it('a Loogle pattern is answered by Loogle\'s route, with its header', () => {
    const dom = dumpDom(`${base}/?q=${encodeURIComponent('_ * _ = _ * _')}`);
    expect(dom).toMatch(/<div id="status"[^>]*>Found \d+ declarations? matching/);
    expect(resultsOf(dom)).toContain('Sample.mul_comm');
  }, 120_000);

  it('shows markup in a docstring as text', () => {
    const dom = dumpDom(`${base}/?q=zzhostile_lt`);
    const results = resultsOf(dom);
    expect(results).toContain('Sample.zzhostile_lt');
    expect(results).toContain('&lt;img src=x onerror="document.title=\'owned\'"&gt;&lt;b&gt;bold&lt;/b&gt; &amp; "quoted"');
    expect(results).not.toMatch(/<img|<b>/);
    expect(dom).not.toContain('<title>owned</title>');
  }, 120_000);
});
