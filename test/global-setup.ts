/**
 * One temporary directory per test run. Every test, and every process a test
 * starts (the built server, fake Lean and Isabelle, Neovim, Emacs), inherits
 * `TMPDIR` pointing into it, so what they leave behind goes with it at the end
 * of the run instead of piling up in the system's temporary directory.
 * Enforced by test/unit/test-tmpdir.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const before = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), 'premise-lsp-test-'));
  process.env.TMPDIR = dir;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(dir, { recursive: true, force: true });
  };
}
