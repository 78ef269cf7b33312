/**
 * The Neovim client (clients/nvim) in a real, headless Neovim: the plugin is
 * set up against the standalone server with the fixture engine, on a copy of
 * Complete.lean; test/clients/nvim/run.lua drives omnifunc completion,
 * :PremiseInsert, :PremiseSearch and :PremiseSearch! and writes what the editor
 * did to a JSON file read here.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexes/src/build.js';
import { lakeFixture } from '../unit/lake-project.js';
import { globalInstall } from './snippets.js';
import { fixtureCopy, ROOT, run, SERVE, serverCommand, skipReason, type Run } from './util.js';

const skip = skipReason('nvim');

/** Runs a test script of test/clients/nvim/ in headless Neovim with the plugin on the runtime path; what it wrote. */
async function nvimScript(script: string, file: string, outPath: string, env: Record<string, string> = {}, timeoutMs = 20_000): Promise<{ proc: Run; out: any }> {
  const proc = await run(
    'nvim',
    ['--headless', '--clean', '--cmd', `set rtp^=${join(ROOT, 'clients/nvim')}`, '-S', join(ROOT, 'test/clients/nvim', script), file],
    { env: { PREMISE_LSP_OUT: outPath, ...env }, timeoutMs },
  );
  const diag = `nvim exit ${proc.code} after ${proc.ms} ms${proc.timedOut ? ' (killed: timeout)' : ''}\nstderr:\n${proc.stderr.slice(-2000)}`;
  if (!existsSync(outPath)) throw new Error(`nvim wrote no result\n${diag}`);
  const out = JSON.parse(readFileSync(outPath, 'utf8'));
  if (out.error) throw new Error(`nvim test script failed: ${out.error}\n${diag}`);
  return { proc, out };
}

describe.skipIf(skip !== undefined)('neovim client (headless nvim)', () => {
  let out: any;
  let proc: Run;
  let file: string;

  beforeAll(async () => {
    file = fixtureCopy('Complete.lean');
    const outPath = join(dirname(file), 'nvim-out.json');
    ({ proc, out } = await nvimScript('run.lua', file, outPath, { PREMISE_LSP_CMD: JSON.stringify(serverCommand()) }));
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
    // the plugin's setup made <C-x><C-o> work: Neovim 0.7 leaves omnifunc empty
    expect(out.omnifunc).toBe('v:lua.vim.lsp.omnifunc');
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

describe.skipIf(skip !== undefined)('neovim client on a real index: hits carry the uri of their source', () => {
  let out: any;
  let dir: string;
  const sample = join(ROOT, 'test/fixtures/sample');

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'premise-lsp-nvim-links-'));
    const index = join(dir, 'idx');
    await buildIndex({ sources: [sample], out: index });
    const file = join(dir, 'Scratch.lean');
    copyFileSync(join(ROOT, 'test/fixtures/lsp/Complete.lean'), file);
    const cmd = [process.execPath, SERVE, 'serve', '--stdio', '--index', index];
    ({ out } = await nvimScript('links.lua', file, join(dir, 'nvim-out.json'), { PREMISE_LSP_CMD: JSON.stringify(cmd), PREMISE_LSP_QUERY: 'triangle inequality for absolute values' }));
  }, 60_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(':PremiseSearch! <text> then :cfirst opens the premise\'s source file at its declaration', () => {
    expect(out.quickfix[0].text).toMatch(/^Sample\.Order\.abs_add_le /);
    const order = realpathSync(join(sample, 'lean/Sample/Order.lean'));
    expect(realpathSync(out.bufname)).toBe(order);
    expect(realpathSync(out.bufname)).not.toBe(realpathSync(out.searched));
    // the declaration's first line (its docstring), then the theorem
    const lines = readFileSync(order, 'utf8').split('\n');
    expect(out.text).toBe(lines[out.line - 1]);
    expect(lines.slice(out.line - 1, out.line + 1).join('\n')).toMatch(/^\/-- The triangle inequality[^\n]*\ntheorem abs_add_le /);
  });
});

describe.skipIf(skip !== undefined)('neovim client: the project root (the server gets `--lean ROOT` and the workspace folder from it)', () => {
  let out: any;
  let dir: string;
  const files: Record<string, string> = {};

  beforeAll(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'premise-lsp-nvimroot-')));
    const put = (rel: string, text = '') => {
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      writeFileSync(join(dir, rel), text);
      return join(dir, rel);
    };
    put('proj/lakefile.toml', 'name = "proj"\n');
    mkdirSync(join(dir, 'proj/Sub/.git'), { recursive: true }); // a `.git` inside the Lake project
    files.inLake = put('proj/Sub/Deep/A.lean', 'theorem a : True := trivial\n');
    put('isa/ROOT', 'session S = HOL\n');
    files.inIsabelle = put('isa/thys/B.thy', 'theory B imports Main begin end\n');
    mkdirSync(join(dir, 'repo/.git'), { recursive: true });
    files.inGitOnly = put('repo/src/C.lean', 'theorem c : True := trivial\n');
    files.nowhere = put('loose/D.lean', 'theorem d : True := trivial\n');
    const outPath = join(dir, 'nvim-out.json');
    ({ out } = await nvimScript('root.lua', files.inLake, outPath, { PREMISE_LSP_FILES: JSON.stringify(Object.values(files)) }));
  }, 30_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("a lakefile above a `.git` wins: the Lake project's root, not the subfolder's repository", () => {
    expect(out.roots[files.inLake]).toBe(join(dir, 'proj'));
  });
  it('an Isabelle ROOT marks the root; a `.git` alone does; else the file\'s folder', () => {
    expect(out.roots[files.inIsabelle]).toBe(join(dir, 'isa'));
    expect(out.roots[files.inGitOnly]).toBe(join(dir, 'repo'));
    expect(out.roots[files.nowhere]).toBe(join(dir, 'loose'));
  });
});

describe.skipIf(skip !== undefined)('neovim client: the Neovim >= 0.11 path (vim.lsp.config/enable stubbed in headless nvim)', () => {
  let out: any;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'premise-lsp-nvim011-'));
    writeFileSync(join(dir, 'lakefile.lean'), '');
    mkdirSync(join(dir, 'Sub'));
    const file = join(dir, 'Sub', 'Complete.lean');
    copyFileSync(join(ROOT, 'test/fixtures/lsp/Complete.lean'), file);
    const outPath = join(dir, 'nvim-out.json');
    ({ out } = await nvimScript('api011.lua', file, outPath));
  }, 30_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('hands its config to vim.lsp.config and enables it, instead of starting clients itself', () => {
    expect(out.enabled).toEqual(['premise-lsp']);
    expect(out.started_by_plugin).toEqual([]);
    expect(out.autocmds).toBe(0);
    expect(out.filetypes).toEqual(['lean', 'isabelle']);
    expect(out.init_options).toEqual({ 'premise-lsp': { k: 7, index: '/idx/mathlib' } });
    expect(out.settings).toEqual(out.init_options);
  });

  it('finds the Lake root and starts premise-lsp --lean ROOT in it (a cmd function, like lean.nvim\'s leanls)', () => {
    expect(out.cmd_type).toBe('function');
    expect(realpathSync(out.root_dir)).toBe(realpathSync(dir));
    expect(out.rpc_starts).toHaveLength(1);
    expect(out.rpc_starts[0].cmd).toEqual(['premise-lsp', 'serve', '--stdio', '--lean', out.root_dir]);
    expect(out.rpc_starts[0].cwd).toBe(out.root_dir);
    expect(out.standalone_cmd).toEqual(['premise-lsp', 'serve', '--stdio']);
  });

  it('lean.nvim in front: lean_cmd() for vim.lsp.config(\'leanls\') starts premise-lsp --lean ROOT; its client is found by the commands', () => {
    expect(out.leanls_start).toMatchObject({ cmd: ['node', 'cli.js', 'serve', '--stdio', '--lean', '/proj/root'], cwd: '/proj/root' });
    expect(out.leanls_is_premise).toBe(true);
    expect(out.plain_leanls_is_premise).toBe(false);
  });

  it('on attach: sets omnifunc when empty, enables vim.lsp.completion with autotrigger, calls the user on_attach', () => {
    expect(out.omnifunc_before).toBe('');
    expect(out.omnifunc_after).toBe('v:lua.vim.lsp.omnifunc');
    expect(out.completion_calls[0]).toMatchObject({ on: true, client_id: 42, autotrigger: true });
    expect(out.user_attached).toHaveLength(2);
    expect(out.user_omnifunc_kept).toBe('syntaxcomplete#Complete');
    // completion = false (nvim-cmp users): neither
    expect(out.completion_false_omnifunc).toBe('');
    expect(out.completion_calls_after_false).toBe(2);
  });

  it('a cmd that is not installed (which Neovim 0.11 skips silently): setup() says so once, at level ERROR', () => {
    expect(out.missing_notes).toHaveLength(1);
    expect(out.missing_notes[0].msg).toMatch(/^premise-lsp: 'premise-lsp-not-installed-here' is not installed or not on PATH/);
    expect(out.missing_notes[0].level).toBe(4);
  });
});

describe.skipIf(skip !== undefined)('neovim client: never loses or misplaces the user\'s edits (headless nvim)', () => {
  let out: any;
  let file: string;
  let original: string[];

  beforeAll(async () => {
    file = fixtureCopy('Complete.lean');
    original = readFileSync(file, 'utf8').replace(/\n$/, '').split('\n');
    ({ out } = await nvimScript('robust.lua', file, join(dirname(file), 'nvim-out.json'), { PREMISE_LSP_CMD: JSON.stringify(serverCommand()) }));
  }, 40_000);

  afterAll(() => {
    if (file) rmSync(dirname(file), { recursive: true, force: true });
  });

  const texts = (step: any) => (step.messages as { msg: string }[]).map((m) => m.msg);

  it('premise-lsp not installed: one clear message at setup (not two per opened buffer), and the commands name it', () => {
    const s = out.steps.missing;
    expect(s.status).toBe('ok');
    expect(s.errmsg).toBe('');
    const missing = texts(s).filter((m) => m.includes("'premise-lsp-not-installed-here' is not installed or not on PATH"));
    expect(missing).toHaveLength(2); // setup, then :PremiseInsert
    expect(texts(s)).toHaveLength(2);
    expect(texts(s)[1]).toMatch(/^premise-lsp: no premise-lsp client attached to this buffer: /);
  });

  it('setup() without settings sends the settings section as a JSON object (the server refused [] with an error)', () => {
    const s = out.steps.no_settings;
    expect(s.status).toBe('ok');
    expect(texts(s)).toEqual([]);
    expect(s.line).toBe('  exact Nat.le_of_lt_succ');
  });

  it(':PremiseInsert on a buffer edited while the menu was up: nothing applied at stale positions, a message instead', () => {
    const s = out.steps.stale_action;
    expect(s.status).toBe('ok');
    expect(s.errmsg).toBe('');
    expect(s.lines).toEqual(['-- a line typed meanwhile', ...original]);
    expect(texts(s)).toEqual(['premise-lsp: not inserted: the buffer changed since the premises were offered; run :PremiseInsert again']);
  });

  it(':PremiseSearch whose window shows another file by the time of the choice: neither buffer gets the name', () => {
    const s = out.steps.other_buffer;
    expect(s.status).toBe('ok');
    expect(s.other_lines).toEqual(['theorem other : True := by', '  trivial']);
    expect(s.lines).toEqual(original);
    expect(texts(s)).toEqual(['premise-lsp: not inserted: the window no longer shows the searched buffer']);
  });

  it("a buffer that is not 'modifiable': a message for :PremiseInsert and :PremiseSearch, no Lua error with a stack trace", () => {
    const s = out.steps.not_modifiable;
    expect(s.status).toBe('ok');
    expect(s.insert_errmsg).toBe('');
    expect(s.errmsg).toBe('');
    expect(s.insert_messages.map((m: any) => m.msg)).toEqual(["premise-lsp: not inserted: the buffer is not 'modifiable'"]);
    expect(texts(s)).toEqual(["premise-lsp: not inserted: the buffer is not 'modifiable'"]);
    expect(s.lines).toEqual(original);
  });
});

describe.skipIf(skip !== undefined)('neovim client: :checkhealth premise-lsp', () => {
  let out: any;
  let install: ReturnType<typeof globalInstall>;
  let project: string;
  const version = spawnSync(process.execPath, [SERVE, '--version'], { encoding: 'utf8' });

  beforeAll(async () => {
    const f = lakeFixture();
    project = f.root;
    install = globalInstall();
    ({ out } = await nvimScript('checkhealth.lua', f.wsFile, join(install.prefix, 'out.json'), install.env, 90_000));
  }, 100_000);

  afterAll(() => {
    if (project) rmSync(dirname(project), { recursive: true, force: true });
    if (install) rmSync(install.prefix, { recursive: true, force: true });
  });

  const text = (name: string) => (out.reports[name] as string[]).join('\n');

  it('as the README sets it up: command found, version, the server starts, no index setting (automatic index), lake on PATH', () => {
    const r = text('ok');
    expect(r).toMatch(/OK:? command: premise-lsp serve --stdio \(/);
    // --version: OK with its output where this premise-lsp has it, else a warning (not an error)
    if (version.status === 0) expect(r).toContain(`OK: version: ${version.stdout.trim().split('\n')[0]}`);
    else expect(r).toMatch(/WARNING:? `premise-lsp --version` failed/);
    expect(r).toMatch(/OK:? the server starts and answers initialize \(premise-lsp/);
    expect(r).toContain('no `index` setting: the server indexes the project by itself');
    expect(r).toMatch(/premise-lsp doctor|has no `doctor` command/);
    expect(r).toMatch(/OK:? lean: lake \(/);
    expect(r).not.toMatch(/ERROR/);
  });

  it('a command that is not installed: an error naming it, with how to install', () => {
    const r = text('missing');
    expect(r).toMatch(/ERROR:? 'premise-lsp-not-installed-here' is not installed or not on PATH/);
    expect(r).toContain('npm install -g premise-lsp-<version>.tgz');
  });

  it('an index setting that does not exist: an error with the command that builds it, and that dropping it enables the automatic index', () => {
    const r = text('bad_index');
    expect(r).toMatch(/ERROR:? index \(setting `index`\) \/nonexistent\/premise-lsp-index has no manifest.json/);
    expect(r).toContain('premise-lsp index <sources> --out /nonexistent/premise-lsp-index');
    expect(r).toContain('automatic index');
  });
});

describe.skipIf(skip !== undefined)("neovim client: a missing index is shown in :messages (the server's window/showMessage)", () => {
  let out: any;
  let file: string;

  beforeAll(async () => {
    file = fixtureCopy('Complete.lean');
    const cmd = [process.execPath, SERVE, 'serve', '--stdio'];
    ({ out } = await nvimScript('message.lua', file, join(dirname(file), 'nvim-out.json'), {
      PREMISE_LSP_CMD: JSON.stringify(cmd),
      PREMISE_LSP_INDEX: '/nonexistent/premise-lsp-idx',
      PREMISE_LSP_MESSAGE: 'could not load the premise index',
    }));
  }, 30_000);

  afterAll(() => {
    if (file) rmSync(dirname(file), { recursive: true, force: true });
  });

  it('shows the message once, naming the index and the command that builds one', () => {
    const lines = (out.messages as string).split('\n').filter((l) => l.includes('could not load the premise index'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('/nonexistent/premise-lsp-idx');
    expect(lines[0]).toContain('premise-lsp index');
  });
});

describe.skipIf(skip !== undefined)('neovim client: the live picker, :PremisePick (built-in UI, headless nvim, the sample\'s index)', () => {
  let out: any;
  let dir: string;
  const sample = join(ROOT, 'test/fixtures/sample');
  const ok = (name: string) => expect(out.steps[name], `step ${name}`).toBe('ok');

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'premise-lsp-nvim-picker-'));
    const index = join(dir, 'idx');
    await buildIndex({ sources: [sample], out: index });
    const file = join(dir, 'Scratch.lean');
    // it imports what the picks below need: a premise of a module it does not import would bring its import line (the `import` step's stubbed hit tests that)
    writeFileSync(file, 'import Sample.Lists\nimport Sample.Order\n\n' + readFileSync(join(ROOT, 'test/fixtures/lsp/Complete.lean'), 'utf8'));
    const cmd = [process.execPath, SERVE, 'serve', '--stdio', '--index', index];
    ({ out } = await nvimScript('picker.lua', file, join(dir, 'nvim-out.json'), { PREMISE_LSP_CMD: JSON.stringify(cmd) }));
  }, 60_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('with no picker plugin installed, the built-in floating prompt opens in insert mode', () => {
    ok('typing');
    expect(out.backend).toBe('builtin');
    expect(out.prompt_mode).toBe('i');
    expect(out.prompt_is_current).toBe(true);
  });

  it('typing updates the results; the preview shows statement, docstring and module', () => {
    ok('typing');
    expect(out.length_first).toMatch(/^Sample\.Lists\.length_append' /);
    expect(out.triangle_first).toMatch(/^Sample\.Order\.abs_add_le /);
    expect(out.sent).toEqual(expect.arrayContaining(['length of a list append', 'triangle inequality']));
    const preview = out.triangle_preview.join('\n');
    expect(preview).toMatch(/^Sample\.Order\.abs_add_le/);
    expect(preview).toContain('|a + b| ≤ |a| + |b|');
    expect(preview).toContain('The triangle inequality');
    expect(preview).toContain('module Sample.Order');
  });

  it('a search sent while another is pending cancels it ($/cancelRequest) and its reply never reaches the results', () => {
    ok('stale');
    const s = out.stale;
    expect(typeof s.id1).toBe('number');
    expect(s.cancelled).toContain(s.id1);
    expect(out.cancel_notes).toContain(s.id1);
    expect(s.first_called).toBe(false);
    expect(s.second_first).toBe('Sample.Order.abs_add_le');
  });

  it('Enter inserts the selected name at the cursor of the searched buffer, one undo step', () => {
    ok('enter');
    expect(out.enter_line).toBe('  exact Sample.Order.abs_add_le');
    expect(out.enter_buffer_is_searched).toBe(true);
    expect(out.enter_cursor[1]).toBe('  exact Sample.Order.abs_add_le'.length - 1); // normal mode: on the name's last character
    expect(out.picker_closed).toBe(true);
    expect(out.enter_undone).toBe(true);
  });

  it('Enter typed right after the text, before its results came: the top result of that text is inserted', () => {
    ok('enter_fast');
    expect(out.enter_fast_line).toBe('  exact Sample.Order.abs_add_le');
  });

  it("a result's import edit is applied with the name, in the same undo step", () => {
    ok('import');
    expect(out.import_accepted).toBe(true);
    expect(out.import_first_line).toBe('import Sample.Lists');
    expect(out.import_line).toBe('  exact Sample.Lists.rev_rev');
    expect(out.import_cursor_line).toBe('  exact Sample.Lists.rev_rev');
    expect(out.import_undone).toBe(true);
  });

  it("the jump key (<C-o>) opens the premise's source at its declaration", () => {
    ok('jump');
    const order = realpathSync(join(sample, 'lean/Sample/Order.lean'));
    expect(realpathSync(out.jump_bufname)).toBe(order);
    expect(out.jump_line).toMatch(/^\/-- The triangle inequality/);
    expect(out.jump_next_line).toMatch(/^theorem abs_add_le /);
  });

  it("the jump key from a modified buffer with 'nohidden' opens the source in a split (:edit would fail)", () => {
    ok('jump_modified');
    expect(out.jump_modified.ok).toBe(true);
    expect(realpathSync(out.jump_modified.bufname)).toBe(realpathSync(join(sample, 'lean/Sample/Order.lean')));
    expect(out.jump_modified.split).toBe(true);
    expect(out.jump_modified.searched_shown).toBe(true);
  });

  it("lean.nvim's abbreviations work in the prompt: \\le becomes ≤ as typed, and the search gets the symbols", () => {
    ok('unicode');
    expect(out.unicode_prompt).toBe('a < b ∧ b ≤ c');
    expect(out.unicode_query).toBe('a < b ∧ b ≤ c');
  });

  it('with Telescope installed (stubbed: the API the adapter uses), the picker is Telescope\'s: live finder, preview, Enter, jump key', () => {
    ok('telescope');
    expect(out.telescope_backend).toBe('telescope');
    expect(out.telescope_first).toMatch(/^Sample\.Order\.abs_add_le /);
    expect(out.telescope_preview.join('\n')).toContain('module Sample.Order');
    expect(out.telescope_line).toBe('  exact Sample.Order.abs_add_le');
    expect(out.telescope_closed).toBe(true);
    expect(realpathSync(out.telescope_jump)).toBe(realpathSync(join(sample, 'lean/Sample/Order.lean')));
  });

  it('snacks.picker and fzf-lua (stubbed likewise): live finder, Enter, jump key', () => {
    ok('snacks');
    ok('fzf');
    const order = realpathSync(join(sample, 'lean/Sample/Order.lean'));
    expect(out.snacks.first).toBe('Sample.Order.abs_add_le');
    expect(out.snacks.preview).toContain('module Sample.Order');
    expect(out.snacks.line).toBe('  exact Sample.Order.abs_add_le');
    expect(out.snacks.closed).toBe(true);
    expect(realpathSync(out.snacks.jump)).toBe(order);
    expect(out.fzf.first).toMatch(/^Sample\.Order\.abs_add_le /);
    expect(out.fzf.line).toBe('  exact Sample.Order.abs_add_le');
    expect(realpathSync(out.fzf.jump)).toBe(order);
  });
});

describe.skipIf(skip !== undefined)('neovim client: :PremiseTry (headless nvim, premise-lsp in front of the fake Lean)', () => {
  let out: any;
  let file: string;

  beforeAll(async () => {
    file = fixtureCopy('Trials.lean');
    const cmd = [process.execPath, SERVE, 'serve', '--stdio', '--fake-engine', join(ROOT, 'test/fixtures/lsp/trial-premises.json'), '--', process.execPath, join(ROOT, 'test/doubles/fake-lean.mjs')];
    ({ out } = await nvimScript('try.lua', file, join(dirname(file), 'nvim-out.json'), { PREMISE_LSP_CMD: JSON.stringify(cmd) }));
  }, 30_000);

  afterAll(() => {
    if (file) rmSync(dirname(file), { recursive: true, force: true });
  });

  it('offers the steps Lean checked, the closing one first, and puts the chosen one in place of the step', () => {
    expect(out.prompt).toBe('Steps checked by Lean:');
    expect(out.items[0]).toBe('✓ exact add_comm a b — closes the goal');
    expect(out.items.every((t: string) => t.startsWith('✓') || t.includes('makes progress'))).toBe(true);
    expect(out.line).toBe('  exact add_comm a b');
  });
});
