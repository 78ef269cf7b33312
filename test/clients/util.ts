/**
 * Helpers for the editor-client tests: find an editor on PATH, copy a fixture
 * into a temp dir, run an editor process with a hard time limit.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { expect } from 'vitest';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const SERVE = join(ROOT, 'dist/cli.js');
export const PREMISES = join(ROOT, 'test/fixtures/lsp/premises.json');

/** The standalone server with the fixture engine, as an argv. */
export function serverCommand(): string[] {
  if (!existsSync(SERVE)) throw new Error(`${SERVE} is missing: run \`npx tsup\` first`);
  return [process.execPath, SERVE, 'serve', '--stdio', '--fake-engine', PREMISES];
}

/** Is `cmd` runnable (on PATH and answering `--version`)? */
export function onPath(cmd: string): boolean {
  const r = spawnSync(cmd, ['--version'], { stdio: 'ignore', timeout: 10_000 });
  return r.error === undefined && r.status === 0;
}

export function skipReason(cmd: string): string | undefined {
  if (onPath(cmd)) return undefined;
  const reason = `${cmd} is not on PATH: skipping the ${cmd} client tests (CI installs it, see .ci/run)`;
  console.warn(reason);
  return reason;
}

/** Copy test/fixtures/lsp/<name> into a fresh temp dir; returns the copy's path. */
export function fixtureCopy(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'premise-lsp-client-'));
  const dest = join(dir, name);
  copyFileSync(join(ROOT, 'test/fixtures/lsp', name), dest);
  return dest;
}

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  timedOut: boolean;
}

/** Run an editor with no terminal input; killed (process group) after `timeoutMs`. */
export function run(cmd: string, args: string[], opts: { env?: Record<string, string>; timeoutMs?: number; cwd?: string } = {}): Promise<Run> {
  const t0 = Date.now();
  return new Promise((res, rej) => {
    const p = spawn(cmd, args, { cwd: opts.cwd ?? ROOT, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-p.pid!, 'SIGKILL');
      } catch {
        p.kill('SIGKILL');
      }
    }, opts.timeoutMs ?? 20_000);
    p.on('error', (e) => {
      clearTimeout(timer);
      rej(e);
    });
    p.on('close', (code, signal) => {
      clearTimeout(timer);
      res({ code, signal, stdout, stderr, ms: Date.now() - t0, timedOut });
    });
  });
}

/** What an editor run printed, for assertion messages. */
export function runLog(proc: Run): string {
  return `exit ${proc.code} after ${proc.ms} ms${proc.timedOut ? ' (killed: timeout)' : ''}\n${(proc.stdout + proc.stderr).slice(-4000)}`;
}

/** An ERT run that ran at least `min` tests, every one as expected and none skipped. */
export function expectErtPassed(proc: Run, min: number): void {
  const log = runLog(proc);
  expect(proc.timedOut, log).toBe(false);
  expect(proc.code, log).toBe(0);
  const summary = /Ran (\d+) tests, (\d+) results as expected, (\d+) unexpected(?:, (\d+) skipped)?/.exec(proc.stdout + proc.stderr);
  expect(summary, log).not.toBeNull();
  const [, ran, expected, unexpected, skipped] = summary!;
  expect(Number(ran)).toBeGreaterThanOrEqual(min);
  expect(Number(expected), log).toBe(Number(ran));
  expect(Number(unexpected)).toBe(0);
  expect(Number(skipped ?? 0), log).toBe(0);
}
