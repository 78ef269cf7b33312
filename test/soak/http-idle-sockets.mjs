#!/usr/bin/env node
/**
 * What idle connections cost the other callers (a check to run by hand, not a test; issue 36 item 4):
 *   node test/soak/http-idle-sockets.mjs dist/cli.js <index-dir> <idle-connections> <seconds>
 * Opens that many connections that send nothing, each reopened as soon as it is closed; meanwhile a
 * real /retrieve is sent every 500 ms (each on its own connection). Prints their count, statuses
 * (an error code for a connection refused or reset) and median and worst latency.
 */
import { connect } from 'node:net';
import { probeRetrieve, startHttp } from './start-http.mjs';

const [cli, index, idleArg, secondsArg] = process.argv.slice(2);
if (!cli || !index || !idleArg || !secondsArg) {
  console.error('usage: node test/soak/http-idle-sockets.mjs dist/cli.js <index-dir> <idle-connections> <seconds>');
  process.exit(2);
}
const { server, base } = await startHttp(cli, index);
const port = Number(new URL(base).port);
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
const { times, statuses, sent } = await probeRetrieve(base, body, Number(secondsArg));
running = false;
console.log(
  `${idleArg} idle connections, ${secondsArg} s: ${sent} real requests ${JSON.stringify(statuses)}, ` +
    `median ${times[times.length >> 1]?.toFixed(0)} ms, worst ${times.at(-1)?.toFixed(0)} ms; idle connections reopened ${reopened} times`,
);
server.kill('SIGTERM');
process.exit(0);
