/** Hand-made premises for engine tests (no extractor involved). */
import type { PremiseRecord } from '../../indexes/src/extract/record.js';
import { toInfos } from '../../indexes/src/graph.js';
import { Segment } from '../../server/src/engine/segment.js';

const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };

export function rec(name: string, args: string[], goal: string, refs: string[] = [], doc?: string): PremiseRecord {
  return {
    name,
    kind: 'theorem',
    lang: 'lean',
    module: 'Test',
    file: 'Test.lean',
    range,
    args,
    goal,
    statement: `theorem ${name} ${args.join(' ')} : ${goal}`,
    refs,
    ...(doc ? { doc } : {}),
  };
}

export const RECORDS: PremiseRecord[] = [
  rec('add_comm', ['(a b : α)'], 'a + b = b + a', [], 'Addition is commutative.'),
  rec('mul_comm', ['(a b : α)'], 'a * b = b * a'),
  rec('le_refl', ['(a : α)'], 'a ≤ a'),
  rec('le_trans', ['(h₁ : a ≤ b)', '(h₂ : b ≤ c)'], 'a ≤ c', ['le_refl']),
  rec('abs_add', ['(a b : α)'], '|a + b| ≤ |a| + |b|', ['le_trans'], 'The triangle inequality.'),
  rec('Nat.succ_le_iff', ['{m n : ℕ}'], 'succ m ≤ n ↔ m < n', ['le_trans', 'le_refl']),
  rec('two_mul', ['(a : α)'], '2 * a = a + a', ['add_comm']),
];

/** An in-memory segment of records, with their proof references. */
export const segmentOf = (records: PremiseRecord[]) => Segment.fromInfos(toInfos(records), undefined, undefined, records.map((r) => r.refs));
