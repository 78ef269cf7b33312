/**
 * A first-stage candidate (a premise of one segment), its order (the tie-break and
 * key) and the list helpers every stage shares. Its metadata is read from the index
 * only when asked for.
 */
import type { PremiseInfo } from '../../../../indexes/src/store/premises.js';
import type { Segment } from '../segment.js';
import type { ScoreParts } from '../types.js';

export class Candidate {
  private cached?: PremiseInfo;
  score = 0;
  /** The stages that proposed it, in the order they did (a generator's name; a reorderer's when it added it). */
  readonly via: string[] = [];

  constructor(
    readonly seg: Segment,
    readonly id: number,
    readonly order: number,
    readonly parts: ScoreParts,
    /** Uses that the excluded theorems' own proofs account for (the engine's `ownUses`). */
    readonly usesTaken = 0,
  ) {}

  /** How many proofs use it, the excluded theorems' not counted. */
  get uses(): number {
    return Math.max(0, this.seg.usesOf(this.id) - this.usesTaken);
  }

  get info(): PremiseInfo {
    if (this.cached) return this.cached;
    const info = this.seg.table.get(this.id);
    return (this.cached = this.usesTaken ? { ...info, uses: Math.max(0, info.uses - this.usesTaken) } : info);
  }
}

/** A candidate's key and tie-break: segment first, then position in the segment (-1 for absent). */
export const orderOf = (segIndex: number, id: number | undefined) => (id === undefined ? -1 : segIndex * 2 ** 32 + id);

/** Best first; ties broken by position in the index, so results never depend on set order. */
export const byScore = (a: Candidate, b: Candidate) => b.score - a.score || a.order - b.order;

/** Re-sorts the first `n` candidates (their scores changed by a second look) in place; the rest keep their order. */
export function resortHead(list: Candidate[], n: number): void {
  const head = list.slice(0, n).sort(byScore);
  list.splice(0, head.length, ...head);
}
