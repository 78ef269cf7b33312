/**
 * The search page of `premise-lsp http`: `GET /` is one static HTML page (inline
 * CSS and JS, no build step, no framework) with one box for a goal, an English
 * question or a Loogle pattern. Its script asks the server's own JSON contracts:
 * Loogle's `/json?q=` first (a pattern, a name), then LeanSearch's `POST /search`
 * (English, a statement, a goal; and whatever Loogle matched nothing for), and
 * `GET /sources?name=…` (below) for where each result is declared. Each result shows
 * its name and statement as Lean prints them (`name binders : conclusion`), its module,
 * its source as `file:line`, and a button that copies the name. `/?q=<query>` runs the
 * query on load (a shareable address, as Loogle's), and every search puts its query
 * in the address.
 *
 *   GET /sources?name=A&name=B… → {A: {module, file, line}, …}  (at most MAX_SOURCE_NAMES
 *       names; names the index does not have are left out; `line` 1-based; `file` as
 *       the index records it, relative to its source root)
 *   GET /source?name=A → the file declaring A, as a page of numbered lines (`#L12` is line
 *       12); only a file the engine's `sourcePath` finds under the index's own source
 *       roots, of at most MAX_FILE_BYTES; 404 with the reason otherwise
 *
 * Invariant: the page never turns data into markup. Names, statements, docstrings and
 * errors are untrusted; the script builds every element with `createElement` and
 * `textContent` (no `innerHTML`), and the page is served under a Content-Security-Policy
 * that runs only its own inline script and style (by hash) and connects only to its own
 * origin. Tests: test/cli/search-page.test.ts (the page, its headers, `/sources`, and in
 * headless Chromium `/?q=add_comm` and hostile names shown as text).
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { MAX_FILE_BYTES } from '../../../indexes/src/extract/file.js';
import type { PremiseSearch } from '../engine/types.js';
import type { ApiResponse, RouteSet } from './routes.js';

/** Most names one `/sources` request may ask about (Loogle's answers list at most 200 hits). */
export const MAX_SOURCE_NAMES = 200;
/** Results asked of LeanSearch's route for one search (its own bound). */
const SEARCH_RESULTS = 50;

const STYLE = `
:root { color-scheme: light dark; --muted: #6a6a6a; --line: #d0d0d0; --accent: #2a6fdb; }
body { font: 15px/1.45 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.3rem; margin: 0 0 1rem; }
form { display: flex; gap: .5rem; }
textarea { flex: 1; font: 14px/1.4 ui-monospace, "JuliaMono", "DejaVu Sans Mono", monospace; padding: .4rem; resize: vertical; min-height: 2.2rem; }
button { font: inherit; cursor: pointer; }
#status { color: var(--muted); margin: .8rem 0; white-space: pre-wrap; }
#suggestions a { margin-right: .8rem; }
ol { list-style: none; padding: 0; }
li.hit { border-top: 1px solid var(--line); padding: .6rem 0; }
.decl { display: flex; gap: .6rem; align-items: flex-start; }
.decl code { flex: 1; white-space: pre-wrap; overflow-wrap: anywhere; font: 14px/1.4 ui-monospace, "JuliaMono", "DejaVu Sans Mono", monospace; }
.name { font-weight: 600; color: var(--accent); }
.meta { color: var(--muted); font-size: .9rem; }
.meta > * + *::before { content: " · "; }
.doc { margin-top: .2rem; white-space: pre-wrap; }
.copy { font-size: .8rem; padding: .1rem .5rem; }
`;

const SCRIPT = `
'use strict';
const form = document.getElementById('search');
const box = document.getElementById('q');
const statusLine = document.getElementById('status');
const suggestionList = document.getElementById('suggestions');
const results = document.getElementById('results');
let current = 0;

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

// a proof state (hypotheses before the turnstile) goes to the search; a pattern or a name to Loogle first
function isGoal(q) {
  const t = q.indexOf('⊢') >= 0 ? q.indexOf('⊢') : q.indexOf('|-');
  return t > 0 && q.slice(0, t).trim().length > 0;
}

async function getJson(url, init) {
  const r = await fetch(url, init);
  let body;
  try { body = await r.json(); } catch (e) { throw new Error('HTTP ' + r.status); }
  if (!r.ok) throw new Error(body && typeof body.error === 'string' ? body.error : 'HTTP ' + r.status);
  return body;
}

function loogle(q) {
  return getJson('json?q=' + encodeURIComponent(q));
}

async function search(q) {
  const lists = await getJson('search', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: [q], num_results: ${SEARCH_RESULTS} }) });
  const hits = Array.isArray(lists) && Array.isArray(lists[0]) ? lists[0] : [];
  return hits.map((h) => {
    const r = (h && h.result) || {};
    const join = (v) => (Array.isArray(v) ? v.map(String).join('.') : String(v ?? ''));
    return { name: join(r.name), type: String(r.type ?? ''), module: join(r.module_name), doc: r.docstring ?? null };
  });
}

async function sources(names) {
  if (!names.length) return {};
  try {
    return await getJson('sources?' + names.map((n) => 'name=' + encodeURIComponent(n)).join('&'));
  } catch (e) {
    return {};
  }
}

async function copyName(name, button) {
  try {
    await navigator.clipboard.writeText(name);
  } catch (e) {
    // no clipboard API (a page not served from localhost or https): the old way
    const t = el('textarea');
    t.value = name;
    document.body.append(t);
    t.select();
    document.execCommand('copy');
    t.remove();
  }
  button.textContent = 'copied';
  setTimeout(() => (button.textContent = 'copy'), 1200);
}

function hitItem(h, where) {
  const li = el('li', 'hit');
  const decl = el('div', 'decl');
  const code = el('code');
  code.append(el('span', 'name', h.name), document.createTextNode(h.type ? ' ' + h.type : ''));
  const button = el('button', 'copy', 'copy');
  button.type = 'button';
  button.title = 'Copy the name';
  button.addEventListener('click', () => copyName(h.name, button));
  decl.append(code, button);
  li.append(decl);
  const meta = el('div', 'meta');
  if (h.module) meta.append(el('span', 'module', h.module));
  const src = where && where[h.name];
  if (src && src.file) {
    const a = el('a', 'source', src.file + (Number.isInteger(src.line) ? ':' + src.line : ''));
    a.href = 'source?name=' + encodeURIComponent(h.name) + (Number.isInteger(src.line) ? '#L' + src.line : '');
    meta.append(a);
  }
  if (meta.childNodes.length) li.append(meta);
  if (h.doc) li.append(el('div', 'doc', h.doc));
  return li;
}

function suggest(list) {
  suggestionList.replaceChildren();
  for (const s of Array.isArray(list) ? list.slice(0, 10) : []) {
    const a = el('a', null, String(s));
    a.href = '?q=' + encodeURIComponent(String(s));
    a.addEventListener('click', (ev) => { ev.preventDefault(); go(String(s), true); });
    suggestionList.append(a);
  }
}

async function run(q) {
  const mine = ++current;
  results.replaceChildren();
  suggest([]);
  if (!q.trim()) { statusLine.textContent = ''; return; }
  statusLine.textContent = 'Searching…';
  try {
    let hits = [];
    let header = '';
    let note = '';
    if (!isGoal(q)) {
      const l = await loogle(q);
      if (l && Array.isArray(l.hits) && l.hits.length) {
        hits = l.hits.map((h) => ({ name: String(h.name ?? ''), type: String(h.type ?? ''), module: h.module ? String(h.module) : '', doc: h.doc ?? null }));
        header = typeof l.header === 'string' ? l.header : '';
      } else if (l && typeof l.error === 'string') {
        note = 'Loogle: ' + l.error;
        if (mine === current) suggest(l.suggestions);
      }
    }
    if (!hits.length) {
      hits = await search(q);
      header = (note ? note + '\\n' : '') + (hits.length ? 'The ' + hits.length + ' premises nearest to the query:' : 'Nothing found.');
    }
    const where = await sources(hits.map((h) => h.name));
    if (mine !== current) return;
    statusLine.textContent = header;
    results.replaceChildren(...hits.map((h) => hitItem(h, where)));
  } catch (e) {
    if (mine === current) statusLine.textContent = 'The search failed: ' + (e && e.message ? e.message : String(e));
  }
}

function go(q, push) {
  box.value = q;
  if (push) history.pushState(null, '', q ? '?q=' + encodeURIComponent(q) : location.pathname);
  document.title = q ? q + ' – premise-lsp search' : 'premise-lsp search';
  run(q);
}

form.addEventListener('submit', (ev) => { ev.preventDefault(); go(box.value.trim(), true); });
box.addEventListener('keydown', (ev) => {
  if (ev.key === 'Enter' && !ev.shiftKey) { ev.preventDefault(); go(box.value.trim(), true); }
});
window.addEventListener('popstate', () => go(new URLSearchParams(location.search).get('q') ?? '', false));
go(new URLSearchParams(location.search).get('q') ?? '', false);
`;

const hash = (s: string) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;

/**
 * Only the page's own script and style run (by their hashes); it fetches from its own
 * origin only; nothing else loads, frames it, or takes its forms elsewhere.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  `script-src ${hash(SCRIPT)}`,
  `style-src ${hash(STYLE)}`,
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>premise-lsp search</title>
<style>${STYLE}</style>
</head>
<body>
<h1>premise-lsp search</h1>
<form id="search" action="" method="get" role="search">
<textarea id="q" name="q" rows="1" placeholder="a goal (a b : ℕ ⊢ a + b = b + a), a question (sum of two squares), or a Loogle pattern (_ * _ = _ * _)" aria-label="query" autofocus></textarea>
<button type="submit">Search</button>
</form>
<div id="status" role="status"></div>
<div id="suggestions"></div>
<ol id="results"></ol>
<script>${SCRIPT}</script>
</body>
</html>
`;

const PAGE_HEADERS: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': PAGE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

const SOURCE_STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 1rem; }
h1 { font-size: 1rem; }
pre { counter-reset: line; font: 13px/1.45 ui-monospace, "JuliaMono", "DejaVu Sans Mono", monospace; }
pre span { counter-increment: line; }
pre span::before { content: counter(line); display: inline-block; width: 3.5em; margin-right: 1em; text-align: right; color: #8a8a8a; }
pre span:target { background: #fff3b0; }
`;

/** A source page: no script at all, only its own style. */
const SOURCE_HEADERS: Record<string, string> = {
  ...PAGE_HEADERS,
  'content-security-policy': `default-src 'none'; style-src ${hash(SOURCE_STYLE)}; base-uri 'none'; frame-ancestors 'none'`,
};

const escapeHtml = (t: string) => t.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export class SearchPage implements RouteSet {
  readonly routes: RouteSet['routes'] = {
    '/': { GET: () => ({ status: 200, body: null, text: PAGE_HTML, headers: PAGE_HEADERS }) },
    '/sources': { GET: ({ query }) => this.sources(query.getAll('name')) },
    '/source': { GET: ({ query }) => this.source(query.get('name') ?? '') },
  };

  constructor(private readonly engine: Pick<PremiseSearch, 'lookup' | 'sourcePath'>) {}

  /** The file declaring `name`, as numbered lines; the text is escaped here, and the page runs no script. */
  async source(name: string): Promise<ApiResponse> {
    const p = name ? this.engine.lookup(name) : undefined;
    if (!p) return { status: 404, body: { error: name ? `unknown name: ${name}` : 'name= is missing' } };
    const path = this.engine.sourcePath(p);
    const size = path ? await stat(path).then((st) => (st.isFile() ? st.size : -1), () => -1) : -1;
    if (!path || size < 0) return { status: 404, body: { error: `the source of ${p.name} (${p.file}) is not on this machine: its index's sources were moved or removed` } };
    if (size > MAX_FILE_BYTES) return { status: 404, body: { error: `the source of ${p.name} (${p.file}) is over ${MAX_FILE_BYTES} bytes` } };
    const lines = (await readFile(path, 'utf8')).split(/\r?\n/);
    const body = lines.map((l, i) => `<span id="L${i + 1}">${escapeHtml(l)}</span>`).join('\n');
    const title = escapeHtml(`${p.file} (${p.name})`);
    const text = `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>${title}</title>\n<style>${SOURCE_STYLE}</style>\n</head>\n<body>\n<h1>${title}</h1>\n<pre>${body}</pre>\n</body>\n</html>\n`;
    return { status: 200, body: null, text, headers: SOURCE_HEADERS };
  }

  sources(names: string[]): ApiResponse {
    if (names.length > MAX_SOURCE_NAMES) return { status: 400, body: { error: `at most ${MAX_SOURCE_NAMES} names, got ${names.length}` } };
    // no prototype: a premise named `__proto__` is a key like any other
    const out: Record<string, { module: string; file: string; line: number }> = Object.create(null);
    for (const name of names) {
      const p = this.engine.lookup(name);
      if (!p || Object.hasOwn(out, name)) continue;
      out[name] = { module: p.module, file: p.file, line: p.range.start.line + 1 };
    }
    return { status: 200, body: out };
  }
}
