/** Starts `premise-lsp http --index <index> --port 0 <args…>` for the soak scripts; resolves to {server, base} once it listens. */
import { spawn } from 'node:child_process';

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
