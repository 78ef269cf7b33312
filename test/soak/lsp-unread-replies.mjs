#!/usr/bin/env node
// Run by hand: premise-lsp's memory while the editor sends requests and never reads the replies.
//   node test/soak/lsp-unread-replies.mjs [path/to/cli.js (default dist/cli.js)] [seconds (default 30)] [--index DIR] [--read]
// (`--read`: the editor reads and drops the replies, the same flood otherwise: the baseline to compare with)
// Starts `serve --stdio` standalone (the fake engine of test/fixtures/lsp, or `--index DIR`), opens a
// Lean file, stops reading the server's stdout and sends completion and `premise-lsp.search` requests
// as fast as the server takes them, printing the server's RSS every 5 s. Without a bound on the replies
// queued for the editor the RSS grows with the flood (2.1 GB in 30 s); with it, the server stops
// reading requests and stays flat (issue 36 item 3).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const at = args.indexOf('--index');
const index = at >= 0 ? args.splice(at, 2)[1] : undefined;
const reads = args.includes('--read');
if (reads) args.splice(args.indexOf('--read'), 1);
const cli = resolve(args[0] ?? join(root, 'dist/cli.js'));
const seconds = Number(args[1] ?? 30);
const engine = index ? ['--index', index] : ['--fake-engine', join(root, 'test/fixtures/lsp/premises.json')];
const p = spawn(process.execPath, [cli, 'serve', '--stdio', ...engine], { stdio: ['pipe', 'pipe', 'ignore'] });
const frame = (m) => {
  const b = Buffer.from(JSON.stringify(m));
  return Buffer.concat([Buffer.from(`Content-Length: ${b.length}\r\n\r\n`), b]);
};
const rss = () => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p.pid}/status`, 'utf8'))[1]) / 1024);
const uri = 'file:///tmp/Soak.lean';
const text = 'theorem t (a b : Nat) : a + b = b + a := by\n  exact Nat.add_comm a b\n';
let got = Buffer.alloc(0);
let stop = false;
let sent = 0;
p.stdout.on('data', (d) => {
  got = Buffer.concat([got, d]);
  if (!got.includes('"id":1')) return;
  p.stdout.removeAllListeners('data');
  if (reads) p.stdout.on('data', () => undefined);
  else p.stdout.pause(); // the editor stops reading
  p.stdin.write(frame({ jsonrpc: '2.0', method: 'initialized', params: {} }));
  p.stdin.write(frame({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'lean', version: 1, text } } }));
  const before = rss();
  let id = 2;
  const pump = () => {
    while (!stop) {
      const msg =
        id % 2
          ? { jsonrpc: '2.0', id: id++, method: 'textDocument/completion', params: { textDocument: { uri }, position: { line: 1, character: 8 } } }
          : { jsonrpc: '2.0', id: id++, method: 'workspace/executeCommand', params: { command: 'premise-lsp.search', arguments: [{ query: 'add comm', k: 20 }] } };
      const f = frame(msg);
      sent += f.length;
      if (!p.stdin.write(f)) return void p.stdin.once('drain', pump);
    }
  };
  pump();
  let n = 0;
  const t = setInterval(() => {
    n += 5;
    console.log(`t=${n}s server RSS ${rss()} MB (before the flood ${before} MB); requests taken ${(sent / 2 ** 20).toFixed(1)} MiB`);
    if (n >= seconds) {
      clearInterval(t);
      stop = true;
      p.kill('SIGKILL');
      process.exit(0);
    }
  }, 5000);
});
p.stdin.on('error', () => {});
p.stdin.write(frame({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } }));
