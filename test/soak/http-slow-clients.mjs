#!/usr/bin/env node
/**
 * What clients that send their body slowly cost the other callers (a check to run by hand, not a test):
 *   node test/soak/http-slow-clients.mjs dist/cli.js <index-dir> <slow-clients> <seconds>
 * Each slow client sends a /retrieve's headers, then one body byte a second, and reconnects when
 * answered (408) or cut off. Meanwhile a real /retrieve is sent every 500 ms (each on its own
 * connection); prints their count, statuses and worst and median latency, and the slow clients' 408s.
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { connect } from 'node:net';

const [cli, index, slowArg, secondsArg] = process.argv.slice(2);
if (!cli || !index || !slowArg || !secondsArg) {
  console.error('usage: node test/soak/http-slow-clients.mjs dist/cli.js <index-dir> <slow-clients> <seconds>');
  process.exit(2);
}
const server = spawn(process.execPath, [cli, 'http', '--index', index, '--port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
const port = await new Promise((resolve, reject) => {
  let err = '';
  server.stderr.on('data', (d) => {
    err += d;
    const m = /listening on http:\/\/[^:]+:(\d+)/.exec(err);
    if (m) resolve(Number(m[1]));
  });
  server.on('exit', () => reject(new Error(`the server stopped: ${err}`)));
});
const body = JSON.stringify({ state: 'a b : M\n⊢ Eq (HMul.hMul a b) (HMul.hMul b a)', k: 16 });
let running = true;
let timeouts = 0;
function slowClient() {
  if (!running) return;
  const sock = connect(port, '127.0.0.1');
  let text = '';
  sock.setEncoding('utf8');
  sock.on('data', (d) => (text += d));
  sock.on('error', () => undefined);
  sock.write(`POST /retrieve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`);
  let at = 0;
  const drip = setInterval(() => sock.writable && at < body.length - 1 && sock.write(body[at++]), 1000);
  sock.on('close', () => {
    clearInterval(drip);
    if (/HTTP\/1\.1 408/.test(text)) timeouts++;
    slowClient();
  });
}
for (let i = 0; i < Number(slowArg); i++) slowClient();
const times = [];
const statuses = {};
const one = () =>
  new Promise((resolve) => {
    const t0 = performance.now();
    const q = request(`http://127.0.0.1:${port}/retrieve`, { method: 'POST', agent: false }, (r) => {
      r.resume();
      r.on('end', () => {
        times.push(performance.now() - t0);
        statuses[r.statusCode] = (statuses[r.statusCode] ?? 0) + 1;
        resolve();
      });
    });
    q.on('error', (e) => {
      statuses[e.code] = (statuses[e.code] ?? 0) + 1;
      resolve();
    });
    q.end(body);
  });
const pending = [];
const end = Date.now() + Number(secondsArg) * 1000;
while (Date.now() < end) {
  pending.push(one());
  await new Promise((r) => setTimeout(r, 500));
}
await Promise.all(pending);
running = false;
times.sort((a, b) => a - b);
console.log(
  `${slowArg} slow clients, ${secondsArg} s: ${times.length} real requests ${JSON.stringify(statuses)}, ` +
    `median ${times[times.length >> 1]?.toFixed(0)} ms, worst ${times.at(-1)?.toFixed(0)} ms; slow clients' 408s: ${timeouts}`,
);
server.kill('SIGTERM');
process.exit(0);
