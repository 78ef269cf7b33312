#!/usr/bin/env node
/**
 * Pattern searches against other callers of `premise-lsp http` (a check to run by hand,
 * not a test; issue 31 item 10):
 *   node test/soak/pattern-load.mjs dist/cli.js <index-dir> [clients=64] [patternClients=8] [seconds=20]
 * Phase 1: `clients - patternClients` clients post normal /retrieve states in a loop, alone.
 * Phase 2: the same, with `patternClients` more sending heavy patterns (conclusion
 * patterns with many hypotheses, holes, name fragments) at the same time.
 * Normal requests cycle through a few states with k = 32 (as a prover repeats its calls: most
 * are answered from the result cache, so the time they take is the time they wait);
 * UNCACHED=1 gives each its own k. Pattern requests always ask for their own k (never cached).
 * Prints one JSON line: per phase, the normal requests' p50/p95/max (ms) and
 * throughput (req/s), the pattern requests' count, p95 and how many were flagged
 * partial (X-Premise-Partial), and errors; then the ratio of the p95s.
 */
import { startHttp } from './start-http.mjs';

const [cli, index, clients = '64', patternClients = '8', seconds = '20'] = process.argv.slice(2);
if (!cli || !index) {
  console.error('usage: node test/soak/pattern-load.mjs dist/cli.js <index-dir> [clients] [patternClients] [seconds]');
  process.exit(2);
}
const { server, base } = await startHttp(cli, index, process.env.SPARSE ? ['--mode', 'bm25'] : []);

const states = [
  'a b : ℕ\n⊢ a + b = b + a',
  'x : ℝ\nhx : 0 ≤ x\n⊢ Real.sqrt x * Real.sqrt x = x',
  's : Finset ℕ\n⊢ ∑ i ∈ s, (i + 1) = ∑ i ∈ s, i + s.card',
  'G : Type u_1\ninst : Group G\na b : G\n⊢ (a * b)⁻¹ = b⁻¹ * a⁻¹',
  'n : ℕ\n⊢ 0 < n + 1',
  'α : Type u_1\nl : List α\n⊢ l.reverse.reverse = l',
];
const patterns = [
  `⊢ ${'_ ≤ _ → '.repeat(16)}_ ≤ _`,
  '_ _ _ _ = _',
  '_ * (_ ^ _), _ + _, _ ≤ _',
  '⊢ _ < _ → _ ≤ _ → _ < _',
  'Real.sqrt ?a * Real.sqrt ?a',
  '"le", "add", _ ≤ _',
  '?a * ?b = ?b * ?a',
];
let seq = 0;
const pct = (xs, p) => (xs.length ? xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] : null);

async function post(body) {
  const t0 = performance.now();
  const r = await fetch(`${base}/retrieve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await r.text();
  return { ms: performance.now() - t0, status: r.status, partial: r.headers.has('x-premise-partial') };
}

async function phase(normalClients, patternCount, secs) {
  const end = Date.now() + secs * 1000;
  const normal = [];
  const pattern = [];
  const errors = {};
  let partial = 0;
  const loop = async (kind) => {
    while (Date.now() < end) {
      const i = seq++;
      const body =
        kind === 'normal'
          ? { state: states[i % states.length], k: process.env.UNCACHED ? 1 + (i % 900) : 32 }
          : { state: patterns[i % patterns.length], k: 1 + (i % 900), pattern: true };
      try {
        const r = await post(body);
        if (r.status !== 200 && r.status !== 400) errors[`${kind} ${r.status}`] = (errors[`${kind} ${r.status}`] ?? 0) + 1;
        else (kind === 'normal' ? normal : pattern).push(r.ms);
        if (r.partial) partial++;
      } catch (e) {
        errors[`${kind} ${e.cause?.code ?? e.message}`] = (errors[`${kind} ${e.cause?.code ?? e.message}`] ?? 0) + 1;
      }
    }
  };
  const t0 = Date.now();
  await Promise.all([...Array.from({ length: normalClients }, () => loop('normal')), ...Array.from({ length: patternCount }, () => loop('pattern'))]);
  const took = (Date.now() - t0) / 1000;
  normal.sort((a, b) => a - b);
  pattern.sort((a, b) => a - b);
  const r = (x) => (x === null ? null : Math.round(x));
  return {
    normal: { requests: normal.length, p50: r(pct(normal, 50)), p95: r(pct(normal, 95)), max: r(normal.at(-1) ?? null), perSecond: Math.round(normal.length / took) },
    pattern: { requests: pattern.length, p50: r(pct(pattern, 50)), p95: r(pct(pattern, 95)), partial },
    errors,
  };
}

const normalClients = Number(clients) - Number(patternClients);
// warm-up: the index's first reads, the first pattern search
await phase(4, 1, 3);
const alone = await phase(normalClients, 0, Number(seconds));
const mixed = await phase(normalClients, Number(patternClients), Number(seconds));
console.log(
  JSON.stringify({
    clients: Number(clients),
    patternClients: Number(patternClients),
    seconds: Number(seconds),
    alone,
    mixed,
    p95Ratio: alone.normal.p95 ? +(mixed.normal.p95 / alone.normal.p95).toFixed(2) : null,
    throughputRatio: alone.normal.perSecond ? +(mixed.normal.perSecond / alone.normal.perSecond).toFixed(2) : null,
  }),
);
server.kill();
