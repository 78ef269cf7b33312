import { describe, expect, it } from 'vitest';
import { parseServeArgs, splitCommand } from '../../server/src/lsp/args.js';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { projectRootAbove } from '../../server/src/lsp/project-root.js';
import { autoIndexRoot } from '../../server/src/lsp/run.js';
import { lakeFixture } from './lake-project.js';
import { flavorOfCommand } from '../../server/src/upstream/command.js';

describe('serve arguments', () => {
  it('builds the Lean command with the root as cwd', () => {
    const a = parseServeArgs(['serve', '--stdio', '--lean', '/tmp/proj', '--index', 'idx']);
    expect(a).toMatchObject({ stdio: true, index: 'idx', flavor: 'lean', upstream: { command: 'lean', args: ['--server', '/tmp/proj'], cwd: '/tmp/proj' } });
  });
  it('passes Isabelle options through', () => {
    const a = parseServeArgs(['serve', '--stdio', '--isabelle', '-l', 'HOL', '-d', 'dir', '--index', 'i']);
    expect(a.upstream?.args).toEqual(['vscode_server', '-o', 'vscode_pide_extensions', '-o', 'editor_output_state', '-l', 'HOL', '-d', 'dir']);
    expect(a.index).toBe('i');
  });
  it('takes any command after --, and guesses its flavor', () => {
    const a = parseServeArgs(['serve', '--stdio', '--', 'node', 'test/doubles/fake-isabelle.mjs']);
    expect(a.upstream).toEqual({ command: 'node', args: ['test/doubles/fake-isabelle.mjs'], cwd: undefined });
    expect(flavorOfCommand(a.upstream!)).toBe('isabelle');
    expect(flavorOfCommand({ command: 'lake', args: ['serve'] })).toBe('lean');
    expect(flavorOfCommand({ command: 'my-server', args: [] })).toBe('generic');
  });
  it('rejects two upstreams and unknown options', () => {
    expect(() => parseServeArgs(['--lean', 'a', '--', 'x'])).toThrow(/only one/);
    expect(() => parseServeArgs(['--bogus'])).toThrow(/unknown option/);
    expect(splitCommand(`lean --server "my dir"`)).toEqual(['lean', '--server', 'my dir']);
  });

  it('picks the project to index automatically: --lean ROOT, else the Lake project at or above the workspace folder', () => {
    expect(parseServeArgs(['serve', '--stdio', '--lean', '/tmp/proj']).leanRoot).toBe('/tmp/proj');
    expect(parseServeArgs(['serve', '--stdio', '--initialize-timeout-ms', '5000']).initializeTimeoutMs).toBe(5000);
    const f = lakeFixture();
    expect(autoIndexRoot('/tmp/proj', f.root)).toBe('/tmp/proj');
    expect(autoIndexRoot(undefined, f.root)).toBe(f.root);
    expect(autoIndexRoot(undefined, join(f.root, 'Proj'))).toBe(f.root); // a subfolder: its project
    expect(autoIndexRoot(undefined, f.depDir + '/DepLib')).toBe(f.depDir); // the nearest lakefile: the package's
    expect(autoIndexRoot(undefined, dirname(f.root))).toBeUndefined(); // above the project: none
    expect(autoIndexRoot(undefined, undefined)).toBeUndefined();
  });

  it('finds an Isabelle session folder (ROOT or ROOTS) at or above a folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'premise-lsp-isa-'));
    mkdirSync(join(dir, 'thys', 'Foo', 'Sub'), { recursive: true });
    writeFileSync(join(dir, 'thys', 'ROOTS'), 'Foo\n');
    expect(projectRootAbove(join(dir, 'thys', 'Foo', 'Sub'), 'isabelle')).toBe(join(dir, 'thys'));
    writeFileSync(join(dir, 'thys', 'Foo', 'ROOT'), 'session Foo = HOL + theories A\n');
    expect(projectRootAbove(join(dir, 'thys', 'Foo', 'Sub'), 'isabelle')).toBe(join(dir, 'thys', 'Foo'));
    expect(projectRootAbove(dir, 'isabelle')).toBeUndefined();
    expect(projectRootAbove(join(dir, 'thys'), 'lean')).toBeUndefined();
  });
});
