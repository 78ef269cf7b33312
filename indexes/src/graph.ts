/**
 * The library's proof graph, reduced to what ranking uses: how many proofs of
 * the corpus reference each declaration (its popularity prior).
 */
import type { PremiseRecord } from './extract/record.js';
import { toInfo, type PremiseInfo } from './store/premises.js';

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
