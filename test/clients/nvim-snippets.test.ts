/**
 * The Neovim snippets of the README and docs/editors.md, run verbatim in a real
 * headless Neovim (0.7.2) against a global install of this checkout (see
 * snippets.ts), on a small Lake project whose automatic index the server builds
 * by itself; `lake` is the fake Lean.
 */
import { existsSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lakeFixture, type LakeFixture } from '../unit/lake-project.js';
import { globalInstall, snippet } from './snippets.js';
import { ROOT, run, runLog, skipReason, type Run } from './util.js';

const skip = skipReason('nvim');

const GOAL_FILE = 'namespace Proj\n\ntheorem goal_demo (a b : Nat) : a + b = b + a := by\n  -- goal: a b : Nat\\n⊢ a + b = b + a\n  simp [Nat.add_comm]\n\nend Proj\n';

async function nvimSnippet(script: string, body: string, env: Record<string, string>, rtp?: string): Promise<{ proc: Run; out: any }> {
  const outPath = join(env.PREMISE_LSP_CACHE, '..', `${script}.json`);
  const args = ['--headless', '--clean', ...(rtp ? ['--cmd', `set rtp^=${rtp}`] : []), '-S', join(ROOT, 'test/clients/nvim', script)];
  const proc = await run('nvim', args, { env: { ...env, PREMISE_LSP_SNIPPET: body, PREMISE_LSP_OUT: outPath }, timeoutMs: 110_000 });
  if (!existsSync(outPath)) throw new Error(`nvim wrote no result\n${runLog(proc)}`);
  const out = JSON.parse(readFileSync(outPath, 'utf8'));
  if (out.error) throw new Error(`nvim test script failed: ${out.error}\n${runLog(proc)}`);
  return { proc, out };
}

describe.skipIf(skip !== undefined)('Neovim snippets, verbatim, on a global install and the automatic index', () => {
  let f: LakeFixture;
  let install: ReturnType<typeof globalInstall>;
  let goalFile: string;

  beforeAll(() => {
    f = lakeFixture();
    goalFile = f.write('Proj/Goal.lean', GOAL_FILE);
    install = globalInstall();
  });

  afterAll(() => {
    if (f) rmSync(dirname(f.root), { recursive: true, force: true });
    if (install) rmSync(install.prefix, { recursive: true, force: true });
  });

  it('README nvim-lazy: the lazy.nvim spec finds the plugin under `npm root -g`, premise-lsp runs in front of lake, the project is indexed by itself, K hovers', async () => {
    const s = snippet('README.md', 'nvim-lazy');
    expect(s.body).not.toMatch(/index\s*=/); // relies on the automatic index
    const { out } = await nvimSnippet('lazy.lua', s.body, { ...install.env, PREMISE_LSP_FILE: goalFile });
    expect(realpathSync(out.dir)).toBe(realpathSync(join(ROOT, 'clients/nvim')));
    expect(out.filetype).toBe('lean');
    expect(out.client_name).toBe('premise-lsp');
    expect(out.cmd).toEqual(['premise-lsp', 'serve', '--stdio', '--lean', f.root]);
    expect(out.names).toContain('Proj.quux_wibble'); // the workspace entry of the automatic index
    // K: the plugin mapped it to vim.lsp.buf.hover; the hover came from Lean through premise-lsp
    expect(out.k_mapping).not.toBe('');
    expect(out.hover.join('\n')).toContain('Nat.add_comm');
  }, 120_000);

  it('docs/editors.md nvim-lean.nvim: the client keeps the name leanls; $/lean/plainGoal and $/lean/rpc/connect reach Lean through premise-lsp; :PremiseSearch! uses it', async () => {
    const s = snippet('docs/editors.md', 'nvim-lean.nvim');
    expect(s.body).not.toMatch(/index\s*=/);
    const { out } = await nvimSnippet('leannvim.lua', s.body, { ...install.env, PREMISE_LSP_FILE: goalFile, PREMISE_LSP_ROOT: f.root }, join(install.prefix, 'lib/node_modules/premise-lsp/clients/nvim'));
    expect(out.lean_setup).toEqual({ mappings: true });
    expect(out.started).toEqual({ cmd: ['premise-lsp', 'serve', '--stdio', '--lean', f.root], cwd: f.root });
    expect(out.client_names).toEqual(['leanls']);
    expect(out.premise_client).toBe('leanls');
    // the fake Lean's answers, through the proxy
    expect(out.plain_goal.err ?? null).toBeNull();
    expect(out.plain_goal.res.goals).toEqual(['a b : Nat\n⊢ a + b = b + a']);
    expect(out.rpc_connect.err ?? null).toBeNull();
    expect(out.rpc_connect.res).toEqual({ sessionId: '1' });
    expect(out.quickfix[0]).toMatch(/^Proj\.quux_wibble /);
  }, 120_000);

  it('docs/editors.md nvim-picker: :PremisePick, its mapping and the picker\'s settings, the plugin on the automatic index', async () => {
    const s = snippet('docs/editors.md', 'nvim-picker');
    const { out } = await nvimSnippet('pickersnippet.lua', s.body, install.env, join(install.prefix, 'lib/node_modules/premise-lsp/clients/nvim'));
    expect(out.command).toBe(2);
    expect(out.mapping).toBe('<Cmd>PremisePick<CR>');
    expect(out.picker).toEqual({ debounce_ms: 150, k: 30, jump: '<C-o>' });
    expect(out.upstream).toBe('lean');
    expect(out.index).toBeNull();
  }, 60_000);
});
