// Two HTTP API replicas behind nginx, as docs/deploy.md describes: each started with the
// container's own entry command (deploy/Dockerfile's ENTRYPOINT, the index in place of the
// /index volume, `--port 0` as `docker run IMAGE --port N` would pass), run on the globally
// installed premise-lsp; nginx runs deploy/nginx.conf with only its ports, pid and log
// paths changed. Checks: the entry command serves; nginx spreads requests over both
// replicas; with one replica stopped every request is still answered.
// usage: node .ci/replicas.mjs <index-dir>   (premise-lsp on PATH; nginx too, else that part is skipped)
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const index = process.argv[2];
const say = (s) => console.log(`replicas: ${s}`);
const fail = (s) => {
  console.error(`replicas: ${s}`);
  try {
    console.error(readFileSync(join(tmp, 'nginx.err'), 'utf8'));
  } catch {}
  cleanup();
  process.exit(1);
};
const children = [];
const tmp = mkdtempSync(join(tmpdir(), 'premise-replicas-'));
chmodSync(tmp, 0o755); // nginx's workers may run as another user
function cleanup() {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
  rmSync(tmp, { recursive: true, force: true });
}
setTimeout(() => fail('gave up after 120 s'), 120_000).unref();

/** The JSON array of a Dockerfile instruction. */
function instruction(text, name) {
  const m = new RegExp(`^${name}\\s+(\\[.*\\])\\s*$`, 'm').exec(text);
  if (!m) fail(`deploy/Dockerfile has no ${name} [...]`);
  return JSON.parse(m[1]);
}
const dockerfile = readFileSync(join(repo, 'deploy/Dockerfile'), 'utf8');
const entry = instruction(dockerfile, 'ENTRYPOINT');
const cmd = instruction(dockerfile, 'CMD');
if (!entry.includes('/index') || cmd[0] !== '--port') fail(`unexpected ENTRYPOINT ${JSON.stringify(entry)} / CMD ${JSON.stringify(cmd)}`);

/** Starts one replica; resolves with its port once it listens. */
function replica() {
  const argv = [...entry.map((a) => (a === '/index' ? index : a)), '--port', '0'];
  const c = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(c);
  let err = '';
  return new Promise((resolve) => {
    c.stderr.on('data', (d) => {
      err += d;
      const m = /listening on http:\/\/[^\s]*:(\d+)/.exec(err);
      if (m) resolve({ proc: c, port: Number(m[1]) });
    });
    c.on('exit', (code) => fail(`replica exited ${code} before listening:\n${err}`));
  }).then((r) => (c.removeAllListeners('exit'), r));
}

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const STATE = 'a b : ℕ\n⊢ a + b = b + a';
async function retrieve(port) {
  const r = await fetch(`http://127.0.0.1:${port}/retrieve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ state: STATE, k: 3 }) });
  if (r.status !== 200) fail(`POST /retrieve on ${port} gave ${r.status}: ${await r.text()}`);
  const hits = await r.json();
  if (hits[0]?.name !== "Nat.add_comm'") fail(`POST /retrieve on ${port} answered ${JSON.stringify(hits)}`);
}

const [a, b] = await Promise.all([replica(), replica()]);
for (const r of [a, b]) {
  const health = await fetch(`http://127.0.0.1:${r.port}/max-new-premises`);
  if (health.status !== 200) fail(`the HEALTHCHECK route answered ${health.status}`);
  await retrieve(r.port);
}
say(`the image's entry command (${entry.join(' ')} --port N) serves: replicas on ${a.port} and ${b.port}`);

const hasNginx = (process.env.PATH ?? '').split(':').some((d) => d && existsSync(join(d, 'nginx')));
if (!hasNginx) {
  say('nginx is not installed (apt-get install nginx-light): the replica pair behind it is not tested');
  cleanup();
  process.exit(0);
}

// deploy/nginx.conf with its ports, pid file and logs moved into the temporary directory
const front = await freePort();
let conf = readFileSync(join(repo, 'deploy/nginx.conf'), 'utf8');
const edits = [
  [/server 127\.0\.0\.1:8765 /, `server 127.0.0.1:${a.port} `],
  [/server 127\.0\.0\.1:8766 /, `server 127.0.0.1:${b.port} `],
  [/listen 8080;/, `listen 127.0.0.1:${front};`],
  [/pid \/run\/premise-lsp-nginx\.pid;/, `pid ${tmp}/nginx.pid;`],
  [/access_log off;/, `log_format up '$upstream_addr $status'; access_log ${tmp}/access.log up;`],
];
for (const [re, to] of edits) {
  if (!re.test(conf)) fail(`deploy/nginx.conf no longer has ${re}`);
  conf = conf.replace(re, to);
}
writeFileSync(join(tmp, 'nginx.conf'), conf);
const nginxErr = openSync(join(tmp, 'nginx.err'), 'w'); // its error log: a stopped replica's refusals are expected
const nginx = spawn('nginx', ['-p', tmp, '-c', join(tmp, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'inherit', nginxErr] });
children.push(nginx);
nginx.on('exit', (code) => fail(`nginx exited ${code}`));
for (let i = 0; ; i++) {
  const ok = await fetch(`http://127.0.0.1:${front}/max-new-premises`).then((r) => r.ok, () => false);
  if (ok) break;
  if (i > 100) fail('nginx did not answer in 10 s');
  await new Promise((r) => setTimeout(r, 100));
}

const N = 20;
for (let i = 0; i < N; i++) await retrieve(front);
const log = () => readFileSync(join(tmp, 'access.log'), 'utf8');
await new Promise((r) => setTimeout(r, 200)); // nginx writes its log lines as requests finish
for (const r of [a, b]) if (!log().includes(`127.0.0.1:${r.port} 200`)) fail(`nginx sent nothing to the replica on ${r.port}:\n${log()}`);
say(`${N} requests through nginx on ${front}, answered by both replicas`);

a.proc.kill('SIGTERM');
await new Promise((r) => a.proc.once('exit', r));
for (let i = 0; i < N; i++) await retrieve(front);
say(`replica ${a.port} stopped: ${N} more requests, all answered by ${b.port}`);
nginx.removeAllListeners('exit');
nginx.kill('SIGTERM');
await new Promise((r) => nginx.once('exit', r));
cleanup();
say('ok');
process.exit(0);
