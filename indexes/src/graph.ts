/**
 * The library's proof graph, reduced to what ranking uses: how many proofs of
 * the corpus reference each declaration (its popularity prior), and which
 * declarations each proof references (the evidence behind graph votes: the
 * theorems nearest a query vote for the premises their proofs use).
 */
import type { PremiseRecord } from './extract/record.js';
import { toInfo, type PremiseInfo } from './premise-info.js';

/** References of each premise as ids of the same list, in compressed rows: refs of i are targets[offsets[i]..offsets[i+1]). */
export interface ProofGraph {
  offsets: Uint32Array;
  targets: Uint32Array;
}

/** How often each declaration is referenced by other proofs of the corpus. */
export function useCounts(records: PremiseRecord[]): Map<string, number> {
  const uses = new Map<string, number>();
  for (const r of records) for (const ref of new Set(r.refs)) uses.set(ref, (uses.get(ref) ?? 0) + 1);
  return uses;
}

export function toInfos(records: PremiseRecord[]): PremiseInfo[] {
  const uses = useCounts(records);
  return records.map((r) => toInfo(r, uses.get(r.name) ?? 0));
}

/** The references among `records` (to names outside the list, or to itself, are dropped). */
export function proofGraph(records: PremiseRecord[]): ProofGraph {
  const idOf = new Map(records.map((r, i) => [r.name, i]));
  const offsets = new Uint32Array(records.length + 1);
  const targets: number[] = [];
  records.forEach((r, i) => {
    offsets[i] = targets.length;
    const seen = new Set<number>();
    for (const ref of r.refs) {
      const t = idOf.get(ref);
      if (t !== undefined && t !== i && !seen.has(t)) {
        seen.add(t);
        targets.push(t);
      }
    }
  });
  offsets[records.length] = targets.length;
  return { offsets, targets: Uint32Array.from(targets) };
}

/** Checks a graph read from disk against the number of premises; returns what is wrong, or undefined. */
export function checkGraph(g: ProofGraph, size: number): string | undefined {
  if (g.offsets.length !== size + 1 || g.offsets[size] !== g.targets.length) return 'proof graph tables disagree';
  for (let i = 0; i < size; i++) if (g.offsets[i]! > g.offsets[i + 1]!) return `proof graph row #${i} is out of order`;
  for (const t of g.targets) if (t >= size) return `proof graph refers to premise #${t} of ${size}`;
  return undefined;
}
