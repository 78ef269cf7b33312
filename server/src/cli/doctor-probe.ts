/**
 * The processes `premise-lsp doctor` starts: a prover's short version command
 * (`lake --version`, `isabelle version`) and the server itself (`serve --stdio`:
 * initialize, shutdown, exit). Each has a time limit and never throws.
 */
import { execFile, spawn } from 'node:child_process';
import { JsonRpcClient } from '../jsonrpc/client.js';

export interface ProbeResult {
  ok: boolean;
  /** The first line of the command's output, or what went wrong. */
  detail: string;
}

/** Runs a short command; ok when it exits 0. */
export function runShort(command: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<ProbeResult> {
  return new Promise((done) => {
    execFile(command, args, { cwd: opts.cwd, env: opts.env, encoding: 'utf8', timeout: opts.timeoutMs ?? 60_000 }, (err, stdout, stderr) => {
      const first = (s: string) => s.split('\n').find((l) => l.trim())?.trim() ?? '';
      if (!err) return done({ ok: true, detail: first(stdout) || first(stderr) });
      const e = err as NodeJS.ErrnoException & { killed?: boolean };
      if (e.code === 'ENOENT') return done({ ok: false, detail: `${command} is not on PATH` });
      if (e.killed) return done({ ok: false, detail: `${command} ${args.join(' ')} did not answer in ${Math.round((opts.timeoutMs ?? 60_000) / 1000)} s` });
      done({ ok: false, detail: `${command} ${args.join(' ')} failed: ${first(stderr) || first(stdout) || e.message}` });
    });
  });
}

/** Starts `node <cli> serve --stdio` and goes through initialize, shutdown and exit. */
export async function serverStarts(cli: string, timeoutMs = 30_000): Promise<ProbeResult> {
  const child = spawn(process.execPath, [cli, 'serve', '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-2000)));
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', () => resolve(null));
  });
  const tail = () => stderr.trim().split('\n').slice(-3).join(' | ');
  const client = new JsonRpcClient(child.stdout!, child.stdin!, { timeoutMs, describe: tail });
  child.stdin!.on('error', () => {}); // a server that died: reported below
  const t0 = performance.now();
  try {
    const init = await Promise.race([client.request('initialize', { processId: process.pid, rootUri: null, capabilities: {} }), exited.then((c) => Promise.reject(new Error(`the server exited with code ${c}`)))]);
    if (init.error || !init.result?.capabilities) throw new Error(`initialize failed: ${init.error?.message ?? 'no capabilities in the reply'}`);
    const seconds = (performance.now() - t0) / 1000;
    client.notify('initialized', {});
    await client.request('shutdown');
    client.notify('exit');
    const code = await Promise.race([exited, new Promise<'hang'>((r) => setTimeout(() => r('hang'), timeoutMs).unref())]);
    if (code !== 0) throw new Error(code === 'hang' ? 'the server did not exit after shutdown' : `the server exited with code ${code} after shutdown`);
    const info = init.result.serverInfo as { name?: string; version?: string } | undefined;
    return { ok: true, detail: `initialize answered in ${seconds.toFixed(1)} s${info?.name ? ` (${info.name} ${info.version ?? ''})`.replace(' )', ')') : ''}, shut down cleanly` };
  } catch (e) {
    child.kill();
    const t = tail();
    return { ok: false, detail: `${(e as Error).message}${t && !(e as Error).message.includes(t) ? `: ${t}` : ''}` };
  }
}
