import { describe, expect, it } from 'vitest';
import { parseServeArgs, splitCommand } from '../../server/src/lsp/args.js';
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

  it('picks the project to index automatically: --lean ROOT, else a Lake workspace folder', () => {
    expect(parseServeArgs(['serve', '--stdio', '--lean', '/tmp/proj']).leanRoot).toBe('/tmp/proj');
    const f = lakeFixture();
    expect(autoIndexRoot('/tmp/proj', f.root)).toBe('/tmp/proj');
    expect(autoIndexRoot(undefined, f.root)).toBe(f.root);
    expect(autoIndexRoot(undefined, f.depDir + '/DepLib')).toBeUndefined(); // no lakefile or manifest there
    expect(autoIndexRoot(undefined, undefined)).toBeUndefined();
  });
});
