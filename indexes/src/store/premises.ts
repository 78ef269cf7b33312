/**
 * The metadata sidecar: one JSON object per premise, stored back to back with an
 * offset table and decoded only when a premise is actually shown. Names are kept
 * in their own section so the name → id map is built without JSON parsing.
 */
import type { DeclKind, Lang, PremiseRecord, Range } from '../extract/record.js';
import { Container, IndexFileError, type SectionData } from './container.js';

/** What an index keeps about each premise (a PremiseRecord without its proof refs). */
export interface PremiseInfo {
  name: string;
  kind: DeclKind;
  lang: Lang;
  module: string;
  file: string;
  range: Range;
  statement: string;
  args: string[];
  goal: string;
  doc?: string;
  /** How many declarations of the corpus reference this one in their proofs. */
  uses: number;
}

export function toInfo(r: PremiseRecord, uses: number): PremiseInfo {
  const info: PremiseInfo = {
    name: r.name,
    kind: r.kind,
    lang: r.lang,
    module: r.module,
    file: r.file,
    range: r.range,
    statement: r.statement,
    args: r.args,
    goal: r.goal,
    uses,
  };
  if (r.doc) info.doc = r.doc;
  return info;
}

export function encodePremises(infos: PremiseInfo[]): Record<string, SectionData> {
  const offsets = new Uint32Array(infos.length + 1);
  const chunks: Buffer[] = [];
  let at = 0;
  infos.forEach((p, i) => {
    offsets[i] = at;
    const b = Buffer.from(JSON.stringify(p), 'utf8');
    chunks.push(b);
    at += b.length;
  });
  offsets[infos.length] = at;
  return {
    names: infos.map((p) => p.name).join('\n'),
    meta: Buffer.concat(chunks).toString('utf8'),
    metaOffsets: offsets,
    uses: Uint32Array.from(infos, (p) => p.uses),
  };
}

export class PremiseTable {
  readonly names: string[];
  readonly uses: Uint32Array;
  private readonly byName = new Map<string, number>();
  private readonly meta: Buffer;
  private readonly offsets: Uint32Array;

  constructor(c: Container) {
    const names = c.utf8('names');
    this.names = names.length ? names.split('\n') : [];
    this.meta = c.bytes('meta');
    this.offsets = c.u32('metaOffsets');
    this.uses = c.u32('uses');
    const n = this.names.length;
    if (this.offsets.length !== n + 1 || this.uses.length !== n || this.offsets[n] !== this.meta.length) {
      throw new IndexFileError(c.file, `premise tables disagree (${n} names, ${this.offsets.length - 1} records)`);
    }
    this.names.forEach((name, i) => this.byName.set(name, i));
  }

  get size(): number {
    return this.names.length;
  }

  id(name: string): number | undefined {
    return this.byName.get(name);
  }

  get(id: number): PremiseInfo {
    const raw = this.meta.toString('utf8', this.offsets[id]!, this.offsets[id + 1]!);
    try {
      return JSON.parse(raw) as PremiseInfo;
    } catch {
      throw new Error(`corrupt premise record #${id} (${this.names[id]}) in index metadata`);
    }
  }
}
