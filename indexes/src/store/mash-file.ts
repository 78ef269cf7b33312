/**
 * `mash.bin`: the usage model fitted at index time (../mash.ts). Sections: `offsets`
 * (the formal field's terms + 1 offsets into `premise` and `count`), `premise`
 * (premise ids), `count` (s(φ, f)), `t` (t(φ) per premise). Optional: an index built
 * before it existed has none, and the `mash` generator then proposes nothing from it.
 * Read, like every index file, only after its size and CRC-32 match the manifest, then
 * checked for structure; every fault is an IndexFileError naming the file.
 * Test: test/unit/mash-file.test.ts.
 */
import { join } from 'node:path';
import { Container, IndexFileError, writeContainer, type Expected } from './container.js';
import type { MashModel } from '../mash.js';

export const MASH_FILE = 'mash.bin';

/** The most a mash.bin may have: a Mathlib index's is tens of MiB; past this it is not one premise-lsp wrote. */
export const MAX_MASH_BYTES = 1024 * 1024 * 1024;

export function writeMashFile(dir: string, m: MashModel): void {
  writeContainer(join(dir, MASH_FILE), { offsets: m.offsets, premise: m.premise, count: m.count, t: m.t });
}

/** The model of an index of `premises` premises whose formal field has `features` terms. */
export function readMashFile(path: string, expected: Expected, premises: number, features: number): MashModel {
  if (expected.bytes > MAX_MASH_BYTES) throw new IndexFileError(path, `${expected.bytes} bytes, more than the ${MAX_MASH_BYTES / 2 ** 20} MiB a mash.bin may have; rebuild the index`);
  const c = Container.read(path, [], expected);
  const offsets = c.u32('offsets');
  const premise = c.u32('premise');
  const count = c.u32('count');
  const t = c.u32('t');
  if (offsets.length !== features + 1 || offsets[0] !== 0 || offsets[features] !== premise.length || count.length !== premise.length) {
    throw new IndexFileError(path, `usage postings for ${offsets.length - 1} features, the index's formal field has ${features}`);
  }
  if (t.length !== premises) throw new IndexFileError(path, `use counts for ${t.length} premises, the index has ${premises}`);
  for (let f = 0; f < features; f++) if (offsets[f]! > offsets[f + 1]!) throw new IndexFileError(path, 'usage posting offsets out of order');
  for (let i = 0; i < premise.length; i++) {
    const p = premise[i]!;
    if (p >= premises) throw new IndexFileError(path, `usage posting refers to premise #${p} of ${premises}`);
    if (!(count[i]! >= 1 && count[i]! <= t[p]!)) throw new IndexFileError(path, `usage count ${count[i]} of premise #${p} is not within 1..${t[p]}`);
  }
  return { offsets, premise, count, t };
}
