/**
 * Which encoder embeds queries for an index: the index names the one it was built
 * with by its content id (`manifest.json` `encoder.id`, `models/src/fingerprint.ts`),
 * not by where it was. The shipped encoder of this installation is used when its id
 * matches, wherever premise-lsp is installed; a bring-your-own encoder is found
 * through the directory the index recorded for it (also what older indexes recorded
 * for the shipped one), again only when the id matches. `--encoder DIR` overrides
 * both. Anything else is one error naming the id and the command that rebuilds the index.
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { loadEncoder, type Encoder } from '../../../models/src/encoder.js';
import type { EncoderRef } from '../../../indexes/src/store/index-dir.js';
import { rebuildCommand, type IndexOrigin } from '../../../indexes/src/store/rebuild.js';
import { realPath, shippedEncoderDirs } from '../paths.js';

const load = (dir: string) => loadEncoder(dir, { threads: 1 }); // one short query at a time: one intra-op thread
/** An id is `<directory name>-<hash>`: a directory of another name cannot have it. */
const mayHave = (dir: string, id: string) => id.startsWith(`${basename(realPath(dir))}-`);

/** The encoder for an index built with `rec`; `explicitDir` (--encoder) wins. */
export async function openIndexEncoder(rec: EncoderRef, index: IndexOrigin, explicitDir?: string): Promise<Encoder> {
  let encoder: Encoder;
  if (explicitDir !== undefined) {
    if (!existsSync(explicitDir)) throw new Error(`no such encoder directory: ${explicitDir}`);
    encoder = await load(explicitDir);
  } else {
    const candidates = [...shippedEncoderDirs(), ...(rec.dir ? [rec.dir] : [])].filter((d) => existsSync(d) && mayHave(d, rec.id));
    const seen = new Set<string>();
    let found: Encoder | undefined;
    for (const dir of candidates) {
      if (seen.has(realPath(dir))) continue;
      seen.add(realPath(dir));
      const e = await load(dir);
      if (e.id === rec.id) {
        found = e;
        break;
      }
      await e.dispose();
    }
    if (!found) {
      throw new Error(
        `the index ${index.dir} was built with encoder ${rec.id}, which this installation does not have; ` +
          `rebuild the index with \`${rebuildCommand(index)}\` (or pass --encoder <dir> holding that encoder)`,
      );
    }
    encoder = found;
  }
  if (encoder.dim !== rec.dim) {
    const dir = explicitDir ?? '';
    await encoder.dispose();
    throw new Error(`encoder ${dir || encoder.id} has dimension ${encoder.dim} but the index was built with ${rec.dim}; rebuild the index with \`${rebuildCommand(index)}\``);
  }
  return encoder;
}
