#!/usr/bin/env node
// Run by hand: premise-lsp's memory while the editor does not read and the prover floods.
//   node test/soak/lsp-flood.mjs [path/to/cli.js (default dist/cli.js)] [MB the fake Lean floods (default 400)]
// Starts `serve --stdio` in front of test/doubles/fake-lean.mjs, initializes, stops reading the
// server's stdout, asks the fake for its flood (`fake/flood`) and prints the server's RSS every 5 s for 20 s.
// Without flow control the RSS grows with the flood; with it, it stays flat.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const cli = resolve(process.argv[2] ?? join(root, 'dist/cli.js'));
const mb = Number(process.argv[3] ?? 400);
const p = spawn(process.execPath, [cli, 'serve', '--stdio', '--fake-engine', join(root, 'test/fixtures/lsp/premises.json'), '--', process.execPath, join(root, 'test/doubles/fake-lean.mjs')], {
  stdio: ['pipe', 'pipe', 'ignore'],
});
const frame = (m) => {
  const b = Buffer.from(JSON.stringify(m));
  return Buffer.concat([Buffer.from(`Content-Length: ${b.length}\r\n\r\n`), b]);
};
const rss = () => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p.pid}/status`, 'utf8'))[1]) / 1024);
let got = Buffer.alloc(0);
p.stdout.on('data', (d) => {
  got = Buffer.concat([got, d]);
  if (!got.includes('"id":1')) return;
  p.stdout.removeAllListeners('data');
  p.stdout.pause(); // the editor stops reading
  const before = rss();
  p.stdin.write(frame({ jsonrpc: '2.0', method: 'initialized', params: {} }));
  p.stdin.write(frame({ jsonrpc: '2.0', method: 'fake/flood', params: { bytes: mb * 1024 * 1024 } }));
  let n = 0;
  const t = setInterval(() => {
    n += 1;
    console.log(`t=${n * 5}s server RSS ${rss()} MB (before the flood ${before} MB)`);
    if (n >= 4) {
      clearInterval(t);
      p.kill('SIGKILL');
    }
  }, 5000);
});
p.stdin.write(frame({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } }));
