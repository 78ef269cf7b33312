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

/** Strings as a blob with offsets and their bytewise sort order (see HIGH). */
export function encodeStrings(strings: string[]): StringSections {
  const bufs = strings.map((s) => Buffer.from(s, 'utf8'));
  const offsets = new Uint32Array(strings.length + 1);
  let at = 0;
  bufs.forEach((b, i) => {
    offsets[i] = at;
    at += b.length;
  });
  offsets[strings.length] = at;
  const high = Uint8Array.from(strings, (s) => (HIGH.test(s) ? 1 : 0));
  // an Array of ids sorts faster than a Uint32Array with the same comparator
  const ids = Array.from(strings.keys()).sort((a, b) =>
    high[a] || high[b] ? Buffer.compare(bufs[a]!, bufs[b]!) : strings[a]! < strings[b]! ? -1 : strings[a]! > strings[b]! ? 1 : 0,
  );
  const order = Uint32Array.from(ids);
  return { blob: Buffer.concat(bufs), offsets, order };
}

/**
 * The sort is bytewise on the UTF-8 encodings (Buffer.compare). UTF-8 byte order
 * is code point order, which JavaScript's `<` (UTF-16 code units) agrees with
 * unless a surrogate meets a character in U+E000–U+FFFF: pairs where either
 * string has a unit from U+D800 up are compared as bytes.
 */
const HIGH = /[\uD800-\uFFFF]/;

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
