/**
 * Search with LLM help: the original query, the LLM's formal statement and its
 * informal restatement go through the engine's public search, and the three
 * ranked lists are fused by reciprocal-rank fusion, score(p) = Σ wᵢ / (60 + rankᵢ(p))
 * (the original query weighs 1, each rewrite 0.8, so a premise all three agree on
 * wins and the user's own words break ties). When the LLM fails in any way the
 * answer is the offline search, with one line to `log`.
 */
import type { PremiseSearch, SearchHit, SearchOptions } from '../engine/types.js';
import { augmentQuery, type Augmentation } from './augment.js';
import type { LlmClient } from './client.js';

/** RRF's rank offset (Cormack et al.'s usual constant). */
export const RRF_K = 60;
const WEIGHTS = { original: 1, formal: 0.8, informal: 0.8 };
/** Each list is searched this deep (at least k) before fusion. */
const MIN_DEPTH = 30;

/** Reciprocal-rank fusion of ranked lists; hits keep their fields (the first list's copy), ranks and scores are the fused ones. */
export function fuseRankings(lists: { hits: SearchHit[]; weight: number }[], k: number): SearchHit[] {
  const fused = new Map<string, { hit: SearchHit; score: number; order: number }>();
  let order = 0;
  for (const { hits, weight } of lists) {
    for (const h of hits) {
      const add = weight / (RRF_K + h.rank);
      const seen = fused.get(h.name);
      if (seen) seen.score += add;
      else fused.set(h.name, { hit: h, score: add, order: order++ });
    }
  }
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, k)
    .map((f, i) => ({ ...f.hit, rank: i + 1, score: f.score }));
}

export interface LlmSearchResult {
  hits: SearchHit[];
  /** The rewrites used; absent when the search fell back to the offline one. */
  augmentation?: Augmentation;
}

export async function searchWithLlm(
  engine: PremiseSearch,
  client: LlmClient,
  query: string,
  opts: SearchOptions = {},
  log: (line: string) => void = (l) => process.stderr.write(`premise-lsp: ${l}\n`),
): Promise<LlmSearchResult> {
  const k = opts.k ?? 10;
  let augmentation: Augmentation;
  try {
    augmentation = await augmentQuery(client, query, opts.lang === 'isabelle' ? 'isabelle' : 'lean');
  } catch (e) {
    log(`LLM help unavailable (${(e as Error).message}); offline search`);
    return { hits: await engine.search(query, opts) };
  }
  const deep = { ...opts, k: Math.max(k, MIN_DEPTH) };
  const lists = [{ text: query, weight: WEIGHTS.original }];
  if (augmentation.formal) lists.push({ text: augmentation.formal, weight: WEIGHTS.formal });
  if (augmentation.informal) lists.push({ text: augmentation.informal, weight: WEIGHTS.informal });
  // one batch: the engine embeds the three together and runs them one after another
  const ranked = await engine.searchBatch(lists.map((l) => l.text), deep);
  return { hits: fuseRankings(ranked.map((hits, i) => ({ hits, weight: lists[i]!.weight })), k), augmentation };
}
