/**
 * The README's Quick start is what CI runs, and it needs no environment: the project
 * .npmrc tells onnxruntime-node's install script to skip its optional CUDA download
 * (from api.nuget.org, unreachable where only the npm registry is), and `npm test`
 * typechecks.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');

/** The commands of the README's Quick start block, comments dropped. */
function quickStart(): string[] {
  const readme = read('README.md');
  const section = readme.slice(readme.indexOf('## Quick start'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1];
  return block.split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()).filter(Boolean);
}

describe('install as the README says', () => {
  it('npm hands onnxruntime-node the skip flag from the project .npmrc, with no environment variable', () => {
    const env = { ...process.env };
    delete env.ONNXRUNTIME_NODE_INSTALL;
    delete env.ONNXRUNTIME_NODE_INSTALL_CUDA;
    for (const k of Object.keys(env)) if (k.toLowerCase().startsWith('npm_config_onnxruntime')) delete env[k];
    const r = spawnSync('npm', ['config', 'get', 'onnxruntime-node-install'], { cwd: ROOT, env, encoding: 'utf8' });
    expect(r.stdout.trim()).toBe('skip');
    // what the package's own install script makes of it (npm exports project config as npm_config_*)
    const utils = join(ROOT, 'node_modules/onnxruntime-node/script/install-utils.js');
    if (!existsSync(utils)) return console.log('skipped: onnxruntime-node has no install-utils.js');
    const saved = process.env.ONNXRUNTIME_NODE_INSTALL;
    delete process.env.ONNXRUNTIME_NODE_INSTALL;
    process.env.npm_config_onnxruntime_node_install = r.stdout.trim();
    try {
      const { parseInstallFlag } = createRequire(import.meta.url)(utils);
      expect(parseInstallFlag()).toBe(false); // false = skip the download
    } finally {
      delete process.env.npm_config_onnxruntime_node_install;
      if (saved !== undefined) process.env.ONNXRUNTIME_NODE_INSTALL = saved;
    }
  });

  it('.ci/run runs exactly the Quick start commands and exports nothing', () => {
    const ci = read('.ci/run');
    expect(ci).not.toMatch(/\bexport\b/);
    expect(ci).not.toMatch(/ONNXRUNTIME/);
    const lines = ci.split('\n').map((l) => l.trim());
    const commands = quickStart();
    expect(commands).toEqual(['npm ci && npm run sample', 'npm test']);
    for (const c of commands) expect(lines).toContain(c);
    expect(ci).toMatch(/apt-get install .*neovim emacs-nox elpa-eglot elpa-lsp-mode/);
  });

  it('.ci/run installs the packed tarball globally after the Quick start', () => {
    const lines = read('.ci/run').split('\n').map((l) => l.trim());
    expect(lines.indexOf('bash .ci/pack-install')).toBeGreaterThan(lines.indexOf('npm test'));
    const script = read('.ci/pack-install');
    expect(script).not.toMatch(/\bexport\b/);
    expect(script).not.toMatch(/ONNXRUNTIME|onnxruntime-node-install/);
    for (const step of ['npm pack', 'npm install -g', '--version', ' index ', ' query ', "'serve', '--stdio'"]) expect(script).toContain(step);
  });

  it('npm pack ships a complete package: prepack builds, files lists what the CLI needs, LICENSE is there', () => {
    const pkg = JSON.parse(read('package.json'));
    expect(pkg.scripts.prepack).toMatch(/\btsup\b/);
    for (const f of ['dist/', 'models/default/', 'models/text-tower/', 'models/reranker/', 'models/ranker/', 'models/vocab/', 'clients/', 'docs/', 'deploy/', 'LICENSE', 'README.md']) {
      expect(pkg.files).toContain(f);
    }
    expect(pkg.files.some((f: string) => f.startsWith('models/train'))).toBe(false);
    expect(pkg.license).toBe('Apache-2.0');
    expect(read('LICENSE')).toMatch(/Apache License\s+Version 2\.0, January 2004/);
  });

  it('onnxruntime-node is optional: the shipped models do not need it', () => {
    const pkg = JSON.parse(read('package.json'));
    expect(pkg.dependencies['onnxruntime-node']).toBeUndefined();
    expect(pkg.optionalDependencies['onnxruntime-node']).toBeDefined();
    const lock = JSON.parse(read('package-lock.json'));
    expect(lock.packages['node_modules/onnxruntime-node'].optional).toBe(true);
  });

  it('npm test typechecks', () => {
    const pkg = JSON.parse(read('package.json'));
    expect(pkg.scripts.test).toMatch(/\btsc --noEmit\b/);
  });
});
