/**
 * A search as a pipeline of named stages (docs/ranking.md, "The pipeline"):
 * generators propose candidates with their features, a ranker fuses them into one
 * score, the reorderers move the head of the sorted list in turn.
 */
import { byScore, type Candidate } from './candidate.js';
import { fusionFeatures } from './features.js';
import { GENERATORS } from './generators/index.js';
import { Pool } from './pool.js';
import { rankerFor } from './ranker.js';
import { REORDERERS } from './reorderers/index.js';
import type { Search } from './search.js';

/** Every candidate of the search, best first. */
export async function runPipeline(s: Search): Promise<Candidate[]> {
  const pool = new Pool(s);
  // all start before any adds a candidate: candidates read the accumulators the starts fill
  const steps = GENERATORS.map((g) => g.start(s));
  for (const [i, step] of steps.entries()) {
    pool.stage = GENERATORS[i]!.name;
    const pending = step?.(pool);
    if (pending) await pending;
  }
  const list = pool.list();
  const scores = rankerFor(s).score(
    s,
    list.map((c) => fusionFeatures(c.parts, c.uses, s.project && s.segs.indexOf(c.seg) >= s.firstOwn ? 1 : 0)),
  );
  list.forEach((c, i) => (c.score = scores[i]!));
  list.sort(byScore);
  for (const r of REORDERERS) {
    if (!r.applies(s)) continue;
    pool.stage = r.name;
    const pending = r.apply(s, list, pool);
    if (pending) await pending;
  }
  return list;
}
