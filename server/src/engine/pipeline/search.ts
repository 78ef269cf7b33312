/**
 * What every stage of a search reads (`Search`): the query as parsed and weighed,
 * the segments it sees and the engine's lookups over them. The engine builds one per
 * query (engine.ts, `searchOne`); the stages only read it.
 */
import type { FusionWeights } from '../fusion.js';
import type { Loc } from '../graph-votes.js';
import type { LearnedFusion } from '../learned-fusion.js';
import type { Pattern } from '../pattern.js';
import type { Reranker } from '../rerank.js';
import type { Segment } from '../segment.js';
import type { TextQuery } from '../text-query.js';
import type { Lang } from '../../../../indexes/src/extract/record.js';
import type { Mode, ParsedQuery, SearchOptions } from '../types.js';
import type { TreeRanker } from '../tree-ranker.js';
import type { Candidate } from './candidate.js';

export interface Search {
  readonly q: ParsedQuery;
  readonly mode: Mode;
  readonly k: number;
  readonly opts: SearchOptions;
  /** The query's vector (for English, the text tower's blend), when the mode reads vectors. */
  readonly vec?: Float32Array;
  /** The segments the search sees, its own premises last. */
  readonly segs: Segment[];
  /** The hand-set weights for this kind of query. */
  readonly w: FusionWeights;
  /** Text in hybrid mode, read for its English (undefined otherwise). */
  readonly tq?: TextQuery;
  /** IDF-weighted query terms of the formal BM25 field (bm25 and hybrid modes). */
  readonly sparseTerms?: Map<string, number>;
  /** IDF-weighted query terms of the informal (English) field (text in hybrid mode). */
  readonly informalTerms?: Map<string, number>;
  /** Names are read against the query (prose, where the fusion weighs them). */
  readonly readNames: boolean;
  /** Candidates each retriever keeps. */
  readonly poolSize: number;
  /** Per segment, the premises a scope filter masks (undefined: none). */
  readonly blocked?: Uint8Array[];
  readonly pattern?: Pattern;
  /** The pattern's matches per segment, found before anything is scored (engine.ts `matchPattern`: matching yields to other searches, which reuse the segments' accumulators). */
  readonly matched?: { ids: number[][]; count: number; partial: boolean };
  /** The engine serves a Lake project's automatic index; its own premises are in `segs[firstOwn]` and after. */
  readonly project: boolean;
  readonly firstOwn: number;
  /** The most uses of any premise (the prior's scale). */
  readonly maxUses: number;
  /** Uses the excluded theorems' own proofs account for, by candidate order. */
  readonly taken: ReadonlyMap<number, number>;
  /** The reranker, when this search reranks. */
  readonly reranker?: Reranker;
  /** The learned fusion, when one is loaded. */
  readonly fusion?: LearnedFusion;
  /** The learned ranker, when one is loaded (`--ranker`). */
  readonly ranker?: TreeRanker;
  /** The fusion weights were set by hand (they replace the learned fusion). */
  readonly handWeights: boolean;
  readonly goalMatch: boolean;
  /** A premise may be a candidate: live, in scope, not excluded or shadowed, of the query's language. */
  usable(seg: Segment, segIndex: number, id: number): boolean;
  /** A premise the search hides (`hidden`, outside `only`); it may still vote. */
  filtered(seg: Segment, id: number): boolean;
  /** Where a name is searchable now (a search's own premises first). */
  locate(name: string): Loc | undefined;
  /** The live premises a proof references. */
  refTargets(n: Loc): Loc[];
  /** Held in memory (a caller's new premises, the edited documents', the nearby ones): its metadata costs no read from disk. */
  inMemory(c: Candidate): boolean;
}

/** The premises' language a query's style asks for (text may match either). */
export function queryLang(style: ParsedQuery['style']): Lang | undefined {
  return style === 'lean-state' || style === 'lean-statement' ? 'lean' : style === 'isabelle-state' ? 'isabelle' : undefined;
}
