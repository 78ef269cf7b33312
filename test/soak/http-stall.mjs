#!/usr/bin/env node
/**
 * How long one large /retrieve keeps other callers waiting (a check to run by hand, not a test):
 *   node test/soak/http-stall.mjs dist/cli.js <index-dir> <shape> [total-chars=15728640]
 * shape `one`: one new premise whose decl has all the characters; `each<N>`: as many
 * premises of N characters as fit. While the large request runs, a small /retrieve is
 * sent every 200 ms (each on its own connection); prints the large one's status and
 * time and the small ones' count and worst latency.
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';

const [cli, index, shape, totalArg] = process.argv.slice(2);
if (!cli || !index || !/^(one|each\d+)$/.test(shape ?? '')) {
  console.error('usage: node test/soak/http-stall.mjs dist/cli.js <index-dir> one|each<N> [total-chars]');
  process.exit(2);
}
const total = Number(totalArg ?? 15 * 1024 * 1024);
const server = spawn(process.execPath, [cli, 'http', '--index', index, '--port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
const port = await new Promise((resolve, reject) => {
  let err = '';
  server.stderr.on('data', (d) => {
    err += d;
    const m = /listening on http:\/\/[^:]+:(\d+)/.exec(err);
    if (m) resolve(m[1]);
  });
  server.on('exit', () => reject(new Error(`the server stopped: ${err}`)));
});
const url = `http://127.0.0.1:${port}/retrieve`;
const post = (body) =>
  new Promise((resolve, reject) => {
    const q = request(url, { method: 'POST', agent: false }, (r) => {
      let text = '';
      r.setEncoding('utf8');
      r.on('data', (d) => (text += d));
      r.on('end', () => resolve({ status: r.statusCode, text }));
    });
    q.on('error', reject);
    q.end(body);
  });
const signature = (name, n) => `theorem ${name} (x : Nat) : ${'HAdd.hAdd x '.repeat(Math.ceil(n / 12))}`.slice(0, n);
const each = shape === 'one' ? total : Number(shape.slice(4));
const premises = Array.from({ length: Math.max(1, Math.floor(total / each)) }, (_, i) => ({ name: `P.p${i}`, decl: signature(`P.p${i}`, each) }));
const small = JSON.stringify({ state: '⊢ a + b = b + a', k: 3 });
await post(small); // warm up

const t0 = Date.now();
let bigMs;
const big = post(JSON.stringify({ state: '⊢ a + b = b + a', new_premises: premises, k: 5 })).then((r) => {
  bigMs = Date.now() - t0;
  return r;
});
const waits = [];
while (bigMs === undefined) {
  await new Promise((r) => setTimeout(r, 200));
  if (bigMs !== undefined) break;
  const t = Date.now();
  await post(small);
  waits.push(Date.now() - t);
}
const r = await big;
console.log(
  JSON.stringify({ premises: premises.length, chars: premises.length * each, status: r.status, error: r.status === 200 ? undefined : JSON.parse(r.text).error, ms: bigMs, small: waits.length, worstSmallMs: Math.max(0, ...waits) }),
);
server.kill();
