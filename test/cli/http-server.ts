/** Starts the built CLI's `http` server for the tests of test/cli/ and waits for the address it prints. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export interface Started {
  server: ChildProcess;
  /** `http://127.0.0.1:PORT` */
  base: string;
  /** What the server has written to stderr so far. */
  stderr(): string;
}

/** `node <cli> http <args…>` (give `--port 0`), resolved once it listens; rejected when it exits first. */
export function startHttp(cli: string, args: string[], env?: NodeJS.ProcessEnv): Promise<Started> {
  const server = spawn(process.execPath, [cli, 'http', ...args], { stdio: ['ignore', 'pipe', 'pipe'], ...(env ? { env } : {}) });
  let stderr = '';
  return new Promise<Started>((res, rej) => {
    server.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(stderr);
      if (m) res({ server, base: m[1]!, stderr: () => stderr });
    });
    server.on('exit', (code) => rej(new Error(`server exited ${code}: ${stderr}`)));
  });
}

/** The bundled sample indexed without vectors into `out`, then served by `http --index out --port 0 <args…>`. */
export async function startSampleHttp(cli: string, root: string, out: string, args: string[] = []): Promise<Started> {
  if (!existsSync(cli)) throw new Error('dist/cli.js is missing: run `npx tsup` (npm test does) first');
  const built = spawnSync(process.execPath, [cli, 'index', join(root, 'test', 'fixtures', 'sample'), '--out', out, '--no-dense'], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(built.stderr);
  return startHttp(cli, ['--index', out, '--port', '0', ...args]);
}
