/**
 * The layout of a saved usearch index (`Index.save`, usearch 2.x), checked
 * before the file is handed to the native view: the view trusts the file's
 * counts and offsets, so a crafted file (its CRC fixed up in the manifest)
 * would make it read far outside the mapping (SIGSEGV). The file is
 *
 *   u32 rows, u32 bytes per row, the rows (the int8 vectors);
 *   a 64-byte head: "usearch", u16 version ×3, u8 metric/scalar/key/slot kinds,
 *     u64 present, u64 deleted, u64 dimensions, u8 multi, padding;
 *   the graph: u64 size, connectivity, base connectivity, max level, entry slot;
 *     u16 level of each node; then each node: u64 key, u16 level, a base
 *     neighbour list (u32 count + u32 × base connectivity) and one list per
 *     level above 0 (u32 count + u32 × connectivity).
 *
 * Every count and the exact file size are checked against what the manifest
 * says (rows = premises, dimensions); any mismatch is an IndexFileError.
 */
import { closeSync, fstatSync, openSync } from 'node:fs';
import { IndexFileError, readAt } from './container.js';

const HEAD_BYTES = 64;
const GRAPH_HEAD_BYTES = 40;
/** Far above what usearch makes (levels grow as log of the size; connectivity is 16 here). */
const MAX_LEVEL = 64;
const MAX_CONNECTIVITY = 4096;

/** Throws an IndexFileError unless `path` is a usearch index of `count` int8 vectors of `dim` dimensions, of exactly its expected size. */
export function checkUsearchFile(path: string, count: number, dim: number): void {
  const fail = (why: string): never => {
    throw new IndexFileError(path, `not a usearch index of ${count} vectors of dimension ${dim} (${why})`);
  };
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw new IndexFileError(path, (e as Error).message);
  }
  try {
    const size = fstatSync(fd).size;
    const rowsHead = readAt(fd, 0, 8);
    if (rowsHead.length < 8) fail('truncated');
    const rows = rowsHead.readUInt32LE(0);
    const rowBytes = rowsHead.readUInt32LE(4);
    if (rows !== count) fail(`${rows} rows`);
    if (rowBytes !== dim) fail(`${rowBytes} bytes per row`);
    const headAt = 8 + rows * rowBytes;
    if (headAt + HEAD_BYTES + GRAPH_HEAD_BYTES > size) fail('truncated');
    const head = readAt(fd, headAt, HEAD_BYTES);
    if (head.subarray(0, 7).toString('latin1') !== 'usearch') fail('no usearch header');
    if (head.readBigUInt64LE(17) !== BigInt(count)) fail(`header says ${head.readBigUInt64LE(17)} vectors`);
    if (head.readBigUInt64LE(25) !== 0n) fail('deleted vectors');
    if (head.readBigUInt64LE(33) !== BigInt(dim)) fail(`header says ${head.readBigUInt64LE(33)} dimensions`);
    const graph = readAt(fd, headAt + HEAD_BYTES, GRAPH_HEAD_BYTES);
    const [nodes, connectivity, baseConnectivity, maxLevel, entry] = [0, 8, 16, 24, 32].map((o) => graph.readBigUInt64LE(o));
    if (nodes !== BigInt(count)) fail(`graph of ${nodes} nodes`);
    if (connectivity! < 1n || connectivity! > MAX_CONNECTIVITY || baseConnectivity! < 1n || baseConnectivity! > MAX_CONNECTIVITY) fail('connectivity out of range');
    if (maxLevel! > MAX_LEVEL) fail(`max level ${maxLevel}`);
    if (count > 0 && entry! >= BigInt(count)) fail(`entry ${entry}`);
    const levelsAt = headAt + HEAD_BYTES + GRAPH_HEAD_BYTES;
    if (levelsAt + 2 * count > size) fail('truncated');
    const levels = readAt(fd, levelsAt, 2 * count);
    const base = 8 + 2 + 4 + 4 * Number(baseConnectivity);
    const perLevel = 4 + 4 * Number(connectivity);
    let expected = levelsAt + 2 * count;
    for (let i = 0; i < count; i++) {
      const level = levels.readUInt16LE(2 * i);
      if (level > Number(maxLevel)) fail(`node ${i} at level ${level}`);
      expected += base + level * perLevel;
    }
    if (expected !== size) fail(`${size} bytes, expected ${expected}`);
  } finally {
    closeSync(fd);
  }
}
