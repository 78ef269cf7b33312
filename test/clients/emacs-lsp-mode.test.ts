/**
 * The Emacs client under lsp-mode (clients/emacs/premise-lsp-lsp.el) in a real
 * `emacs --batch` with Debian's elpa-lsp-mode: its ERT suite
 * (clients/emacs/test/premise-lsp-lsp-test.el) defines stand-ins for lean4-mode
 * and isabelle-emacs that register their lsp-mode clients as those packages
 * do, with the fake Lean / fake Isabelle as servers, and drives completion,
 * premise-lsp-insert and premise-lsp-search with premise-lsp wrapped in front
 * of their client (proxy) and beside it (add-on). What the editor did is
 * written to a JSON file read here.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexes/src/build.js';
import { lakeFixture, type LakeFixture } from '../unit/lake-project.js';
import { globalInstall, snippet } from './snippets.js';
import { ROOT, run, SERVE, serverCommand, skipReason, type Run, expectErtPassed, runLog } from './util.js';

const SAMPLE = join(ROOT, 'test/fixtures/sample');

function lspModeSkip(): string | undefined {
  const emacs = skipReason('emacs');
  if (emacs) return emacs;
  const r = spawnSync('emacs', ['--batch', '--eval', '(progn (unless (locate-library "lsp-mode") (package-initialize)) (kill-emacs (if (locate-library "lsp-mode") 0 3)))'], { stdio: 'ignore', timeout: 20_000 });
  if (r.status === 0) return undefined;
  const reason = 'lsp-mode is not installed for emacs: skipping the lsp-mode client tests (CI installs elpa-lsp-mode, see .ci/run)';
  console.warn(reason);
  return reason;
}

const skip = lspModeSkip();

describe.skipIf(skip !== undefined)('emacs client (emacs --batch, lsp-mode, ERT)', () => {
  let proc: Run;
  let out: any;
  let dir: string;
  let project: LakeFixture;
  let install: ReturnType<typeof globalInstall>;

  beforeAll(async () => {
    project = lakeFixture();
    install = globalInstall();
    dir = mkdtempSync(join(tmpdir(), 'premise-lsp-lsp-mode-'));
    const outPath = join(dir, 'out.json');
    // a real index of the sample, whose hits carry the uri of their source (C-u premise-lsp-search visits it)
    const index = join(dir, 'sample-idx');
    await buildIndex({ sources: [SAMPLE], out: index });
    proc = await run('emacs', ['--batch', '-l', 'ert', '-l', join(ROOT, 'clients/emacs/test/premise-lsp-lsp-test.el'), '-f', 'ert-run-tests-batch-and-exit'], {
      env: {
        ...install.env,
        PREMISE_LSP_TEST_PROJECT_FILE: project.wsFile,
        PREMISE_LSP_TEST_SNIPPET_EMACS_LSP_MODE: snippet('docs/editors.md', 'emacs-lsp-mode').body,
        PREMISE_LSP_TEST_SERVER: JSON.stringify(serverCommand()),
        PREMISE_LSP_TEST_INDEX_SERVER: JSON.stringify([process.execPath, SERVE, 'serve', '--stdio', '--index', index]),
        PREMISE_LSP_TEST_FAKE_LEAN: JSON.stringify([process.execPath, join(ROOT, 'test/doubles/fake-lean.mjs')]),
        PREMISE_LSP_TEST_FAKE_ISABELLE: JSON.stringify([process.execPath, join(ROOT, 'test/doubles/fake-isabelle.mjs')]),
        PREMISE_LSP_TEST_FIXTURES: join(ROOT, 'test/fixtures/lsp'),
        PREMISE_LSP_TEST_OUT: outPath,
        HOME: dir, // lsp-mode writes its session and server caches under ~/.emacs.d
      },
      timeoutMs: 150_000,
    });
    out = existsSync(outPath) ? JSON.parse(readFileSync(outPath, 'utf8')) : {};
  }, 180_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    if (project) rmSync(dirname(project.root), { recursive: true, force: true });
    if (install) rmSync(install.prefix, { recursive: true, force: true });
  });

  const log = () => `emacs ${runLog(proc)}`;

  it('runs the ERT suite with every test passing and none skipped', () => expectErtPassed(proc, 11));

  for (const [setup, prefix] of [
    ['lean4-mode-style (premise-lsp wrapping lean4-mode\'s client)', 'proxy'],
    ['add-on (premise-lsp beside lean4-mode\'s client)', 'add_on'],
  ] as const) {
    it(`${setup}: completion after "rw [", the insert action in the buffer, the search command`, () => {
      expect(out[`${prefix}_completion`], log()).toEqual(expect.arrayContaining(['Nat.add_comm', 'Nat.mul_comm']));
      expect(out[`${prefix}_insert_menu`]).toEqual(['Nat.add_comm', 'Nat.add_zero']); // codeActions.max = 2 reached the server
      expect(out[`${prefix}_insert_line`]).toBe('  rw [Nat.add_comm]');
      expect(out[`${prefix}_search_line`]).toBe('  exact Nat.le_of_lt_succ');
    });
  }

  it('lean4-mode-style: the goal comes from Lean through the proxy, lean4-mode\'s own handlers still run', () => {
    expect(out.proxy_search_source, log()).toBe('goal:plainGoal');
    expect(out.proxy_search_at_point[0]).toBe('Nat.mul_comm');
    expect(out.proxy_file_progress).toBeGreaterThan(0);
    expect(out.add_on_search_source).toBe('declaration');
  });

  it('premise-lsp-try through lsp-mode: the steps Lean checked, the closing one first, put in place of the step', () => {
    expect(out.try_menu?.[0], log()).toBe('✓ exact Nat.add_comm a b — closes the goal');
    expect(out.try_line).toBe('  exact Nat.add_comm a b');
  });

  it('isabelle-emacs-style: premise-lsp wraps lsp-isar, goals from PIDE/dynamic_output, premises in completion', () => {
    expect(out.isabelle_search_source, log()).toBe('goal:dynamic_output');
    expect(out.isabelle_search_at_point[0]).toBe('Nat.add_0_right');
    expect(out.isabelle_completion).toContain('Nat.add_0_right');
  });

  it('docs/editors.md emacs-lsp-mode: premise-lsp (from PATH) wraps lean4-mode\'s client, the project is indexed by itself', () => {
    expect(snippet('docs/editors.md', 'emacs-lsp-mode').body).not.toMatch(/premise-lsp-index/);
    expect(out.snippet_command?.slice(0, 6), log()).toEqual(['premise-lsp', 'serve', '--stdio', '--flavor', 'lean', '--']);
    expect(out.snippet_names).toContain('Proj.quux_wibble');
    // the package's directory, found beside the premise-lsp command of the install
    expect(out.snippet_load_path?.map((d: string) => realpathSync(d))).toEqual([realpathSync(join(ROOT, 'clients/emacs'))]);
  });

  it('an index that does not exist, premise-lsp in front of lean4-mode\'s client: its window/showMessage is in *Messages*', () => {
    const line = (out.show_message as string).split('\n').find((l) => l.includes('could not load the premise index'));
    expect(line, log()).toContain('/nonexistent/premise-lsp-idx');
    expect(line).toContain('premise-lsp index');
  });

  it('the add-on in plain .lean/.thy buffers: lsp-mode knows their language ids, *Warnings* stays empty', () => {
    expect(out.add_on_warnings, log()).toBe('');
  });

  it("C-u premise-lsp-search visits the picked premise's source at its declaration; without a uri it says so", () => {
    expect(out.visit_file && realpathSync(out.visit_file), log()).toBe(realpathSync(join(SAMPLE, 'lean/Sample/Order.lean')));
    expect(out.visit_line).toBe('/-- The triangle inequality for absolute values of integers. -/');
    expect(out.add_on_visit_unknown).toMatch(/the source of Nat\.le_of_lt_succ is not known/);
  });
});

describe.skipIf(skip !== undefined)('emacs live picker under lsp-mode (emacs --batch, ERT, the sample\'s index)', () => {
  let proc: Run;
  let out: any;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'premise-lsp-lsp-mode-picker-'));
    const outPath = join(dir, 'out.json');
    const index = join(dir, 'sample-idx');
    await buildIndex({ sources: [SAMPLE], out: index });
    proc = await run('emacs', ['--batch', '-l', 'ert', '-l', join(ROOT, 'clients/emacs/test/premise-lsp-picker-lsp-test.el'), '--eval', '(ert-run-tests-batch-and-exit "premise-lsp-picker-")'], {
      env: {
        PREMISE_LSP_TEST_SERVER: JSON.stringify(serverCommand()),
        PREMISE_LSP_TEST_INDEX_SERVER: JSON.stringify([process.execPath, SERVE, 'serve', '--stdio', '--index', index]),
        PREMISE_LSP_TEST_FAKE_LEAN: JSON.stringify([process.execPath, join(ROOT, 'test/doubles/fake-lean.mjs')]),
        PREMISE_LSP_TEST_FAKE_ISABELLE: JSON.stringify([process.execPath, join(ROOT, 'test/doubles/fake-isabelle.mjs')]),
        PREMISE_LSP_TEST_FIXTURES: join(ROOT, 'test/fixtures/lsp'),
        PREMISE_LSP_TEST_OUT: outPath,
        HOME: dir,
      },
      timeoutMs: 40_000,
    });
    out = existsSync(outPath) ? JSON.parse(readFileSync(outPath, 'utf8')) : {};
  }, 60_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('premise-lsp-pick: a stale search is cancelled with $/cancelRequest (lsp-mode\'s cancel token), RET inserts the name', () => {
    expectErtPassed(proc, 1);
    expect(out.picker_lsp_cancel_notes, runLog(proc)).toHaveLength(1);
    expect(out.picker_lsp_enter_line).toBe('  exact Sample.Order.abs_add_le');
  });
});
