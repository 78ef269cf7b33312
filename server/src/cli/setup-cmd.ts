/**
 * `premise-lsp setup vscode [--shim-dir DIR]`: writes the `lake` and `lean` shims of
 * vscode-shim.ts into DIR (created if missing; a `lake` or `lean` there that is not a
 * premise-lsp shim is never overwritten, and then neither is written) and prints the
 * settings.json line that puts DIR first on the Lean extension's PATH.
 */
import { chmodSync, closeSync, constants, existsSync, fstatSync, mkdirSync, openSync, readSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { packageRoot, packageVersion, realPath } from '../paths.js';
import { parse, UsageError } from './args.js';
import { defaultShimDir, SHIM_TOOLS, shimMarker, shimScript, type ShimTool } from './vscode-shim.js';

export async function setupCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { 'shim-dir': { type: 'string' } });
  if (positionals.length !== 1 || positionals[0] !== 'vscode') {
    throw new UsageError(`setup takes the editor to set up: vscode${positionals.length ? ` (got ${positionals.join(' ')})` : ''}`);
  }
  if (process.platform === 'win32') throw new Error('setup vscode writes POSIX sh scripts (`lake`, `lean`); on Windows, start premise-lsp serve from a Lean client you configure instead (docs/editors.md)');
  if (values['shim-dir'] === '') throw new UsageError('--shim-dir takes a directory');
  const dir = resolve(values['shim-dir'] ?? defaultShimDir());
  const tools = Object.keys(SHIM_TOOLS) as ShimTool[];
  for (const tool of tools) {
    const file = join(dir, tool);
    if (existsSync(file) && !isShim(file, tool)) {
      throw new Error(`${file} exists and is not a premise-lsp shim; it is left as it is (choose another --shim-dir)`);
    }
  }
  const cli = realPath(join(packageRoot(), 'dist', 'cli.js'));
  if (!existsSync(cli)) throw new Error(`${cli} is missing: build premise-lsp first (npm run build)`);
  mkdirSync(dir, { recursive: true });
  for (const tool of tools) {
    const file = join(dir, tool);
    // written beside, then renamed: a tool running from the old shim never reads a half-written one
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, shimScript(process.execPath, cli, packageVersion(), tool), { mode: 0o755 });
    chmodSync(tmp, 0o755);
    renameSync(tmp, file);
  }
  process.stdout.write(
    `wrote ${tools.map((t) => join(dir, t)).join(' and ')}\n\n` +
      `Add this line to VS Code's settings.json (command palette: "Preferences: Open User Settings (JSON)"),\n` +
      `or this directory to the list if "lean4.envPathExtensions" is already there:\n\n` +
      `  "lean4.envPathExtensions": [${JSON.stringify(dir)}],\n\n` +
      `then restart the Lean server ("Lean 4: Server: Restart Server") or VS Code.\n` +
      `To undo: remove the setting and delete ${dir}.\n`,
  );
  return 0;
}

/**
 * Is the file at `path` premise-lsp's `tool` shim (its marker on the second line)? Only a regular
 * file is looked into, and only its first 4 KiB: a FIFO there hung `setup vscode` for ever
 * (opened without blocking, then looked at: issue 36 item 7), a real lake or lean is megabytes.
 */
function isShim(path: string, tool: ShimTool): boolean {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return false;
  }
  try {
    if (!fstatSync(fd).isFile()) return false;
    const buf = Buffer.alloc(4096);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString('latin1').includes(shimMarker(tool));
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}
