/**
 * A tiny binary container: magic, a JSON header listing typed sections, then the
 * sections, 8-byte aligned. Reading is one `readFileSync` plus zero-copy typed
 * views, and every structural fact is checked so that a corrupt or truncated file
 * fails with an error naming the file instead of producing garbage.
 */
import { readFileSync, writeFileSync, renameSync } from 'node:fs';

const MAGIC = 'PLSPBIN1';

export type SectionData = Uint8Array | Int8Array | Uint32Array | Float32Array | string;
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
  if (typeof d === 'string') return 'utf8';
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
    const buf =
      typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    headers.push({ name, dtype: dtypeOf(data), offset, bytes: buf.length });
    bodies.push(buf);
    const pad = align8(buf.length) - buf.length;
    if (pad) bodies.push(Buffer.alloc(pad));
    offset += align8(buf.length);
  }
  const headerJson = Buffer.from(JSON.stringify({ sections: headers, dataBytes: offset }), 'utf8');
  const prefix = Buffer.alloc(16);
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(headerJson.length, 8);
  const headerPad = Buffer.alloc(align8(16 + headerJson.length) - 16 - headerJson.length);
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, Buffer.concat([prefix, headerJson, headerPad, ...bodies]));
  renameSync(tmp, file);
}

export class Container {
  private constructor(
    readonly file: string,
    private readonly buf: Buffer,
    private readonly dataStart: number,
    private readonly sections: Map<string, SectionHeader>,
  ) {}

  static read(file: string): Container {
    let buf: Buffer;
    try {
      buf = readFileSync(file);
      // typed views need an aligned start; small reads may come from Node's pool
      if (buf.byteOffset % 8 !== 0) buf = Buffer.from(new Uint8Array(buf));
    } catch (e) {
      throw new IndexFileError(file, (e as Error).message);
    }
    if (buf.length < 16 || buf.toString('latin1', 0, 8) !== MAGIC) {
      throw new IndexFileError(file, 'not a premise-lsp index file (bad magic number)');
    }
    const headerLen = buf.readUInt32LE(8);
    if (16 + headerLen > buf.length) throw new IndexFileError(file, 'truncated header');
    let header: { sections: SectionHeader[]; dataBytes: number };
    try {
      header = JSON.parse(buf.toString('utf8', 16, 16 + headerLen));
    } catch {
      throw new IndexFileError(file, 'unreadable header');
    }
    const dataStart = align8(16 + headerLen);
    if (!Array.isArray(header.sections) || dataStart + header.dataBytes !== buf.length) {
      throw new IndexFileError(
        file,
        `expected ${dataStart + (header.dataBytes ?? 0)} bytes, found ${buf.length} (truncated or extended)`,
      );
    }
    const sections = new Map<string, SectionHeader>();
    for (const s of header.sections) {
      if (s.offset < 0 || s.offset + s.bytes > header.dataBytes || s.offset % 8 !== 0) {
        throw new IndexFileError(file, `section ${s.name} lies outside the file`);
      }
      sections.set(s.name, s);
    }
    return new Container(file, buf, dataStart, sections);
  }

  private section(name: string, dtype: Dtype): SectionHeader {
    const s = this.sections.get(name);
    if (!s) throw new IndexFileError(this.file, `missing section ${name}`);
    if (s.dtype !== dtype) throw new IndexFileError(this.file, `section ${name} has type ${s.dtype}, expected ${dtype}`);
    return s;
  }

  private view(name: string, dtype: Dtype, width: number): { offset: number; length: number } {
    const s = this.section(name, dtype);
    if (s.bytes % width) throw new IndexFileError(this.file, `section ${name} has a partial element`);
    return { offset: this.buf.byteOffset + this.dataStart + s.offset, length: s.bytes / width };
  }

  u32(name: string): Uint32Array {
    const v = this.view(name, 'u32', 4);
    return new Uint32Array(this.buf.buffer, v.offset, v.length);
  }
  f32(name: string): Float32Array {
    const v = this.view(name, 'f32', 4);
    return new Float32Array(this.buf.buffer, v.offset, v.length);
  }
  i8(name: string): Int8Array {
    const v = this.view(name, 'i8', 1);
    return new Int8Array(this.buf.buffer, v.offset, v.length);
  }
  bytes(name: string): Buffer {
    const s = this.section(name, 'utf8');
    return this.buf.subarray(this.dataStart + s.offset, this.dataStart + s.offset + s.bytes);
  }
  utf8(name: string): string {
    return this.bytes(name).toString('utf8');
  }
}
