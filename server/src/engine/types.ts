/**
 * The retrieval engine's public contract. The CLI, the language server and the
 * (future) HTTP/batch APIs depend on this file only, never on engine internals.
 */
import type { Lang, PremiseRecord } from '../../../indexes/src/extract/record.js';
import type { PremiseInfo } from '../../../indexes/src/store/premises.js';

export type { PremiseInfo };

export type Mode = 'bm25' | 'dense' | 'hybrid';

/** How a query was read. */
export type QueryStyle = 'lean-state' | 'isabelle-state' | 'lean-statement' | 'text';

export interface ParsedQuery {
  style: QueryStyle;
  /** The main goal (conclusion) text; for plain text, the whole text. */
  goal: string;
  /** Hypotheses / binders, one per entry. */
  hyps: string[];
  /** Other goals of a multi-goal state (context only). */
  otherGoals: string[];
  /** The whole query text, normalised (Isabelle ASCII symbols → Unicode). */
  text: string;
}

export interface SearchOptions {
  k?: number;
  mode?: Mode;
  /** Use the second stage; unset, the engine's default (on when the shipped reranker's evaluation says so). */
  rerank?: boolean;
  /** Restrict to one language's premises (default: Lean for Lean states and statements, Isabelle for Isabelle goals, both for text). */
  lang?: Lang;
  /**
   * Baseline only: score the whole query text with BM25, every term alike, instead
   * of weighting the goal above the hypotheses (for `eval` comparisons).
   */
  plainBm25?: boolean;
  /**
   * Names never returned and never used as evidence, typically the theorem being
   * proved: its own proof (in the index from an earlier build) must not vote for
   * its premises, and it cannot be used to prove itself.
   */
  exclude?: string[];
  /**
   * Names never returned that still count as evidence: what the file declares
   * below the cursor is not in scope there, but its proofs exist.
   */
  hidden?: string[];
  /**
   * Only these names may be returned (e.g. what a prover's environment has
   * imported); evidence is not restricted. Searches with `only` are not cached.
   */
  only?: { has(name: string): boolean };
  /**
   * Hybrid only: premises declared earlier in the file being edited. A third of
   * the premises a proof uses come from its own file, so these get a locality
   * bonus and join the candidates even when no retriever found them.
   */
  nearby?: string[];
  /**
   * Text queries: also search the premises' informal (English) side, and prefer
   * the kind of declaration the sentence asks for (default true; `false` is the
   * formal-only baseline that `eval` reports beside it).
   */
  informal?: boolean;
}

/** Every hit says where its score came from. Absent parts were not computed. */
export interface ScoreParts {
  dense?: number;
  sparse?: number;
  /** Text queries: BM25 over the premise's informal (English) side. */
  informal?: number;
  prior?: number;
  /** Hybrid only: votes from the proofs of the theorems nearest the query. */
  graph?: number;
  /** Hybrid only: 1 for a premise declared earlier in the same file (`nearby`). */
  local?: number;
  rerank?: number;
}


export interface SearchHit extends PremiseInfo {
  /** 1-based rank. */
  rank: number;
  /** The final score used for ranking. */
  score: number;
  parts: ScoreParts;
}

export interface PremiseSearch {
  /** Number of premises currently searchable. */
  readonly size: number;
  search(query: string, opts?: SearchOptions): Promise<SearchHit[]>;
  /** Batch form for automated provers; same results as calling `search` per query. */
  searchBatch(queries: string[], opts?: SearchOptions): Promise<SearchHit[][]>;
  lookup(name: string): PremiseInfo | undefined;
  /** Names of the premises of the loaded index, in a stable order (upserted premises are not listed). */
  indexedNames(): readonly string[];
  /** Modules of the loaded index, sorted (read from disk on the first call). */
  indexedModules(): readonly string[];
  /** Incremental updates (workspace overlay): add or replace records by name. */
  upsert(records: PremiseRecord[]): Promise<void>;
  remove(names: string[]): void;
}
