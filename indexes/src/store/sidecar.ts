/**
 * An index's JSON sidecars (`imports.json`, `external-refs.json`, `exports.json`,
 * `deferred-informal.json`) read as the other index files are: only a regular
 * file (a FIFO in its place would block for ever, a link to /dev/zero never
 * ends), its size and CRC-32 checked against the manifest before it is parsed
 * when the manifest lists it (indexes built since sidecars are listed), and at
 * most MAX_SIDECAR_BYTES when it does not (an older index). A bad one is an
 * IndexFileError naming it. Test: test/unit/sidecar.test.ts.
 */
import { closeSync, fstatSync, openSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { IndexFileError, readAt } from './container.js';
import { dataDirOf } from './data-dir.js';
import { readManifest, type Manifest } from './index-dir.js';

/**
 * The most an unlisted sidecar may have: far above real ones (Mathlib +
 * Batteries' `imports.json` is 1.3 MB), far below what stalls a reader (a 115 MB
 * one took 21 s and 2.15 GB to parse).
 */
export const MAX_SIDECAR_BYTES = 64 * 1024 * 1024;

/**
 * The most a listed sidecar may have: a JSON text longer than V8's longest string (about
 * 512 Mi characters) cannot be parsed at all, and a 2 GiB one failed with a range error that
 * named no file (issue 36 item 7).
 */
export const MAX_LISTED_SIDECAR_BYTES = 512 * 1024 * 1024;

/** The text of sidecar `name` of the index in `dir`; undefined when the index has none. */
export function readSidecarText(dir: string, name: string): string | undefined {
  // a directory without a manifest (tests, a directory being written): the file beside, unlisted
  const m: Manifest | undefined = exists(join(dir, 'manifest.json')) ? readManifest(dir) : undefined;
  const path = join(m ? dataDirOf(dir, m.data) : dir, name);
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) throw new IndexFileError(path, st.isDirectory() ? 'a directory, not a file' : 'not a regular file');
    size = st.size;
  } catch (e) {
    if (e instanceof IndexFileError) throw e;
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new IndexFileError(path, (e as Error).message);
  }
  const want = m?.files?.[name];
  if (want) {
    if (size !== want.bytes) throw new IndexFileError(path, `size ${size} bytes, manifest says ${want.bytes} (truncated or replaced)`);
    if (size > MAX_LISTED_SIDECAR_BYTES) throw new IndexFileError(path, `${size} bytes, more than the ${MAX_LISTED_SIDECAR_BYTES / 2 ** 20} MiB a side file can have; rebuild the index`);
  } else if (size > MAX_SIDECAR_BYTES) {
    throw new IndexFileError(path, `${size} bytes, more than the ${MAX_SIDECAR_BYTES / 2 ** 20} MiB an unlisted ${name} may have; rebuild the index`);
  }
  const fd = openSync(path, 'r');
  let buf: Buffer;
  try {
    // the file was a regular one when looked at; read what it had then, no more
    if (!fstatSync(fd).isFile()) throw new IndexFileError(path, 'not a regular file');
    buf = readAt(fd, 0, size);
  } finally {
    closeSync(fd);
  }
  if (buf.length !== size) throw new IndexFileError(path, `${buf.length} bytes read of ${size} (truncated while read)`);
  if (want && crc32(buf) !== want.crc32) throw new IndexFileError(path, 'checksum mismatch (the file is corrupt; rebuild the index)');
  return buf.toString('utf8');
}

function exists(p: string): boolean {
  try {
    statSync(p);
    return true;
  } catch {
    return false;
  }
}
