/**
 * A tiny binary container: magic, a JSON header listing typed sections, then the
 * sections, 8-byte aligned. Each section is read with one call into its own
 * aligned buffer (large ones can stay on disk and be read by range), and every
 * structural fact is checked so that a corrupt or truncated file fails with an
 * error naming the file instead of producing garbage.
 */
import { closeSync, fstatSync, openSync, readSync, renameSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { crc32 } from 'node:zlib';

const MAGIC = 'PLSPBIN1';

export type SectionData = Uint8Array | Int8Array | Uint32Array | Float32Array | string | Utf8Bytes;

/** A `utf8` section given as its encoded bytes, in pieces written one after the other (no round trip through a string). */
export class Utf8Bytes {
  constructor(readonly pieces: Uint8Array[]) {}
}
type Dtype = 'u8' | 'i8' | 'u32' | 'f32' | 'utf8';

interface SectionHeader {
  name: string;
  dtype: Dtype;
  offset: number; // from the start of the data area
  bytes: number;
}

export class IndexFileError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`corrupt or unreadable index file ${file}: ${reason}`);
    this.name = 'IndexFileError';
  }
}

function dtypeOf(d: SectionData): Dtype {
  if (typeof d === 'string' || d instanceof Utf8Bytes) return 'utf8';
  if (d instanceof Int8Array) return 'i8';
  if (d instanceof Uint32Array) return 'u32';
  if (d instanceof Float32Array) return 'f32';
  return 'u8';
}

const align8 = (n: number) => (n + 7) & ~7;

/** Writes atomically (temp file + rename) so a crash never leaves a half file. */
export function writeContainer(file: string, sections: Record<string, SectionData>): void {
  const bodies: Buffer[] = [];
  const headers: SectionHeader[] = [];
  let offset = 0;
  for (const [name, data] of Object.entries(sections)) {
    const view = (b: Uint8Array | Int8Array | Uint32Array | Float32Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);
    const bufs = data instanceof Utf8Bytes ? data.pieces.map(view) : [typeof data === 'string' ? Buffer.from(data, 'utf8') : view(data)];
    const length = bufs.reduce((n, b) => n + b.length, 0);
    headers.push({ name, dtype: dtypeOf(data), offset, bytes: length });
    bodies.push(...bufs);
    const pad = align8(length) - length;
    if (pad) bodies.push(Buffer.alloc(pad));
    offset += align8(length);
  }
  const headerJson = Buffer.from(JSON.stringify({ sections: headers, dataBytes: offset }), 'utf8');
  const prefix = Buffer.alloc(16);
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(headerJson.length, 8);
  const headerPad = Buffer.alloc(align8(16 + headerJson.length) - 16 - headerJson.length);
  const tmp = `${file}.tmp-${process.pid}`;
  // piece by piece: a large index is never copied into one buffer
  const fd = openSync(tmp, 'w');
  try {
    for (const b of [prefix, headerJson, headerPad, ...bodies]) for (let at = 0; at < b.length; ) at += writeSync(fd, b, at, b.length - at);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

/** What the manifest says a file must be: its size and CRC-32. */
export interface Expected {
  bytes: number;
  crc32: number;
}

const DTYPES = new Set<Dtype>(['u8', 'i8', 'u32', 'f32', 'utf8']);
const CHUNK = 16 * 1024 * 1024;

/** Opens an index file for reading; failing to is an IndexFileError naming it. */
function openIndexFile(file: string): number {
  try {
    // a FIFO in an index's place would block the open (and the process) for ever
    if (!statSync(file).isFile()) throw new Error('not a regular file');
    return openSync(file, 'r');
  } catch (e) {
    throw new IndexFileError(file, (e as Error).message);
  }
}

/** CRC-32 of a whole file, read in chunks (no whole-file buffer). */
export function fileCrc32(file: string): number {
  const fd = openIndexFile(file);
  try {
    return crcOfFd(fd, fstatSync(fd).size);
  } finally {
    closeSync(fd);
  }
}

function crcOfFd(fd: number, size: number): number {
  const buf = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(1, size)));
  let crc = 0;
  for (let at = 0; at < size; ) {
    const n = readSync(fd, buf, 0, Math.min(buf.length, size - at), at);
    if (n === 0) break;
    crc = crc32(buf.subarray(0, n), crc);
    at += n;
  }
  return crc;
}

export class Container {
  private constructor(
    readonly file: string,
    private fd: number,
    private readonly dataStart: number,
    private readonly sections: Map<string, SectionHeader>,
    private readonly loaded: Map<string, Buffer>,
  ) {}

  /**
   * Reads the header and every section except those named in `lazy`, which stay
   * on disk and are read by range on demand (`range`), keeping memory small.
   * With `expected`, the file's size and CRC-32 are checked first (a file without
   * lazy sections is read once, checksummed, and its sections are views of it).
   */
  static read(file: string, lazy: string[] = [], expected?: Expected): Container {
    const fd = openIndexFile(file);
    try {
      return Container.parse(file, fd, new Set(lazy), expected);
    } catch (e) {
      closeSync(fd);
      if (e instanceof IndexFileError) throw e;
      throw new IndexFileError(file, (e as Error)?.message ?? String(e));
    }
  }

  private static parse(file: string, fd: number, lazy: Set<string>, expected?: Expected): Container {
    const size = fstatSync(fd).size;
    let whole: Buffer | undefined;
    if (expected) {
      if (size !== expected.bytes) throw new IndexFileError(file, `size ${size} bytes, manifest says ${expected.bytes} (truncated or replaced)`);
      let crc: number;
      if (lazy.size) crc = crcOfFd(fd, size);
      else {
        whole = readAt(fd, 0, size);
        if (whole.length !== size) throw new IndexFileError(file, `read ${whole.length} of ${size} bytes`);
        crc = crc32(whole);
      }
      if (crc !== expected.crc32) throw new IndexFileError(file, 'checksum mismatch (the file is corrupt; rebuild the index)');
    }
    const at = (position: number, bytes: number): Buffer => (whole ? whole.subarray(position, position + bytes) : readAt(fd, position, bytes));
    const prefix = at(0, Math.min(16, size));
    if (size < 16 || prefix.toString('latin1', 0, 8) !== MAGIC) {
      throw new IndexFileError(file, 'not a premise-lsp index file (bad magic number)');
    }
    const headerLen = prefix.readUInt32LE(8);
    if (16 + headerLen > size) throw new IndexFileError(file, 'truncated header');
    let header: { sections: SectionHeader[]; dataBytes: number };
    try {
      header = JSON.parse(at(16, headerLen).toString('utf8'));
    } catch {
      throw new IndexFileError(file, 'unreadable header');
    }
    const dataStart = align8(16 + headerLen);
    if (!header || !Array.isArray(header.sections) || !Number.isSafeInteger(header.dataBytes) || dataStart + header.dataBytes !== size) {
      throw new IndexFileError(file, `expected ${dataStart + (Number(header?.dataBytes) || 0)} bytes, found ${size} (truncated or extended)`);
    }
    const sections = new Map<string, SectionHeader>();
    const loaded = new Map<string, Buffer>();
    for (const s of header.sections) {
      if (!s || typeof s.name !== 'string' || !DTYPES.has(s.dtype)) throw new IndexFileError(file, 'bad section header');
      if (!Number.isSafeInteger(s.offset) || !Number.isSafeInteger(s.bytes) || s.bytes < 0) {
        throw new IndexFileError(file, `section ${s.name} has a bad offset or size`);
      }
      if (s.offset < 0 || s.offset + s.bytes > header.dataBytes || s.offset % 8 !== 0) {
        throw new IndexFileError(file, `section ${s.name} lies outside the file`);
      }
      sections.set(s.name, s);
      if (!lazy.has(s.name)) loaded.set(s.name, at(dataStart + s.offset, s.bytes));
    }
    if (!lazy.size) closeSync(fd);
    return new Container(file, lazy.size ? fd : -1, dataStart, sections, loaded);
  }

  private section(name: string, dtype: Dtype): SectionHeader {
    const s = this.sections.get(name);
    if (!s) throw new IndexFileError(this.file, `missing section ${name}`);
    if (s.dtype !== dtype) throw new IndexFileError(this.file, `section ${name} has type ${s.dtype}, expected ${dtype}`);
    return s;
  }

  private data(name: string, dtype: Dtype, width: number): Buffer {
    const s = this.section(name, dtype);
    if (s.bytes % width) throw new IndexFileError(this.file, `section ${name} has a partial element`);
    const buf = this.loaded.get(name);
    if (!buf) throw new IndexFileError(this.file, `section ${name} was not loaded`);
    return buf;
  }

  u32(name: string): Uint32Array {
    const b = this.data(name, 'u32', 4);
    return new Uint32Array(b.buffer, b.byteOffset, b.length / 4);
  }
  f32(name: string): Float32Array {
    const b = this.data(name, 'f32', 4);
    return new Float32Array(b.buffer, b.byteOffset, b.length / 4);
  }
  i8(name: string): Int8Array {
    const b = this.data(name, 'i8', 1);
    return new Int8Array(b.buffer, b.byteOffset, b.length);
  }
  u8(name: string): Buffer {
    return this.data(name, 'u8', 1);
  }
  utf8(name: string): string {
    return this.data(name, 'utf8', 1).toString('utf8');
  }

  /** Size in bytes of a section (lazy or not). */
  sectionBytes(name: string): number {
    const s = this.sections.get(name);
    if (!s) throw new IndexFileError(this.file, `missing section ${name}`);
    return s.bytes;
  }

  /** Closes the file of the lazy sections (no more `range` reads). */
  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }

  /** Bytes [start, end) of a lazy section, read from disk. */
  range(name: string, start: number, end: number): Buffer {
    const s = this.sections.get(name);
    if (!s || this.fd < 0) throw new IndexFileError(this.file, `section ${name} is not readable by range`);
    if (start < 0 || end > s.bytes || start > end) throw new IndexFileError(this.file, `range ${start}..${end} outside section ${name}`);
    return readAt(this.fd, this.dataStart + s.offset + start, end - start);
  }
}

/** The most one readSync takes. */
const MAX_READ = 1024 * 1024 * 1024;

/** Reads exactly `bytes` at `position` into a fresh (8-byte aligned) buffer. */
export function readAt(fd: number, position: number, bytes: number): Buffer {
  const buf = Buffer.allocUnsafeSlow(bytes);
  let done = 0;
  while (done < bytes) {
    // one read takes at most 2 GiB - 1 bytes (node's bound): larger ones in pieces
    const n = readSync(fd, buf, done, Math.min(bytes - done, MAX_READ), position + done);
    if (n === 0) break;
    done += n;
  }
  return done === bytes ? buf : buf.subarray(0, done);
}
