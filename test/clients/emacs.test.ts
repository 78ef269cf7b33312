/**
 * The Emacs client (clients/emacs/premise-lsp.el) in a real `emacs --batch`:
 * its ERT suite (clients/emacs/test/premise-lsp-test.el) starts Eglot with the
 * standalone server and the fixture engine on copies of Complete.lean, drives
 * completion, premise-lsp-insert and premise-lsp-search, and writes what the
 * editor did to a JSON file read here.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexes/src/build.js';
import { lakeFixture, type LakeFixture } from '../unit/lake-project.js';
import { globalInstall, snippet } from './snippets.js';
import { fixtureCopy, ROOT, run, SERVE, serverCommand, skipReason, type Run, expectErtPassed, runLog } from './util.js';

const SAMPLE = join(ROOT, 'test/fixtures/sample');

const skip = skipReason('emacs');
const hasUsePackage = !skip && spawnSync('emacs', ['--batch', '--eval', '(kill-emacs (if (locate-library "use-package") 0 3))'], { stdio: 'ignore', timeout: 20_000 }).status === 0;

describe.skipIf(skip !== undefined)('emacs client (emacs --batch, eglot, ERT)', () => {
  let proc: Run;
  let out: any;
  let fixture: string;
  let project: LakeFixture;
  let install: ReturnType<typeof globalInstall>;

  beforeAll(async () => {
    if (!hasUsePackage) console.warn('use-package is not installed for emacs: the README\'s use-package recipe is not run (CI installs elpa-use-package, see .ci/run)');
    // the documentation's snippets run on a global install of this checkout, on a small Lake project
    project = lakeFixture();
    install = globalInstall();
    fixture = fixtureCopy('Complete.lean');
    const outPath = join(dirname(fixture), 'emacs-out.json');
    // a real index of the sample, whose hits carry the uri of their source (C-u premise-lsp-search visits it)
    const index = join(dirname(fixture), 'sample-idx');
    await buildIndex({ sources: [SAMPLE], out: index });
    proc = await run('emacs', ['--batch', '-l', 'ert', '-l', join(ROOT, 'clients/emacs/test/premise-lsp-test.el'), '-f', 'ert-run-tests-batch-and-exit'], {
      env: {
        ...install.env,
        PREMISE_LSP_TEST_PROJECT_FILE: project.wsFile,
        PREMISE_LSP_TEST_SNIPPET_EMACS_EGLOT: snippet('README.md', 'emacs-eglot').body,
        PREMISE_LSP_TEST_SNIPPET_EMACS_USE_PACKAGE: snippet('docs/editors.md', 'emacs-use-package').body,
        PREMISE_LSP_TEST_SNIPPET_EMACS_PICKER: snippet('docs/editors.md', 'emacs-picker').body,
        PREMISE_LSP_TEST_SERVER: JSON.stringify(serverCommand()),
        PREMISE_LSP_TEST_INDEX_SERVER: JSON.stringify([process.execPath, SERVE, 'serve', '--stdio', '--index', index]),
        PREMISE_LSP_TEST_FAKE_LEAN: JSON.stringify([process.execPath, join(ROOT, 'test/doubles/fake-lean.mjs')]), // a server that is not premise-lsp
        PREMISE_LSP_TEST_FIXTURE: fixture,
        PREMISE_LSP_TEST_TRY_SERVER: JSON.stringify([process.execPath, SERVE, 'serve', '--stdio', '--fake-engine', join(ROOT, 'test/fixtures/lsp/trial-premises.json'), '--', process.execPath, join(ROOT, 'test/doubles/fake-lean.mjs')]),
        PREMISE_LSP_TEST_TRY_FIXTURE: join(ROOT, 'test/fixtures/lsp/Trials.lean'),
        PREMISE_LSP_TEST_OUT: outPath,
      },
      timeoutMs: 150_000,
    });
    out = existsSync(outPath) ? JSON.parse(readFileSync(outPath, 'utf8')) : {};
  }, 180_000);

  afterAll(() => {
    if (fixture) rmSync(dirname(fixture), { recursive: true, force: true });
    if (project) rmSync(dirname(project.root), { recursive: true, force: true });
    if (install) rmSync(install.prefix, { recursive: true, force: true });
  });

  const log = () => `emacs ${runLog(proc)}`;

  it('runs the ERT suite with every test passing and none skipped', () => expectErtPassed(proc, hasUsePackage ? 20 : 19));

  it('Eglot completion offers the ranked premises after "rw [" and completes "Nat.mu"', () => {
    expect(out.completion?.[0], log()).toBe('Nat.add_comm');
    expect(out.completion).toEqual(expect.arrayContaining(['Nat.add_zero', 'Nat.mul_comm']));
    expect(out.capf_line).toBe('  simp [Nat.mul_comm');
  });

  it('premise-lsp-insert applies the first "Insert premise" code action', () => {
    expect(out.insert_menu, log()).toEqual(['Nat.add_comm', 'Nat.add_zero']); // codeActions.max = 2 from the settings
    expect(out.insert_line).toBe('  rw [Nat.add_comm]');
  });

  it('premise-lsp-try offers the steps Lean checked, the closing one first, and puts the pick in place of the step', () => {
    expect(out.try_menu?.[0], log()).toBe('✓ exact add_comm a b — closes the goal');
    expect(out.try_menu.every((t: string) => t.startsWith('✓') || t.includes('makes progress'))).toBe(true);
    expect(out.try_line).toBe('  exact add_comm a b');
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
  // the documentation's snippets, the doctor, the server's messages (the same ERT run)
  it('the README\'s emacs-eglot and docs/editors.md emacs-use-package: found beside the premise-lsp command, premise-lsp --lean ROOT in lean4-mode, the automatic index served', async () => {
    const root = (cmd: string[]) => cmd[cmd.indexOf('--lean') + 1];
    for (const name of ['emacs-eglot', ...(hasUsePackage ? ['emacs-use-package'] : [])]) {
      const key = name.replace(/-/g, '_');
      const s = snippet(name === 'emacs-eglot' ? 'README.md' : 'docs/editors.md', name);
      expect(s.body).not.toMatch(/premise-lsp-index/); // relies on the automatic index
      const cmd: string[] = out[`${key}_command`];
      expect(cmd?.slice(0, 4), name).toEqual(['premise-lsp', 'serve', '--stdio', '--lean']);
      expect(root(cmd)).toBe(project.root);
      expect(out[`${key}_names`]).toContain('Proj.quux_wibble');
      // the package's directory, found beside the premise-lsp command of the install
      expect(out[`${key}_load_path`]?.map((d: string) => realpathSync(d))).toEqual([realpathSync(join(ROOT, 'clients/emacs'))]);
    }
  });

  it('docs/editors.md emacs-picker: C-c C-s runs premise-lsp-pick in lean4-mode buffers', () => {
    expect(out.snippet_picker_key, log()).toBe('premise-lsp-pick');
  });

  it('M-x premise-lsp-doctor: command, server start, no index setting, lake; errors for a missing index and a missing command', () => {
    expect(out.doctor_ok).toMatch(/OK +the server starts and answers initialize/);
    expect(out.doctor_ok).not.toMatch(/ERROR/);
    expect(out.doctor_bad_index).toMatch(/ERROR +index \(`premise-lsp-index'\) \/nonexistent\/premise-lsp-index has no manifest.json/);
    expect(out.doctor_missing).toMatch(/ERROR +`premise-lsp-not-installed-here' is not installed or not on PATH/);
  });

  it('an index that does not exist: the server\'s window/showMessage is in *Messages*, naming it and the command that builds one', () => {
    const line = (out.show_message as string).split('\n').find((l) => l.includes('could not load the premise index'));
    expect(line, log()).toContain('/nonexistent/premise-lsp-idx');
    expect(line).toContain('premise-lsp index');
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
