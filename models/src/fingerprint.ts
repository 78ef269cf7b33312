/** Content fingerprints: an encoder id changes whenever its weights, vocabulary or settings do. */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';

/** SHA-256 (hex) of a file, streamed. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** `<basename(dir)>-<12 hex>` over the files' digests and a settings object. */
export async function modelId(dir: string, files: string[], settings: unknown): Promise<string> {
  const hash = createHash('sha256');
  for (const f of files) hash.update(`${basename(f)}:${await sha256File(f)}\n`);
  hash.update(JSON.stringify(settings));
  const name = basename(dir.replace(/[\\/]+$/, '')) || 'model';
  return `${name}-${hash.digest('hex').slice(0, 12)}`;
}
