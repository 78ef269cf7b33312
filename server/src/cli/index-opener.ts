/**
 * How `serve` opens an index (the `index` setting or `--index`, or the automatic
 * index's directories): also what `doctor --index` opens, so that doctor passes an
 * index exactly when the server loads it (its files, and the encoder it was built with;
 * test/cli/doctor.test.ts, "an index the server refuses").
 */
import { openEngine, type OpenOptions } from '../engine/open.js';
import type { OpenedEngine } from '../engine/types.js';
import { indexDirOption } from './args.js';

/** The server's opener; `onWarning`: where problems that do not stop it go (default: stderr). */
export function serverIndexOpener(onWarning?: OpenOptions['onWarning']) {
  return (dir: string | string[], o?: { sparseOnly?: boolean; sourceRoots?: Record<string, string[]>; project?: boolean }): Promise<OpenedEngine> =>
    openEngine(typeof dir === 'string' ? indexDirOption(dir) : dir, { ...o, ...(onWarning ? { onWarning } : {}), defaultMode: o?.sparseOnly ? 'hybrid' : undefined });
}
