#!/usr/bin/env node
/**
 * Load of the search clients' contracts on one running `premise-lsp http` (a check
 * to run by hand, not a test; issue 30's load criterion):
 *   premise-lsp http --index <index> --port 8765 &
 *   node test/soak/ecosystem-load.mjs [--url http://127.0.0.1:8765] [--clients 16] [--seconds 60] [--alone] [--uncached]
 * 16 clients, a quarter on each contract: LeanHammer's /retrieve (normal callers,
 * `{state, k: 32}` as lean-lsp-mcp sends), Loogle's /json (Loogle's documented
 * patterns), LeanSearch's /search (English), LeanStateSearch's /api/search (goals).
 * `--alone` runs only the /retrieve quarter, the baseline: run it first, then the
 * mix, and compare the /retrieve p95 of the two. Each distinct request is sent once
 * before the clock starts (a cold first pattern search is not what this measures).
 * An error is a non-2xx answer, a failed connection, or an answer its client could
 * not read (LeanSearchClient's Loogle parser: every hit with `name` and `type`).
 * `--uncached`: every request is its own (a proof state with a hypothesis of its own, a
 * sentence with its own number), so none is answered from the server's result cache, as
 * provers send new states.
 * Prints one JSON line: per contract requests, errors, p50 and p95 (ms).
 */
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const base = opt('url', 'http://127.0.0.1:8765').replace(/\/+$/, '');
const clients = Number(opt('clients', '16'));
const seconds = Number(opt('seconds', '60'));
const alone = args.includes('--alone');
const uncached = args.includes('--uncached');
/** The i-th state: with --uncached, with a hypothesis of its own (no result-cache hit). */
const state = (i) => (uncached ? `n${i} : ℕ\n` : '') + goals[i % goals.length];
const sentence = (i) => sentences[i % sentences.length] + (uncached ? ` (${i})` : '');

const goals = [
  'a b : ℕ\n⊢ a + b = b + a',
  'x : ℝ\nhx : 0 ≤ x\n⊢ √x * √x = x',
  'G : Type u_1\ninst : Group G\na b : G\n⊢ (a * b)⁻¹ = b⁻¹ * a⁻¹',
  'α : Type u_1\nl₁ l₂ : List α\n⊢ (l₁ ++ l₂).length = l₁.length + l₂.length',
  's t : Set ℕ\n⊢ s ∩ t ⊆ s',
  'n : ℕ\nh : 0 < n\n⊢ n - 1 + 1 = n',
];
const patterns = ['Real.sqrt ?a * Real.sqrt ?a', '?a * ?b = ?b * ?a', '"sqrt_mul"', '|- tsum _ = _ * tsum _', 'List.map', '_ * (_ ^ _)', 'Real.sin, "two"', '|- _ < _ → _ + 1 < _ + 1'];
const sentences = [
  'The square root of a product is the product of the square roots.',
  'Addition of natural numbers is commutative.',
  'A continuous function on a compact set is bounded.',
  'The inverse of a product in a group.',
  'The length of the concatenation of two lists.',
  'Every natural number greater than one has a prime factor.',
];

const json = { 'content-type': 'application/json' };
const contracts = {
  retrieve: (i) => [`${base}/retrieve`, { method: 'POST', headers: json, body: JSON.stringify({ state: state(i), new_premises: [], k: 32 }) }, (b) => Array.isArray(b) && b.every((h) => typeof h.name === 'string')],
  loogle: (i) => [`${base}/json?q=${encodeURIComponent(patterns[i % patterns.length])}`, {}, (b) => (Array.isArray(b.hits) && b.hits.every((h) => typeof h.name === 'string' && typeof h.type === 'string')) || typeof b.error === 'string'],
  leansearch: (i) => [`${base}/search`, { method: 'POST', headers: json, body: JSON.stringify({ query: [sentence(i)], num_results: '6' }) }, (b) => Array.isArray(b) && Array.isArray(b[0])],
  statesearch: (i) => [`${base}/api/search?${new URLSearchParams({ query: state(i), results: '6', rev: 'v4.20.0' })}`, {}, (b) => Array.isArray(b) && b.every((h) => typeof h.formal_type === 'string')],
};
const kinds = Object.keys(contracts);
const sizes = { retrieve: goals.length, loogle: patterns.length, leansearch: sentences.length, statesearch: goals.length };

async function send(kind, i) {
  const [url, init, readable] = contracts[kind](i);
  const t = performance.now();
  try {
    const r = await fetch(url, init);
    const body = await r.json();
    const ms = performance.now() - t;
    return { ms, error: !r.ok ? `HTTP ${r.status}` : readable(body) ? undefined : 'unreadable' };
  } catch (e) {
    return { ms: performance.now() - t, error: e.cause?.code ?? e.message };
  }
}

// every distinct request once, before the clock starts
const warm = performance.now();
for (const kind of alone ? ['retrieve'] : kinds) for (let i = 0; i < sizes[kind]; i++) await send(kind, i);
const warmupMs = Math.round(performance.now() - warm);

const stats = Object.fromEntries(kinds.map((k) => [k, { ms: [], errors: {} }]));
const end = Date.now() + seconds * 1000;
async function client(c) {
  const kind = kinds[c % kinds.length];
  if (alone && kind !== 'retrieve') return;
  for (let i = c; Date.now() < end; i++) {
    const r = await send(kind, i);
    stats[kind].ms.push(r.ms);
    if (r.error) stats[kind].errors[r.error] = (stats[kind].errors[r.error] ?? 0) + 1;
  }
}
await Promise.all(Array.from({ length: clients }, (_, c) => client(c)));

const pct = (xs, p) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]);
};
const report = { mode: alone ? 'alone' : 'mixed', uncached, clients, seconds, warmupMs };
for (const k of kinds) {
  const s = stats[k];
  if (!s.ms.length) continue;
  report[k] = { requests: s.ms.length, errors: Object.values(s.errors).reduce((a, b) => a + b, 0), errorKinds: s.errors, p50: pct(s.ms, 50), p95: pct(s.ms, 95) };
}
console.log(JSON.stringify(report));
