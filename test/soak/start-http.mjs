/** Starts `premise-lsp http --index <index> --port 0 <args…>` for the soak scripts; resolves to {server, base} once it listens. */
import { spawn } from 'node:child_process';
import { request } from 'node:http';

export function startHttp(cli, index, args = []) {
  const server = spawn(process.execPath, [cli, 'http', '--index', index, '--port', '0', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  return new Promise((resolve, reject) => {
    server.stderr.on('data', (d) => {
      stderr += d;
      const m = /listening on (\S+)/.exec(stderr);
      if (m) resolve({ server, base: m[1] });
    });
    server.on('exit', (code) => reject(new Error(`server exited ${code}: ${stderr}`)));
  });
}

/**
 * Sends a real /retrieve (`body`) every 500 ms for `seconds`, each on its own connection, while the
 * script's hostile clients run; resolves to the answers' latencies (sorted, ms) and their statuses
 * (an error code for a connection refused or reset).
 */
export async function probeRetrieve(base, body, seconds) {
  const times = [];
  const statuses = {};
  const one = () =>
    new Promise((resolve) => {
      const t0 = performance.now();
      const q = request(`${base}/retrieve`, { method: 'POST', agent: false }, (r) => {
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
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    pending.push(one());
    await new Promise((r) => setTimeout(r, 500));
  }
  await Promise.all(pending);
  times.sort((a, b) => a - b);
  return { times, statuses, sent: pending.length };
}
