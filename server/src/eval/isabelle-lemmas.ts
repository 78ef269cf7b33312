/**
 * Isabelle lemmas as queries ("statement → the facts its proof uses"), from an
 * index's own records: the AFP held-out set that `eval --dataset afp` and the
 * bench score. A theory file is held out when SHA-1(its path) mod 20 = 0, the path
 * taken inside the AFP's `thys/` (a leading `thys/` dropped, so that an index of
 * the AFP root and one of `thys/` hold out the same theories); in it,
 * every lemma, theorem, corollary or proposition whose proof names at least one
 * fact the index resolves (other than itself) is a query. Queries are ordered by
 * SHA-1(name) so that any prefix is a fixed sample; the `dev`/`test` half (the
 * query's style) is the parity of SHA-1(name): choose on `dev`, report `test`.
 * The query is the statement as Isabelle prints a goal
 * (`goal (1 subgoal):\n 1. ⟦A; B⟧ ⟹ C`); the lemma itself is excluded, as a
 * LeanDojo step's theorem is.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { PremiseTable } from '../../../indexes/src/store/premises.js';
import { dataDir } from '../../../indexes/src/store/data-dir.js';
import type { EvalQuery } from './datasets.js';

const HOLDOUT_MOD = 20n;
const FACT_KINDS = new Set(['lemma', 'theorem', 'corollary', 'proposition']);

/** SHA-1 as hex: ordering these strings orders the 160-bit numbers. */
const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');
const mod = (hex: string, m: bigint) => BigInt(`0x${hex}`) % m;

/** A fact's statement as Isabelle prints it as the one subgoal. */
export function isabelleGoal(args: string[], goal: string): string {
  return `goal (1 subgoal):\n 1. ${args.length ? `⟦${args.join('; ')}⟧ ⟹ ${goal}` : goal}`;
}

/** The first `limit` held-out Isabelle lemmas of an index directory (from its `premises.bin`). */
export function heldOutLemmas(indexDir: string, limit = 500): EvalQuery[] {
  const table = PremiseTable.open(join(dataDir(indexDir), 'premises.bin'));
  try {
    const rows: { key: string; q: EvalQuery }[] = [];
    let id = 0;
    for (const info of table.scan()) {
      const i = id++;
      if (info.lang !== 'isabelle' || !FACT_KINDS.has(info.kind) || !info.goal.trim() || mod(sha1(info.file.replace(/^thys\//, '')), HOLDOUT_MOD) !== 0n) continue;
      const gold = [...new Set(Array.from(table.refs(i), (t) => table.name(t)))].filter((n) => n !== info.name).sort();
      if (!gold.length) continue;
      const key = sha1(info.name);
      const split = mod(key, 2n) === 0n ? 'dev' : 'test';
      rows.push({ key, q: { id: info.name, style: split, text: isabelleGoal(info.args, info.goal), gold: gold.map((n) => [n]), theorem: info.name } });
    }
    rows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return rows.slice(0, limit).map((r) => r.q);
  } finally {
    table.close();
  }
}
