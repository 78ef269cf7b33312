import { tmpdir } from 'node:os';
import { basename } from 'node:path';
import { expect, test } from 'vitest';

// test/global-setup.ts gives each run its own TMPDIR, removed when the run ends.
test('temporary files of a test run go to the run’s own directory', () => {
  expect(basename(tmpdir())).toMatch(/^premise-lsp-test-/);
  // what the run's child processes inherit
  expect(process.env.TMPDIR).toBe(tmpdir());
});
