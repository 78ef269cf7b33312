/**
 * The retrieval engine's public contract. The engine's public surface is this
 * file (types) and `open.ts` (opening an index, and the few engine values callers
 * need); the CLI, the language server, the HTTP API, eval and bench use nothing
 * else of `server/src/engine/` (test/unit/import-graph.test.ts enforces it).
 */
import type { Lang, PremiseRecord } from '../../../indexes/src/extract/record.js';
import type { PremiseInfo } from '../../../indexes/src/store/premises.js';
import type { ModuleImports } from '../../../indexes/src/module-imports.js';

export type { PremiseInfo, ModuleImports };

/** `sine` and `mepo` are the SInE and MePo baselines over the index's symbols (docs/ranking.md, "Baselines"). */
export type Mode = 'bm25' | 'dense' | 'hybrid' | 'sine' | 'mepo';

/**
 * The most characters of a query the engine reads (a pasted file is not a proof
 * state); the rest is cut. Callers that hold long texts (the language server's
 * goals and declarations) cut them here too, so every path reads the same amount.
 */
export const MAX_QUERY_CHARS = 20_000;

/**
 * Most entries of each scope list (modules, namespaces, kinds) one search takes,
 * wherever they come from (`SearchOptions.scope`, `in:`/`ns:`/`kind:` terms in the
 * query text, both together): each entry is tested against every premise.
 */
export const MAX_SCOPE_ENTRIES = 100;

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

/**
 * Where a search looks (docs/ranking.md, "Scope filters"): module prefixes
 * (`Mathlib.Topology` covers `Mathlib.Topology.*`), namespace prefixes (`Finset`:
 * `Finset.*`), kinds (`theorem` also takes `lemma`); each list is "any of".
 * Deprecated declarations are left out unless `deprecated` is true.
 */
export interface ScopeFilter {
  modules?: string[];
  namespaces?: string[];
  kinds?: string[];
  deprecated?: boolean;
}

export interface SearchOptions {
  k?: number;
  /**
   * Restrict the search (merged with `in:`/`ns:`/`kind:`/`deprecated:` terms in the
   * query text); applied before the top-k cut.
   */
  scope?: ScopeFilter;
  /**
   * Read the query as a Loogle-style pattern (constants, `"name fragments"`, terms
   * with `_` and `?a` holes, `⊢ conclusion`, comma-separated): premises that match
   * it come first. Unset, a query in that form is recognised; false never reads one.
   */
  pattern?: boolean;
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
   * Called once with the whole candidate pool before the top-k cut (every candidate's
   * name and the stages that proposed it: `eval`'s pool recall). Not the baselines'
   * (they have no pool). Searches with it are not cached.
   */
  onPool?: (pool: PoolEntry[]) => void;
  /**
   * Hybrid Lean states and statements: called with the learned ranker's feature rows
   * (pipeline/rank-features.ts) for the head of the hand-set fusion's list, by name,
   * whether or not a ranker is loaded (the ranker's training data). Not cached.
   */
  onRank?: (names: string[], rows: Float64Array[]) => void;
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
  /**
   * Premises this search alone sees (e.g. an HTTP caller's new, unindexed
   * declarations): searched with the index, replacing indexed premises of the
   * same name for this search only, never stored. Their vectors are cached by
   * their text in a byte-bounded LRU, so a cache hit gives the vector a fresh
   * embedding would. Searches with `extra` are not result-cached.
   */
  extra?: PremiseRecord[];
  /**
   * The tactic whose argument is being filled (`rw`, `simp`, `exact`, `apply`;
   * Isabelle `simp add:`, `rule`, `using`…; see slot.ts): the top candidates are
   * reranked by how well they fit it (rewrites whose left side occurs in the goal
   * for `rw`, conclusions that are the goal for `exact`). Not for `sine`/`mepo`.
   */
  slot?: string;
  /**
   * The goal-match signal (default true): for Lean states and statements and
   * Isabelle goals, a premise whose conclusion is the goal (up to renaming its
   * binders) comes first whatever its popularity, then those that are the goal once
   * their hypotheses are set aside (an `apply` fit), then the rest, each group in
   * the order it had (slot.ts, `goalMatcher`). `false`: the order without it (for
   * `eval --no-goal-match` comparisons). Not for `sine`/`mepo`.
   */
  goalMatch?: boolean;
  /**
   * Pattern searches: the time the matching may take for this query, in ms (default:
   * the engine's, 2,000). Past it the search stops and answers with the matches
   * found by then (`onPartial` is called); a pattern search also gives other
   * searches turns while it works.
   */
  patternBudgetMs?: number;
  /**
   * Called (with why) when the answer is partial: the pattern search ran out of its
   * budget before every candidate was checked. Partial answers are not cached.
   */
  onPartial?: (why: string) => void;
  /**
   * Pattern searches: called with how many premises match the whole pattern, all of
   * them, not only the `k` returned (Loogle's `count`; when the answer is partial,
   * those found by then). Called for an answer from the cache too.
   */
  onMatchCount?: (count: number) => void;
}

/** Every hit says where its score came from. Absent parts were not computed. */
export interface ScoreParts {
  dense?: number;
  sparse?: number;
  /** Text queries: BM25 over the premise's informal (English) side. */
  informal?: number;
  /** Text queries: how well the name, read as words, says what the query says (0–1). */
  name?: number;
  prior?: number;
  /** Hybrid only: votes from the proofs of the theorems nearest the query. */
  graph?: number;
  /** Hybrid, a Lake project's automatic index: votes from the project's own nearest proofs. */
  own?: number;
  /** The learned ranker's margin (`--ranker`), for the head it scored. */
  learned?: number;
  /** Hybrid, usage weight > 0: the usage model's score (usage-model.ts). */
  usage?: number;
  /** Hybrid, mash weight > 0: the index-time usage model's score (MaSh, indexes/src/mash.ts). */
  mash?: number;
  /** Hybrid only: 1 for a premise declared earlier in the same file (`nearby`). */
  local?: number;
  rerank?: number;
  /** With a slot: how well the premise fits it, in [-1, 1]. */
  slot?: number;
  /** Goal match: 2 when the conclusion is the goal, 1 when it is once the hypotheses are set aside (absent: neither, or not computed). */
  goal?: number;
  /** Pattern searches: 1 for a premise that matches every part of the pattern. */
  pattern?: number;
  /** SInE / MePo only: the BFS depth or pass that selected the premise. */
  level?: number;
  /** SInE / MePo only: trigger strength (summed rarity) or relevance within its level. */
  strength?: number;
}


/** A candidate of a search's pool (`SearchOptions.onPool`): its name and the generators (or reorderers) that proposed it. */
export interface PoolEntry {
  name: string;
  via: readonly string[];
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
  /**
   * The absolute path of the source file a premise (a hit) was indexed from: its
   * `file` under the first of its index's source roots where that file exists
   * (cached per file); undefined for premises of no index (upserted, per-search),
   * files found nowhere, and `file`s that would lead outside the roots.
   */
  sourcePath(premise: Pick<PremiseInfo, 'name' | 'file'>): string | undefined;
  /** Names of the premises of the loaded index, in a stable order (upserted premises are not listed). */
  indexedNames(): readonly string[];
  /**
   * Whether a pattern may name this as a constant: an indexed premise, or a qualified
   * name some statement writes in full (declared outside the index, as `Nat.sqrt` in
   * an index of Mathlib alone). Loogle's `unknown identifier` for the others.
   */
  isConstant?(name: string): boolean;
  /** Modules of the loaded index, sorted (read from disk on the first call). */
  indexedModules(): readonly string[];
  /**
   * Each module of the loaded indexes and the modules it imports (their
   * `imports.json`); a module it does not list (an index built before imports
   * were recorded, an unindexed file) is unknown, and its premises count as
   * importable (`importScope` in indexes/src/module-imports.ts).
   */
  moduleImports(): ModuleImports;
  /** Incremental updates (workspace overlay): add or replace records by name. */
  upsert(records: PremiseRecord[]): Promise<void>;
  remove(names: string[]): void;
  /** Undo `upsert` and `remove` for these names: the overlay forgets them and the loaded index's versions (if any) are found again. */
  restore(names: string[]): Promise<void>;
  /** Release what the engine holds outside the JS heap (the encoder's native session); it is not used afterwards. */
  dispose(): Promise<void>;
}

/** An engine opened from index directories (`openEngine` in open.ts). */
export interface OpenedEngine extends PremiseSearch {
  /** Rerank when the caller does not say (true only if the loaded reranker's evaluation says so). */
  readonly rerankByDefault: boolean;
  /** Whether the index was opened with its encoder, so that `dense` and `hybrid` searches work. */
  readonly hasDense: boolean;
  /** Whether a reranker is loaded. */
  readonly hasReranker: boolean;
  /** The most uses of any premise: the scale of the popularity prior. */
  readonly maxUses: number;
  /** Forget cached query embeddings and results (the benchmark times uncached searches). */
  clearCaches(): void;
}
