/**
 * SIGTERM, SIGINT or SIGHUP to `premise-lsp serve` ends the session as `exit`
 * does: the prover is stopped (stdin closed, then SIGTERM, then SIGKILL) before
 * premise-lsp exits, even a hung prover that ignores stdin EOF and SIGTERM
 * (a stuck `lake serve`, a JVM Isabelle). Real processes throughout.
 */
import { readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { Editor, FAKE_LEAN, tempFile } from './harness.js';

const editors: Editor[] = [];
const provers: number[] = [];
afterEach(() => {
  for (const e of editors.splice(0)) e.kill();
  for (const pid of provers.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The events the fake prover recorded (its pid, the signals it ignored). */
const events = (log: string) =>
  readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((x) => x.event !== undefined) as Array<{ event: string; pid?: number }>;

describe('a signal to serve', () => {
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    it(`${sig} stops a prover that ignores stdin EOF and SIGTERM, then exits`, async () => {
      const log = tempFile('lean.jsonl');
      const e = Editor.proxy([process.execPath, FAKE_LEAN], { env: { FAKE_TRANSCRIPT: log, FAKE_IGNORE_TERM: '1' } });
      editors.push(e);
      await e.initialize();
      const pid = events(log).find((x) => x.event === 'start')!.pid!;
      provers.push(pid);
      expect(alive(pid)).toBe(true);

      e.proc.kill(sig);
      expect(await e.exited).toBe(128 + constants.signals[sig]);
      // the prover is gone (a hang guard, not a timing assertion: premise-lsp waits for it before exiting)
      for (let i = 0; i < 200 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
      expect(alive(pid)).toBe(false);
      // it took SIGKILL: stdin EOF and SIGTERM were tried first, and ignored
      expect(events(log).map((x) => x.event)).toEqual(expect.arrayContaining(['stdin closed, ignored', 'sigterm ignored']));
      expect(e.stderr).toContain(`${sig} received: stopping the prover`);
    });
  }
});
