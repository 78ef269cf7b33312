/**
 * An index given to the server (`--index`, or the editor's `index` setting) that is not
 * there is named as missing, with the command that builds one, not as a corrupt index file.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Editor, requireBuild, SERVE, stderrSays } from './harness.js';

const editors: Editor[] = [];
afterEach(() => {
  for (const e of editors.splice(0)) e.kill();
});

describe('a missing index', () => {
  it.each(['--index', 'the index setting'])('given by %s: "no index at PATH" in the log', async (how) => {
    requireBuild();
    const missing = join(mkdtempSync(join(tmpdir(), 'premise-missing-')), 'mistyped-idx');
    const byFlag = how === '--index';
    const e = new Editor(process.execPath, [SERVE, 'serve', '--stdio', ...(byFlag ? ['--index', missing] : [])], {});
    editors.push(e);
    await e.request('initialize', { processId: null, rootUri: null, capabilities: {}, initializationOptions: byFlag ? undefined : { index: missing } });
    e.notify('initialized', {});
    await stderrSays(e, `no index at ${missing}`);
    expect(e.stderr).toContain(`premise-lsp index <source>... --out ${missing}`);
    expect(e.stderr).not.toMatch(/corrupt/);
    expect(await e.shutdown()).toBe(0);
  });
});
