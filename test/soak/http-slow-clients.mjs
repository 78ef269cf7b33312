#!/usr/bin/env node
/**
 * What clients that send their body slowly cost the other callers (a check to run by hand, not a test):
 *   node test/soak/http-slow-clients.mjs dist/cli.js <index-dir> <slow-clients> <seconds>
 * Each slow client sends a /retrieve's headers, then one body byte a second, and reconnects when
 * answered (408) or cut off. Meanwhile a real /retrieve is sent every 500 ms (each on its own
 * connection); prints their count, statuses and worst and median latency, and the slow clients' 408s.
 */
import { connect } from 'node:net';
import { probeRetrieve, startHttp } from './start-http.mjs';

const [cli, index, slowArg, secondsArg] = process.argv.slice(2);
if (!cli || !index || !slowArg || !secondsArg) {
  console.error('usage: node test/soak/http-slow-clients.mjs dist/cli.js <index-dir> <slow-clients> <seconds>');
  process.exit(2);
}
const { server, base } = await startHttp(cli, index);
const port = Number(new URL(base).port);
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
const { times, statuses, sent } = await probeRetrieve(base, body, Number(secondsArg));
running = false;
console.log(
  `${slowArg} slow clients, ${secondsArg} s: ${sent} real requests ${JSON.stringify(statuses)}, ` +
    `median ${times[times.length >> 1]?.toFixed(0)} ms, worst ${times.at(-1)?.toFixed(0)} ms; slow clients' 408s: ${timeouts}`,
);
server.kill('SIGTERM');
process.exit(0);
