#!/usr/bin/env node
/**
 * A hostile pattern repeated against `premise-lsp http`, and what it costs the server and
 * its other callers (a check to run by hand, not a test; issue 36 item 1):
 *   node test/soak/pattern-memory.mjs dist/cli.js <index-dir> [seconds=20] [pattern]
 * One client sends the pattern (default: `_*_*…*_`, 499 `*`, 999 characters) to /json
 * in a loop; another sends a normal /retrieve at the same time, one after the other.
 * The server's resident memory is read from /proc every 100 ms (Linux).
 * Prints one JSON line: the server's RSS before, its peak (VmHWM) and at the end (MB),
 * the /retrieve requests' p50/p95/max (ms), how many pattern answers came back and how
 * many were flagged partial, and errors.
 */
import { readFileSync } from 'node:fs';
import { startHttp } from './start-http.mjs';

const [cli, index, seconds = '20', pattern = `_${'*_'.repeat(499)}`] = process.argv.slice(2);
if (!cli || !index) {
  console.error('usage: node test/soak/pattern-memory.mjs dist/cli.js <index-dir> [seconds] [pattern]');
  process.exit(2);
}
const { server, base } = await startHttp(cli, index, process.env.SPARSE ? ['--mode', 'bm25'] : []);

/** The server's resident memory in MB, now and at its peak. */
function memory() {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

const pct = (xs, p) => (xs.length ? xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] : null);
const errors = {};
const fail = (what, e) => (errors[`${what} ${e}`] = (errors[`${what} ${e}`] ?? 0) + 1);

// warm-up: the index's first reads, a normal request and the pattern once
await fetch(`${base}/retrieve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ state: 'a b : ℕ\n⊢ a + b = b + a', k: 8 }) }).then((r) => r.text());
await fetch(`${base}/json?q=${encodeURIComponent(pattern)}`).then((r) => r.text());
const before = memory();

const end = Date.now() + Number(seconds) * 1000;
const normal = [];
let answers = 0;
let partial = 0;
let rssMax = before.rss;
const sampler = setInterval(() => (rssMax = Math.max(rssMax, memory().rss)), 100);

async function patternLoop() {
  while (Date.now() < end) {
    try {
      const r = await fetch(`${base}/json?q=${encodeURIComponent(pattern)}`);
      await r.text();
      if (r.status !== 200) fail('pattern', r.status);
      answers++;
      if (r.headers.has('x-premise-partial')) partial++;
    } catch (e) {
      fail('pattern', e.cause?.code ?? e.message);
    }
  }
}

async function normalLoop() {
  let i = 0;
  while (Date.now() < end) {
    // a k of its own each time: never answered from the result cache
    const body = JSON.stringify({ state: 'x : ℝ\nhx : 0 ≤ x\n⊢ Real.sqrt x * Real.sqrt x = x', k: 1 + (i++ % 500) });
    const t0 = performance.now();
    try {
      const r = await fetch(`${base}/retrieve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await r.text();
      if (r.status !== 200) fail('retrieve', r.status);
      else normal.push(performance.now() - t0);
    } catch (e) {
      fail('retrieve', e.cause?.code ?? e.message);
    }
  }
}

await Promise.all([patternLoop(), normalLoop()]);
clearInterval(sampler);
const after = memory();
normal.sort((a, b) => a - b);
const r = (x) => (x === null ? null : Math.round(x));
console.log(
  JSON.stringify({
    seconds: Number(seconds),
    patternChars: pattern.length,
    rssMB: { before: before.rss, max: Math.max(rssMax, after.rss), peak: after.peak, end: after.rss },
    retrieve: { requests: normal.length, p50: r(pct(normal, 50)), p95: r(pct(normal, 95)), max: r(normal.at(-1) ?? null) },
    pattern: { answers, partial },
    errors,
  }),
);
server.kill();
