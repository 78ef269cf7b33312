/** Locations inside the installed package (works from dist/ and from sources under vitest). */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;
let version: string | undefined;

export function packageRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).name === 'premise-lsp') return (root = dir);
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot locate the premise-lsp package root');
    dir = up;
  }
}

export const defaultModelDir = () => join(packageRoot(), 'models', 'default');
/** The encoders this installation ships, wherever it is installed (an index names its encoder by content id). */
export const shippedEncoderDirs = (): string[] => [defaultModelDir()];

/** Whether `dir` is one of the shipped encoders (the same directory, through any links). */
export function isShippedEncoderDir(dir: string): boolean {
  return shippedEncoderDirs().some((d) => realPath(d) === realPath(dir));
}

/** `path` with its links resolved, or as given (absolute) when it does not exist. */
export function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
export const defaultTextTowerDir = () => join(packageRoot(), 'models', 'text-tower');
export const defaultVocabFile = () => join(packageRoot(), 'models', 'vocab', 'en-lean.json');

/** The installed package's version, read from its package.json when first asked. */
export function packageVersion(): string {
  version ??= String(JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')).version);
  return version;
}
