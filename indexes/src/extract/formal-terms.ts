/**
 * A declaration's formal BM25 terms, made where it is extracted (on the index
 * build's worker threads), and again for a record the resolver completes (an
 * alias given its target's statement, ./alias-types.ts).
 */
import type { TermRun } from '../sparse/bm25.js';
import { terms } from '../sparse/terms.js';
import type { PremiseRecord } from './record.js';

/**
 * `terms(sparseText(d))`, made piece by piece: sparseText joins its pieces with
 * spaces, which no term spans, so its terms are the pieces' terms in order; the
 * binder groups (`[Group G]`, `{α : Type*}`), much repeated, are remembered.
 * Follows sparseText of ../premise-text.ts piece for piece; the equality is
 * checked by test/unit/extract-parallel.test.ts.
 */
export function formalTerms(d: PremiseRecord): string[] {
  const name = terms(d.name);
  const out = [...name, ...name];
  for (const a of d.args) {
    let ts = argMemo.get(a);
    if (ts === undefined) {
      ts = terms(a);
      if (argMemo.size < 100_000) argMemo.set(a, ts);
    }
    for (const t of ts) out.push(t);
  }
  for (const t of terms(d.goal || d.statement)) out.push(t);
  if (d.doc) for (const t of terms(d.doc)) out.push(t);
  return out;
}
const argMemo = new Map<string, string[]>();

/** One declaration's terms as a run over a table of its own. */
export function ownTermRun(d: PremiseRecord): TermRun {
  const index = new Map<string, number>();
  const ids = formalTerms(d).map((t) => {
    let id = index.get(t);
    if (id === undefined) index.set(t, (id = index.size));
    return id;
  });
  return { table: { terms: [...index.keys()], ids: Uint32Array.from(ids) }, start: 0, end: ids.length };
}
