/**
 * The metadata sidecar: one JSON object per premise, stored back to back with an
 * offset table, left on disk and read only when a premise is actually shown (the
 * 1,024 read last are kept parsed).
 * Names live in a sorted string table, so finding a premise by name costs a
 * binary search and loading costs nothing.
 */
import { LRUCache } from 'lru-cache';
import type { Lang } from '../extract/record.js';
import { checkGraph, type ProofGraph } from '../graph.js';
import type { PremiseInfo } from '../premise-info.js';
import { Container, IndexFileError, Utf8Bytes, type Expected, type SectionData } from './container.js';
import { encodeStrings, stringSections, StringTable } from './strings.js';

export { toInfo, type PremiseInfo } from '../premise-info.js';

export function encodePremises(infos: PremiseInfo[], graph: ProofGraph): Record<string, SectionData> {
  const offsets = new Uint32Array(infos.length + 1);
  // records' JSON written into large buffers, not one small buffer each
  const CHUNK = 16 * 1024 * 1024;
  const pieces: Buffer[] = [];
  let chunk = Buffer.allocUnsafe(CHUNK);
  let used = 0;
  let at = 0;
  infos.forEach((p, i) => {
    offsets[i] = at;
    const json = JSON.stringify(p);
    const bytes = Buffer.byteLength(json, 'utf8');
    if (used + bytes > chunk.length) {
      pieces.push(chunk.subarray(0, used));
      chunk = Buffer.allocUnsafe(Math.max(CHUNK, bytes));
      used = 0;
    }
    used += chunk.write(json, used, 'utf8');
    at += bytes;
  });
  pieces.push(chunk.subarray(0, used));
  offsets[infos.length] = at;
  return {
    ...stringSections('names', encodeStrings(infos.map((p) => p.name))),
    meta: new Utf8Bytes(pieces),
    metaOffsets: offsets,
    uses: Uint32Array.from(infos, (p) => p.uses),
    langs: Uint8Array.from(infos, (p) => LANGS.indexOf(p.lang)),
    refOffsets: graph.offsets,
    refTargets: graph.targets,
  };
}

/** Language codes of the `langs` section. */
export const LANGS: readonly Lang[] = ['lean', 'isabelle'];

/**
 * Records kept parsed: the library premises searches keep coming back to. Across
 * the bench's goals 4,096 held 62% of each search's 50 best and 1,024 held 39%, but
 * 4,096 left 40–50 MB more resident after its 4,000 queries (evicted records V8 had
 * not collected yet); 1,024 left the same as none.
 */
export const RECENT_RECORDS = 1024;

/** The sidecar as loaded: names, use counts and the proof graph in memory, records read from disk on demand. */
export class PremiseTable {
  readonly uses: Uint32Array;
  private readonly langs: Buffer;
  private readonly graph: ProofGraph;
  private readonly names: StringTable;
  private readonly offsets: Uint32Array;
  private readonly recent = new LRUCache<number, PremiseInfo>({ max: RECENT_RECORDS });

  constructor(private readonly c: Container) {
    this.names = new StringTable({ blob: c.u8('namesBlob'), offsets: c.u32('namesOffsets'), order: c.u32('namesOrder') });
    this.offsets = c.u32('metaOffsets');
    this.uses = c.u32('uses');
    this.langs = c.u8('langs');
    this.graph = { offsets: c.u32('refOffsets'), targets: c.u32('refTargets') };
    const n = this.names.size;
    const bad = this.names.check() ?? checkGraph(this.graph, n);
    if (bad) throw new IndexFileError(c.file, bad);
    if (this.offsets.length !== n + 1 || this.uses.length !== n || this.langs.length !== n || this.offsets[n] !== c.sectionBytes('meta')) {
      throw new IndexFileError(c.file, `premise tables disagree (${n} names, ${this.offsets.length - 1} records)`);
    }
  }

  /** Opens the sidecar; with `expected`, its size and CRC-32 are checked first. */
  static open(file: string, expected?: Expected): PremiseTable {
    return new PremiseTable(Container.read(file, ['meta'], expected));
  }

  get size(): number {
    return this.names.size;
  }

  name(id: number): string {
    return this.names.get(id);
  }

  id(name: string): number | undefined {
    return this.names.find(name);
  }

  lang(id: number): Lang {
    return LANGS[this.langs[id]!]!;
  }

  /** Ids of the premises this one's proof references. */
  refs(id: number): Uint32Array {
    return this.graph.targets.subarray(this.graph.offsets[id], this.graph.offsets[id + 1]);
  }

  /** Every premise in order, the records read from disk a block at a time. */
  *scan(): Generator<PremiseInfo> {
    const n = this.size;
    const BLOCK = 4 * 1024 * 1024;
    for (let first = 0; first < n; ) {
      // whole records up to about BLOCK bytes (at least one)
      let last = first + 1;
      while (last < n && this.offsets[last + 1]! - this.offsets[first]! <= BLOCK) last++;
      const base = this.offsets[first]!;
      const block = this.c.range('meta', base, this.offsets[last]!);
      for (let id = first; id < last; id++) yield this.parse(id, block.toString('utf8', this.offsets[id]! - base, this.offsets[id + 1]! - base));
      first = last;
    }
  }

  /** Closes the file the records are read from. */
  close(): void {
    this.c.close();
  }

  /**
   * A premise's record. The most recently read are kept (a search reads its 50
   * best candidates, and the same library premises come up again and again), so the
   * record is shared: frozen, never to be modified by the caller.
   */
  get(id: number): PremiseInfo {
    let info = this.recent.get(id);
    if (!info) {
      info = this.parse(id, this.c.range('meta', this.offsets[id]!, this.offsets[id + 1]!).toString('utf8'));
      Object.freeze(info.args);
      this.recent.set(id, Object.freeze(info));
    }
    return info;
  }

  private parse(id: number, raw: string): PremiseInfo {
    try {
      return JSON.parse(raw) as PremiseInfo;
    } catch {
      throw new IndexFileError(this.c.file, `premise record #${id} (${this.name(id)}) is not valid JSON`);
    }
  }
}
