/**
 * The Emacs client (clients/emacs/premise-lsp.el) in a real `emacs --batch`:
 * its ERT suite (clients/emacs/test/premise-lsp-test.el) starts Eglot with the
 * standalone server and the fixture engine on copies of Complete.lean, drives
 * completion, premise-lsp-insert and premise-lsp-search, and writes what the
 * editor did to a JSON file read here.
 */
import { existsSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexes/src/build.js';
import { fixtureCopy, ROOT, run, SERVE, serverCommand, skipReason, type Run, expectErtPassed, runLog } from './util.js';

const SAMPLE = join(ROOT, 'test/fixtures/sample');

const skip = skipReason('emacs');

describe.skipIf(skip !== undefined)('emacs client (emacs --batch, eglot, ERT)', () => {
  let proc: Run;
  let out: any;
  let fixture: string;

  beforeAll(async () => {
    fixture = fixtureCopy('Complete.lean');
    const outPath = join(dirname(fixture), 'emacs-out.json');
    // a real index of the sample, whose hits carry the uri of their source (C-u premise-lsp-search visits it)
    const index = join(dirname(fixture), 'sample-idx');
    await buildIndex({ sources: [SAMPLE], out: index });
    proc = await run('emacs', ['--batch', '-l', 'ert', '-l', join(ROOT, 'clients/emacs/test/premise-lsp-test.el'), '-f', 'ert-run-tests-batch-and-exit'], {
      env: {
        PREMISE_LSP_TEST_SERVER: JSON.stringify(serverCommand()),
        PREMISE_LSP_TEST_INDEX_SERVER: JSON.stringify([process.execPath, SERVE, 'serve', '--stdio', '--index', index]),
        PREMISE_LSP_TEST_FAKE_LEAN: JSON.stringify([process.execPath, join(ROOT, 'test/doubles/fake-lean.mjs')]), // a server that is not premise-lsp
        PREMISE_LSP_TEST_FIXTURE: fixture,
        PREMISE_LSP_TEST_OUT: outPath,
      },
      timeoutMs: 25_000,
    });
    out = existsSync(outPath) ? JSON.parse(readFileSync(outPath, 'utf8')) : {};
  }, 40_000);

  afterAll(() => {
    if (fixture) rmSync(dirname(fixture), { recursive: true, force: true });
  });

  const log = () => `emacs ${runLog(proc)}`;

  it('runs the ERT suite with every test passing and none skipped', () => expectErtPassed(proc, 13));

  it('Eglot completion offers the ranked premises after "rw [" and completes "Nat.mu"', () => {
    expect(out.completion?.[0], log()).toBe('Nat.add_comm');
    expect(out.completion).toEqual(expect.arrayContaining(['Nat.add_zero', 'Nat.mul_comm']));
    expect(out.capf_line).toBe('  simp [Nat.mul_comm');
  });

  it('premise-lsp-insert applies the first "Insert premise" code action', () => {
    expect(out.insert_menu, log()).toEqual(['Nat.add_comm', 'Nat.add_zero']); // codeActions.max = 2 from the settings
    expect(out.insert_line).toBe('  rw [Nat.add_comm]');
  });

  it('premise-lsp-search runs premise-lsp.search and inserts the chosen name', () => {
    expect(out.search_line, log()).toBe('  exact Nat.le_of_lt_succ');
    expect(out.search_at_point?.[0]).toBe('Nat.mul_comm');
  });

  it("C-u premise-lsp-search visits the picked premise's source at its declaration; without a uri it says so", () => {
    expect(out.visit_file && realpathSync(out.visit_file), log()).toBe(realpathSync(join(SAMPLE, 'lean/Sample/Order.lean')));
    expect(out.visit_line).toBe('/-- The triangle inequality for absolute values of integers. -/');
    expect(out.visit_unknown).toMatch(/the source of Nat\.le_of_lt_succ is not known/);
  });
});

describe.skipIf(skip !== undefined)('emacs live picker, premise-lsp-pick (emacs --batch, eglot, ERT, the sample\'s index)', () => {
  let proc: Run;
  let out: any;
  let fixture: string;

  beforeAll(async () => {
    fixture = fixtureCopy('Complete.lean');
    const outPath = join(dirname(fixture), 'emacs-picker-out.json');
    const index = join(dirname(fixture), 'sample-idx');
    await buildIndex({ sources: [SAMPLE], out: index });
    proc = await run('emacs', ['--batch', '-l', 'ert', '-l', join(ROOT, 'clients/emacs/test/premise-lsp-picker-test.el'), '--eval', '(ert-run-tests-batch-and-exit "premise-lsp-picker-")'], {
      env: {
        PREMISE_LSP_TEST_INDEX_SERVER: JSON.stringify([process.execPath, SERVE, 'serve', '--stdio', '--index', index]),
        PREMISE_LSP_TEST_FIXTURE: fixture,
        PREMISE_LSP_TEST_OUT: outPath,
      },
      timeoutMs: 40_000,
    });
    out = existsSync(outPath) ? JSON.parse(readFileSync(outPath, 'utf8')) : {};
  }, 60_000);

  afterAll(() => {
    if (fixture) rmSync(dirname(fixture), { recursive: true, force: true });
  });

  const log = () => `emacs ${runLog(proc)}`;

  it('runs the picker\'s ERT tests with every one passing and none skipped', () => expectErtPassed(proc, 8));

  it('in the minibuffer, *Completions* shows the results of the text as it is typed (replies arrive in a process filter)', () => {
    expect(out.picker_completions, log()).toHaveLength(2);
    expect(out.picker_completions[0]).toMatch(/Possible completions are:\nSample\.Lists\.length_append' /);
    expect(out.picker_completions[1]).toMatch(/Possible completions are:\nSample\.Order\.abs_add_le /);
  });

  it('typing updates the results; the preview shows statement, docstring and module', () => {
    expect(out.picker_sent, log()).toEqual(expect.arrayContaining(['length of a list append', 'triangle inequality']));
    expect(out.picker_sent).not.toContain('tri'); // typed quickly: debounced
    expect(out.picker_preview).toContain('|a + b| ≤ |a| + |b|');
    expect(out.picker_preview).toContain('module Sample.Order');
  });

  it('a stale search is cancelled with $/cancelRequest', () => {
    expect(out.picker_cancelled, log()).toHaveLength(1);
  });

  it('RET inserts the name; the jump key visits the source; \\le in the Lean input method is ≤ in the search', () => {
    expect(out.picker_enter_line, log()).toBe('  exact Sample.Order.abs_add_le');
    expect(out.picker_jump_file && realpathSync(out.picker_jump_file)).toBe(realpathSync(join(SAMPLE, 'lean/Sample/Order.lean')));
    expect(out.picker_jump_line).toBe('/-- The triangle inequality for absolute values of integers. -/');
    expect(out.picker_unicode).toBe('a ≤ b ∧ c');
  });
});
