/**
 * The Neovim client (clients/nvim) in a real, headless Neovim: the plugin is
 * set up against the standalone server with the fixture engine, on a copy of
 * Complete.lean; test/clients/nvim/run.lua drives omnifunc completion,
 * :PremiseInsert, :PremiseSearch and :PremiseSearch! and writes what the editor
 * did to a JSON file read here.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCopy, ROOT, run, serverCommand, skipReason, type Run } from './util.js';

const skip = skipReason('nvim');

describe.skipIf(skip !== undefined)('neovim client (headless nvim)', () => {
  let out: any;
  let proc: Run;
  let file: string;

  beforeAll(async () => {
    file = fixtureCopy('Complete.lean');
    const outPath = join(dirname(file), 'nvim-out.json');
    proc = await run(
      'nvim',
      ['--headless', '--clean', '--cmd', `set rtp^=${join(ROOT, 'clients/nvim')}`, '-S', join(ROOT, 'test/clients/nvim/run.lua'), file],
      { env: { PREMISE_LSP_OUT: outPath, PREMISE_LSP_CMD: JSON.stringify(serverCommand()) }, timeoutMs: 20_000 },
    );
    const diag = `nvim exit ${proc.code} after ${proc.ms} ms${proc.timedOut ? ' (killed: timeout)' : ''}\nstderr:\n${proc.stderr.slice(-2000)}`;
    if (!existsSync(outPath)) throw new Error(`nvim wrote no result\n${diag}`);
    out = JSON.parse(readFileSync(outPath, 'utf8'));
    if (out.error) throw new Error(`nvim test script failed: ${out.error}\n${diag}`);
  }, 30_000);

  afterAll(() => {
    if (file) rmSync(dirname(file), { recursive: true, force: true });
  });

  it('detects the lean filetype and attaches premise-lsp', () => {
    expect(proc.timedOut).toBe(false);
    expect(out.filetype).toBe('lean');
    expect(out.server_name).toBe('premise-lsp');
  });

  it('offers premises in the omnifunc completion menu after "rw ["', () => {
    expect(out.steps.completion).toBe('ok');
    // standalone: the query is add_comm_demo's statement, so Nat.add_comm ranks first
    expect(out.completion[0]).toBe('Nat.add_comm');
    expect(out.completion).toEqual(expect.arrayContaining(['Nat.add_zero', 'Nat.mul_comm']));
  });

  it(':PremiseInsert applies the first "Insert premise" code action', () => {
    expect(out.steps.insert).toBe('ok');
    const menu = out.select.find((s: any) => s.prompt === 'Insert premise:');
    // settings reached the server as initializationOptions: codeActions.max = 2
    expect(menu.items).toHaveLength(2);
    expect(menu.items[0]).toBe('Nat.add_comm');
    expect(out.insert_line).toBe('  rw [Nat.add_comm]');
  });

  it(':PremiseSearch <text> runs premise-lsp.search and inserts the chosen name', () => {
    expect(out.steps.search).toBe('ok');
    const menu = out.select.find((s: any) => s.prompt === 'Premises:');
    expect(menu.items[0]).toMatch(/^Nat\.le_of_lt_succ /);
    expect(out.search_line).toBe('  exact Nat.le_of_lt_succ');
  });

  it(':PremiseSearch! without text searches at the cursor into the quickfix list', () => {
    expect(out.steps.search_goal).toBe('ok');
    expect(out.quickfix[0]).toMatch(/^Nat\.mul_comm /);
  });

  it('leaves the file on disk untouched (edits are buffer edits)', () => {
    expect(readFileSync(file, 'utf8')).toBe(readFileSync(join(ROOT, 'test/fixtures/lsp/Complete.lean'), 'utf8'));
  });
});
