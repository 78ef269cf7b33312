#!/usr/bin/env node
/**
 * Loopback soak of `premise-lsp http` (a check to run by hand, not a test):
 *   node test/soak/http-soak.mjs dist/cli.js <index-dir> [clients=8] [seconds=20]
 * Each client posts /retrieve in a loop; every other request carries 200 new premises
 * whose names are never repeated (REPEAT=1: 4 lists sent again and again; PLAIN=1: none).
 * A request without new premises that gets one of them back counts as a leak (an error).
 * Prints one JSON line: requests, errors by kind, the server's RSS each second.
 */
import { startHttp } from './start-http.mjs';
import { readFileSync } from 'node:fs';

const [cli, index, clients = '8', seconds = '20'] = process.argv.slice(2);
if (!cli || !index) {
  console.error('usage: node test/soak/http-soak.mjs dist/cli.js <index-dir> [clients] [seconds]');
  process.exit(2);
}
const { server, base } = await startHttp(cli, index);
const rss = () => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))[1]) / 1024);
const states = ['a b : M\n⊢ Eq (HMul.hMul a b) (HMul.hMul b a)', '⊢ a + b = b + a', 'x : ℕ\n⊢ x * 1 = x', '⊢ 0 < n + 1'];
const counts = {};
const count = (k) => (counts[k] = (counts[k] ?? 0) + 1);
let seq = 0;
const end = Date.now() + Number(seconds) * 1000;
const rssStart = rss();
const samples = [];
const timer = setInterval(() => samples.push(rss()), 1000);

async function client() {
  while (Date.now() < end) {
    const i = seq++;
    const tag = process.env.REPEAT ? i % 8 : i;
    const body = { state: states[i % states.length], k: 32 };
    const withNew = !process.env.PLAIN && i % 2 === 0;
    if (withNew) {
      body.new_premises = Array.from({ length: 200 }, (_, j) => ({
        name: `Soak.p${tag}_${j}`,
        decl: `/-- doc ${tag} ${j} -/\ntheorem Soak.p${tag}_${j} (a b : M) (h : a ≤ b + ${j}) : a * ${tag} ≤ b * ${j} + ${tag}`,
      }));
    }
    try {
      const r = await fetch(`${base}/retrieve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const hits = await r.json();
      if (r.status !== 200) count(`status ${r.status}`);
      else if (!withNew && hits.some((h) => h.name.startsWith('Soak.'))) count('leak');
      else count('ok');
    } catch (e) {
      count(`exception ${e.cause?.code ?? e.message}`);
    }
  }
}

await Promise.all(Array.from({ length: Number(clients) }, client));
clearInterval(timer);
const requests = Object.values(counts).reduce((a, b) => a + b, 0);
console.log(JSON.stringify({ clients: Number(clients), seconds: Number(seconds), requests, errors: requests - (counts.ok ?? 0), counts, rssStartMB: rssStart, rssPerSecondMB: samples, rssEndMB: rss() }));
server.kill();
