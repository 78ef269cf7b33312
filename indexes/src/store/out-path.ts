/**
 * Output paths checked before any work: a directory is created one level at a time
 * (Node's recursive mkdir spins forever under /proc) and probed with a file; an
 * output file is opened at once. Failures are one-line OutputPathErrors naming the path.
 */
import { closeSync, mkdirSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export class OutputPathError extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`cannot write ${path}: ${reason}`);
    this.name = 'OutputPathError';
  }
}

const reason = (e: unknown) => ((e as NodeJS.ErrnoException).code ?? (e as Error).message).toString();
const why = (e: unknown) => {
  const code = (e as NodeJS.ErrnoException).code;
  const text: Record<string, string> = {
    ENOENT: 'no such file or directory',
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    EROFS: 'read-only file system',
    ENOTDIR: 'a parent is not a directory',
    ENOSPC: 'no space left on device',
    EISDIR: 'is a directory',
  };
  return code && text[code] ? `${text[code]} (${code})` : reason(e);
};

/** Creates `dir` and its missing parents, one level at a time, and checks that a file can be written in it. */
export function prepareOutDir(dir: string): void {
  const abs = resolve(dir);
  const missing: string[] = [];
  for (let d = abs; ; d = dirname(d)) {
    let st;
    try {
      st = statSync(d);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new OutputPathError(dir, why(e));
      if (dirname(d) === d) throw new OutputPathError(dir, why(e));
      missing.push(d);
      continue;
    }
    if (!st.isDirectory()) throw new OutputPathError(dir, `${d} is not a directory`);
    break;
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new OutputPathError(dir, why(e));
    }
  }
  const probe = resolve(abs, `.premise-lsp-probe-${process.pid}`);
  try {
    const fd = openSync(probe, 'w');
    try {
      writeSync(fd, 'probe');
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    throw new OutputPathError(dir, why(e));
  } finally {
    rmSync(probe, { force: true });
  }
}

/** Opens (creates or truncates) an output file for writing; the file descriptor. */
export function openOutFile(file: string): number {
  try {
    if (statSync(file, { throwIfNoEntry: false })?.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    return openSync(file, 'w');
  } catch (e) {
    throw new OutputPathError(file, why(e));
  }
}
