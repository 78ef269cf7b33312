/**
 * A string table that needs no work at load time: the strings as one UTF-8 blob
 * with offsets, plus a permutation sorting them bytewise, so lookups are a
 * binary search over the stored bytes. Used for premise names and the BM25
 * vocabulary (hundreds of thousands of strings each) instead of building Maps.
 */
import type { SectionData } from './container.js';

export interface StringSections {
  blob: Buffer;
  offsets: Uint32Array;
  order: Uint32Array;
}

export function encodeStrings(strings: string[]): StringSections {
  const bufs = strings.map((s) => Buffer.from(s, 'utf8'));
  const offsets = new Uint32Array(strings.length + 1);
  let at = 0;
  bufs.forEach((b, i) => {
    offsets[i] = at;
    at += b.length;
  });
  offsets[strings.length] = at;
  const order = Uint32Array.from(strings.keys()).sort((a, b) => Buffer.compare(bufs[a]!, bufs[b]!));
  return { blob: Buffer.concat(bufs), offsets, order };
}

/** Sections named `<prefix>Blob`, `<prefix>Offsets`, `<prefix>Order` for a container. */
export function stringSections(prefix: string, s: StringSections): Record<string, SectionData> {
  return { [`${prefix}Blob`]: new Uint8Array(s.blob.buffer, s.blob.byteOffset, s.blob.byteLength), [`${prefix}Offsets`]: s.offsets, [`${prefix}Order`]: s.order };
}

export class StringTable {
  constructor(private readonly s: StringSections) {}

  get size(): number {
    return this.s.offsets.length - 1;
  }

  get(i: number): string {
    return this.s.blob.toString('utf8', this.s.offsets[i]!, this.s.offsets[i + 1]!);
  }

  /** Index of `str`, or undefined. */
  find(str: string): number | undefined {
    const key = Buffer.from(str, 'utf8');
    const { blob, offsets, order } = this.s;
    let lo = 0;
    let hi = order.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const i = order[mid]!;
      const c = Buffer.compare(blob.subarray(offsets[i]!, offsets[i + 1]!), key);
      if (c === 0) return i;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** Structural checks for a table read from disk. */
  check(): string | undefined {
    const { blob, offsets, order } = this.s;
    const n = offsets.length - 1;
    if (n < 0 || order.length !== n) return 'string table sizes disagree';
    if (offsets[n] !== blob.length) return 'string table offsets do not match its data';
    for (let i = 0; i < n; i++) if (offsets[i]! > offsets[i + 1]! || order[i]! >= n) return 'string table is out of order';
    return undefined;
  }
}
