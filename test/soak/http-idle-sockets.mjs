#!/usr/bin/env node
/**
 * What idle connections cost the other callers (a check to run by hand, not a test; issue 36 item 4):
 *   node test/soak/http-idle-sockets.mjs dist/cli.js <index-dir> <idle-connections> <seconds>
 * Opens that many connections that send nothing, each reopened as soon as it is closed; meanwhile a
 * real /retrieve is sent every 500 ms (each on its own connection). Prints their count, statuses
 * (an error code for a connection refused or reset) and median and worst latency.
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { connect } from 'node:net';

const [cli, index, idleArg, secondsArg] = process.argv.slice(2);
if (!cli || !index || !idleArg || !secondsArg) {
  console.error('usage: node test/soak/http-idle-sockets.mjs dist/cli.js <index-dir> <idle-connections> <seconds>');
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
let running = true;
let reopened = 0;
function idleClient() {
  if (!running) return;
  const sock = connect(port, '127.0.0.1');
  sock.on('data', () => undefined);
  sock.on('error', () => undefined);
  sock.on('close', () => {
    reopened++;
    setImmediate(idleClient);
  });
}
for (let i = 0; i < Number(idleArg); i++) idleClient();
await new Promise((r) => setTimeout(r, 1000)); // let them all connect
const body = JSON.stringify({ state: 'a b : M\n⊢ Eq (HMul.hMul a b) (HMul.hMul b a)', k: 16 });
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
  `${idleArg} idle connections, ${secondsArg} s: ${pending.length} real requests ${JSON.stringify(statuses)}, ` +
    `median ${times[times.length >> 1]?.toFixed(0)} ms, worst ${times.at(-1)?.toFixed(0)} ms; idle connections reopened ${reopened} times`,
);
server.kill('SIGTERM');
process.exit(0);
