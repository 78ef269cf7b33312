/**
 * The retrieval engine: holds the segments (base indexes, the overlay of edited
 * documents, a search's own premises) and the caches of query embeddings and
 * results; parses and weighs a query and runs it through the search pipeline
 * (pipeline/run.ts: candidate generators, a ranker, reorderers), or a baseline. It does no
 * I/O to editors or provers and never writes to stdout (import-graph.test.ts).
 */
import type { ModuleImports } from '../../../indexes/src/module-imports.js';
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Encoder } from '../../../models/src/encoder.js';
import type { TextTower } from '../../../models/src/text-tower.js';
import { embedPremises } from '../../../indexes/src/embed.js';
import { idf, type Bm25Index } from '../../../indexes/src/sparse/bm25.js';
import { terms } from '../../../indexes/src/sparse/terms.js';
import { denseArgsText, denseGoalText } from '../../../indexes/src/premise-text.js';
import type { PremiseRecord } from '../../../indexes/src/extract/record.js';
import { toInfos } from '../../../indexes/src/graph.js';
import type { PremiseInfo } from '../../../indexes/src/store/premises.js';
import { DEFAULT_WEIGHTS, weightsFor, type StyleWeights } from './fusion.js';
import { denseQueryText, parseQuery } from './query.js';
import type { Loc } from './graph-votes.js';
import { Segment } from './segment.js';
import { readTextQuery, type TextQuery } from './text-query.js';
import { loadVocabulary, type Vocabulary } from '../../../indexes/src/informal/vocab.js';
import { mepo } from './mepo.js';
import { sine } from './sine.js';
import { bySelection, statementSymbols } from './symbol-sets.js';
import { slotOf } from './slot.js';
import type { Reranker } from './rerank.js';
import type { LearnedFusion } from './learned-fusion.js';
import type { TreeRanker } from './tree-ranker.js';
import type { Mode, ParsedQuery, PremiseSearch, ScopeFilter, SearchHit, SearchOptions } from './types.js';
import { checkScopeSize, inScope, mergeScope, readScopeTerms, restricts, scopeKey } from './scope.js';
import { knownConstant, looksLikePattern, matchSegments, parsePattern, type Pattern } from './pattern.js';
import { Gate, PATTERN_BUDGET_MS } from './pattern-run.js';
import { SourcePaths } from '../../../indexes/src/source-paths.js';
import { orderOf, type Candidate } from './pipeline/candidate.js';
import { runPipeline } from './pipeline/run.js';
import { queryLang, type Search } from './pipeline/search.js';

/** Query-side weights of the parts of a proof state for BM25. */
const PART_WEIGHT = { goal: 1, hyp: 0.3, other: 0.15 };
/** Candidates taken from each retriever before fusion. */
const POOL = 200;
/**
 * In a library-sized corpus, terms in more than this share of premises (`=`, `→`,
 * `ℕ`…) cost the most postings and carry little signal; they are skipped.
 */
const MAX_DF_RATIO = 0.25;
const MAX_DF_MIN_CORPUS = 10_000;
/**
 * Default bound of each of the two caches of per-search premises (`SearchOptions.extra`):
 * their vectors by text, and whole segments by the exact list (a prover sends the same
 * list again and again while a file does not change).
 */
export const EXTRA_CACHE_BYTES = 32 * 1024 * 1024;

const NO_IMPORTS: ModuleImports = new Map();

export interface EngineOptions {
  encoder?: Encoder;
  reranker?: Reranker;
  /** Rerank when a search does not say (the loaded reranker's evaluation decides; see open.ts). */
  rerankByDefault?: boolean;
  /** Hand-set fusion weights; given, they replace the learned fusion too. */
  weights?: StyleWeights;
  /** The learned first-stage fusion for Lean states and statements in hybrid mode (default: none, the hand-set weights). */
  fusion?: LearnedFusion;
  /** The learned ranker of the fused list's head (`--ranker`; default none). */
  ranker?: TreeRanker;
  defaultMode?: Mode;
  /** English sentences → vectors in the index's premise space (default: none; English goes through the encoder). */
  textTower?: TextTower;
  /** English → Lean name parts for text queries (default: the naming-convention seed). */
  vocabulary?: Vocabulary;
  /** Most bytes each cache of per-search premises holds (vectors + keys; segments, estimated) (default EXTRA_CACHE_BYTES). */
  extraCacheBytes?: number;
  /** The goal-match signal when a search does not say (default true; types.ts, `SearchOptions.goalMatch`). */
  goalMatch?: boolean;
  /** Each base segment's source roots, in order (an index's manifest `sources`): where `sourcePath` finds its premises' files. */
  sourceRoots?: readonly (readonly string[])[];
  /** The loaded indexes' modules and what each imports (their `imports.json`; empty for indexes without one). */
  moduleImports?: ModuleImports;
  /**
   * The segments are a Lake project's automatic index (toolchain, dependencies, workspace):
   * Lean states and statements are fused with the project weights (`StyleWeights.project`), not the learned fusion,
   * with the project's own proofs voting apart (`FusionWeights.own`) and each entry's dense and sparse scores scaled
   * on their own (`fuse`'s `byEntry`); the workspace is the last base segment when there are several (`firstOwn`).
   */
  project?: boolean;
  /** A pattern search's time budget when a search does not say (ms; default PATTERN_BUDGET_MS, pattern-run.ts). */
  patternBudgetMs?: number;
}

/**
 * What one search sees: the engine's segments, then (last, so that its names are
 * found first) the search's own premises, which shadow the indexed premises of
 * the same name (`shadowed`, segment-and-id orders) for this search only.
 */
interface View {
  segs: Segment[];
  shadowed: Set<number>;
}

export function weightedTerms(q: ParsedQuery, plain = false): Map<string, number> {
  const w = new Map<string, number>();
  const add = (text: string, weight: number) => {
    for (const t of terms(text)) w.set(t, (w.get(t) ?? 0) + weight);
  };
  if (plain) {
    add(q.text, 1);
    return w;
  }
  add(q.goal, PART_WEIGHT.goal);
  for (const h of q.hyps) add(h.replace(/^[^:]*?\s:\s/, ''), PART_WEIGHT.hyp); // drop hypothesis names
  for (const g of q.otherGoals) add(g, PART_WEIGHT.other);
  return w;
}

/**
 * Query term weights times their IDF over the segments a search sees, in one
 * BM25 field; terms no premise has are dropped, and with `skipCommon` so are
 * those in more than MAX_DF_RATIO of a library-sized corpus.
 */
function idfWeighted(weights: ReadonlyMap<string, number>, segs: Segment[], field: (s: Segment) => Bm25Index, skipCommon: boolean): Map<string, number> {
  const docCount = segs.reduce((n, s) => n + s.table.size, 0);
  const out = new Map<string, number>();
  for (const [t, w] of weights) {
    const df = segs.reduce((n, s) => n + field(s).df(t), 0);
    const common = skipCommon && docCount >= MAX_DF_MIN_CORPUS && df > MAX_DF_RATIO * docCount;
    if (df > 0 && !common) out.set(t, w * idf(df, docCount));
  }
  return out;
}

/** A query as a search reads it: its text without scope terms, the scope, the pattern (if it is one). */
interface Prepared {
  text: string;
  scope: ScopeFilter;
  pattern?: Pattern;
}

/** Scope terms out of the text, merged with the options'; the pattern read when asked for or recognised. */
export function prepareQuery(query: string, opts: Pick<SearchOptions, 'scope' | 'pattern'>): Prepared {
  const read = readScopeTerms(query);
  const scope = mergeScope(opts.scope, read.scope);
  checkScopeSize(scope);
  const pattern = opts.pattern === true || (opts.pattern === undefined && looksLikePattern(read.text)) ? parsePattern(read.text) : undefined;
  return { text: read.text, scope, pattern };
}

const isBaseline = (mode: Mode): mode is 'sine' | 'mepo' => mode === 'sine' || mode === 'mepo';
const usesVectors = (mode: Mode) => mode === 'dense' || mode === 'hybrid';

export class Engine implements PremiseSearch {
  private base: Segment[];
  private overlay?: Segment;
  private overlayRecords = new Map<string, PremiseRecord>();
  private readonly embedCache = new LRUCache<string, Float32Array>({ max: 1024 });
  private readonly resultCache = new LRUCache<string, SearchHit[]>({ max: 256 });
  /** The most uses of any premise (the prior's scale), recounted when the segments change. */
  maxUses = 0;
  private liveCount?: number;
  private readonly overlayVecCache = new Map<string, { key: string; vec: Float32Array }>();
  /** Vectors of per-search premises by the texts embedded, bounded by bytes; content-keyed, so shared safely. */
  private readonly extraVecCache: LRUCache<string, Float32Array>;
  /** Segments of per-search premises by a hash of the exact records (and whether dense), bounded by estimated bytes. */
  private readonly extraSegCache: LRUCache<string, { seg: Segment; bytes: number }>;
  private listing?: string[];
  private modules?: string[];
  private readonly vocabulary: Vocabulary;

  constructor(
    base: Segment[],
    private readonly opts: EngineOptions = {},
  ) {
    this.base = base;
    this.vocabulary = opts.vocabulary ?? loadVocabulary();
    const maxSize = Math.max(1, opts.extraCacheBytes ?? EXTRA_CACHE_BYTES);
    this.extraVecCache = new LRUCache({ maxSize, sizeCalculation: (vec, key) => vec.byteLength + 2 * key.length });
    this.extraSegCache = new LRUCache({ maxSize, sizeCalculation: (v) => v.bytes });
    this.countExternalUses();
    this.updateMaxUses();
  }

  /** Base indexes' references into each other (a workspace's proofs using its dependencies' lemmas) count as uses there. */
  private countExternalUses(): void {
    const view = this.view();
    for (const seg of this.base) {
      for (const [, names] of seg.external ?? []) {
        for (const n of names) {
          const loc = this.locate(n, view);
          if (loc && loc.seg !== seg) loc.seg.crossUses.fixed.set(loc.id, (loc.seg.crossUses.fixed.get(loc.id) ?? 0) + 1);
        }
      }
    }
  }

  /**
   * The overlay's proofs count as uses of what they reference in the base
   * indexes; replaced and removed base premises no longer count for what theirs did.
   */
  private recountLiveUses(): void {
    for (const s of this.base) s.crossUses.live.clear();
    const add = (loc: Loc | undefined, d: number) => {
      if (loc && loc.seg !== this.overlay) loc.seg.crossUses.live.set(loc.id, (loc.seg.crossUses.live.get(loc.id) ?? 0) + d);
    };
    const view = this.view();
    for (const r of this.overlayRecords.values()) for (const n of new Set(r.refs)) if (n !== r.name) add(this.locate(n, view), 1);
    for (const seg of this.base) {
      for (const id of seg.tombstoned) {
        for (const t of Array.from<number | string>(seg.table.refs(id))) add(typeof t === 'string' ? this.locate(t, view) : { seg, id: t }, -1);
      }
    }
    this.updateMaxUses();
  }

  /**
   * What the excluded theorems' own proofs add to use counts, by candidate order.
   * An excluded theorem is never evidence (types.ts, `exclude`), and its proof's
   * uses are evidence too: the theorem being proved has no proof yet (in the
   * index, an evaluation query's theorem would otherwise vote for its own gold
   * premises through the popularity prior). Invariant tested in graph-votes.test.ts.
   */
  private ownUses(exclude: readonly string[], view: View): Map<number, number> {
    const taken = new Map<number, number>();
    for (const name of exclude) {
      const loc = this.locate(name, view);
      if (!loc) continue;
      const seen = new Set<number>();
      for (const r of this.refTargets(loc, view)) {
        const order = orderOf(view.segs.indexOf(r.seg), r.id);
        if (seen.has(order)) continue;
        seen.add(order);
        taken.set(order, (taken.get(order) ?? 0) + 1);
      }
    }
    return taken;
  }

  private updateMaxUses(): void {
    this.maxUses = 0;
    for (const s of this.base) {
      for (const u of s.table.uses) this.maxUses = Math.max(this.maxUses, u);
      for (const id of [...s.crossUses.fixed.keys(), ...s.crossUses.live.keys()]) this.maxUses = Math.max(this.maxUses, s.usesOf(id));
    }
  }

  get encoder(): Encoder | undefined {
    return this.opts.encoder;
  }
  get hasReranker(): boolean {
    return !!this.opts.reranker;
  }
  get hasDense(): boolean {
    return !!this.opts.encoder;
  }

  async dispose(): Promise<void> {
    await this.opts.encoder?.dispose();
  }

  private get segments(): Segment[] {
    return this.overlay ? [...this.base, this.overlay] : this.base;
  }

  /** Premises searchable now; counted once per change (the server asks on every completion). */
  get size(): number {
    if (this.liveCount === undefined) {
      let n = 0;
      for (const s of this.segments) for (let i = 0; i < s.table.size; i++) if (!s.deleted[i]) n++;
      this.liveCount = n;
    }
    return this.liveCount;
  }

  /** Forgets cached query embeddings and results (benchmarks time cold queries). */
  clearCaches(): void {
    this.embedCache.clear();
    this.resultCache.clear();
    this.extraVecCache.clear();
    this.extraSegCache.clear();
  }

  /** Bytes held by the caches of per-search premises (vectors, segments), and their entries. */
  extraCacheUse(): { vectors: { bytes: number; entries: number }; segments: { bytes: number; entries: number } } {
    return {
      vectors: { bytes: this.extraVecCache.calculatedSize, entries: this.extraVecCache.size },
      segments: { bytes: this.extraSegCache.calculatedSize, entries: this.extraSegCache.size },
    };
  }

  lookup(name: string): PremiseInfo | undefined {
    const loc = this.locate(name, this.view());
    return loc && loc.seg.table.get(loc.id);
  }

  /** Each base segment's file resolver, made on first use (it caches its answers). */
  private readonly sourcePaths: (SourcePaths | undefined)[] = [];

  /** The premise's source file under its index's source roots (types.ts, `sourcePath`). */
  sourcePath(premise: Pick<PremiseInfo, 'name' | 'file'>): string | undefined {
    const loc = this.locate(premise.name, this.view());
    const i = loc ? this.base.indexOf(loc.seg) : -1;
    const roots = this.opts.sourceRoots?.[i];
    // an overlay premise (an edited document): no roots to read it under
    if (i < 0 || !roots?.length) return undefined;
    return (this.sourcePaths[i] ??= new SourcePaths(roots)).resolve(premise.file);
  }

  async search(query: string, opts: SearchOptions = {}): Promise<SearchHit[]> {
    return (await this.searchBatch([query], opts))[0]!;
  }

  async searchBatch(queries: string[], opts: SearchOptions = {}): Promise<SearchHit[][]> {
    const mode = opts.mode ?? this.opts.defaultMode ?? (this.opts.encoder ? 'hybrid' : 'bm25');
    if (mode === 'dense' && !this.opts.encoder) throw new Error(`mode ${mode} needs an index built with an encoder`);
    if (opts.rerank && !this.opts.reranker) throw new Error('reranking was asked for but no reranker model is loaded');
    opts = { ...opts, rerank: isBaseline(mode) ? false : (opts.rerank ?? (!!this.opts.reranker && !!this.opts.rerankByDefault)) };
    const k = Math.max(1, Math.min(opts.k ?? 10, 1000));
    const prepared = queries.map((q) => prepareQuery(q, opts));
    const keyOf = (q: Prepared) =>
      JSON.stringify([
        q.text,
        scopeKey(q.scope),
        q.pattern ? 1 : 0,
        k,
        mode,
        !!opts.rerank,
        opts.lang ?? '',
        !!opts.plainBm25,
        opts.informal ?? true,
        opts.exclude ?? [],
        opts.hidden ?? [],
        opts.nearby ?? [],
        slotOf(opts.slot) ?? '',
        opts.goalMatch ?? this.opts.goalMatch ?? true,
      ]);
    const parsed = prepared.map((q) => parseQuery(q.pattern?.searchText ?? q.text));
    const dense = usesVectors(mode) && !!this.opts.encoder;
    const extra = opts.extra?.length ? await this.extraSegment(opts.extra, dense) : undefined;
    const vectors = dense ? await this.embedQueries(parsed.map(denseQueryText)) : [];
    const view = this.view(extra);
    const out: SearchHit[][] = [];
    for (let i = 0; i < queries.length; i++) {
      const key = opts.only || opts.onPool || opts.onRank || extra ? undefined : keyOf(prepared[i]!);
      const cached = key === undefined ? undefined : this.resultCache.get(key);
      if (cached) {
        const count = this.matchCounts.get(cached);
        if (count !== undefined) opts.onMatchCount?.(count);
        out.push(cached);
        continue;
      }
      const hits = await this.searchOne(parsed[i]!, vectors[i], mode, k, opts, view, prepared[i]!);
      if (key !== undefined && !this.partialAnswers.has(hits)) this.resultCache.set(key, hits);
      out.push(hits);
    }
    return out;
  }

  private async embedQueries(texts: string[]): Promise<Float32Array[]> {
    const missing = [...new Set(texts.filter((t) => !this.embedCache.has(t)))];
    if (missing.length) {
      const vecs = await this.opts.encoder!.embed(missing, 'query');
      missing.forEach((t, i) => this.embedCache.set(t, vecs[i]!));
    }
    return texts.map((t) => this.embedCache.get(t)!);
  }

  /**
   * A Lake project's automatic index: where the project's own premises start among a
   * search's segments. Its entries come toolchain, dependencies, then the workspace, so
   * the last base segment is the workspace when there are several; the open files'
   * overlay and a search's own premises follow it.
   */
  private firstOwn(): number {
    return this.base.length > 1 ? this.base.length - 1 : this.base.length;
  }

  /** The segments a search sees now, with its own premises (if any) last. */
  private view(extra?: Segment): View {
    const own = this.segments;
    const shadowed = new Set<number>();
    if (!extra) return { segs: own, shadowed };
    for (let id = 0; id < extra.table.size; id++) {
      const name = extra.table.name(id);
      own.forEach((seg, i) => {
        const at = seg.table.id(name);
        if (at !== undefined && !seg.deleted[at]) shadowed.add(orderOf(i, at));
      });
    }
    return { segs: [...own, extra], shadowed };
  }

  /**
   * A segment of a search's own premises (the last of a name wins), vectors from the
   * byte-bounded cache. Segments are cached by the exact records: one built for the same
   * list is the same segment, and searches only read it.
   */
  private async extraSegment(records: PremiseRecord[], dense: boolean): Promise<Segment> {
    const json = JSON.stringify([dense, records]);
    const key = createHash('sha256').update(json).digest('base64');
    const hit = this.extraSegCache.get(key);
    if (hit) return hit.seg;
    const byName = new Map(records.map((r) => [r.name, r]));
    const recs = [...byName.values()];
    const infos = toInfos(recs).map((p) => ({ ...p, uses: p.uses + (this.lookupBaseUses(p.name) ?? 0) }));
    const enc = this.opts.encoder;
    const vectors = enc && dense ? await this.extraVectors(infos, enc) : undefined;
    const seg = Segment.fromInfos(infos, vectors, enc?.dim, recs.map((r) => r.refs.filter((n) => n !== r.name)));
    // an estimate: the records' text as objects and postings (3 bytes per character of JSON), the per-premise arrays, the vectors
    const bytes = 3 * json.length + 16 * recs.length + (vectors?.byteLength ?? 0);
    this.extraSegCache.set(key, { seg, bytes });
    return seg;
  }

  private async extraVectors(infos: PremiseInfo[], enc: Encoder): Promise<Float32Array> {
    // keyed by exactly what is embedded: a hit is the vector a fresh embedding would give
    const keys = infos.map((p) => `${denseArgsText(p)}\u0000${denseGoalText(p)}`);
    const found = keys.map((key) => this.extraVecCache.get(key));
    const missing = infos.filter((_, i) => !found[i]);
    if (missing.length) {
      const vecs = await embedPremises(missing, enc);
      let j = 0;
      found.forEach((v, i) => {
        if (v) return;
        const vec = vecs.slice(j * enc.dim, ++j * enc.dim);
        found[i] = vec;
        this.extraVecCache.set(keys[i]!, vec);
      });
    }
    const out = new Float32Array(infos.length * enc.dim);
    found.forEach((v, i) => out.set(v!, i * enc.dim));
    return out;
  }

  private sparseWeights(q: ParsedQuery, plain: boolean, segs: Segment[], extra?: Map<string, number>): Map<string, number> {
    const qt = weightedTerms(q, plain);
    for (const [t, w] of extra ?? []) qt.set(t, Math.max(qt.get(t) ?? 0, w));
    return idfWeighted(qt, segs, (s) => s.sparse, true);
  }

  /** IDF-weighted informal-field terms over the segments a search sees. */
  private informalWeights(tq: TextQuery, segs: Segment[]): Map<string, number> {
    return idfWeighted(tq.english, segs, (s) => s.informal, false);
  }

  private async searchOne(
    q: ParsedQuery,
    vec: Float32Array | undefined,
    mode: Mode,
    k: number,
    opts: SearchOptions,
    view: View,
    { scope, pattern }: Prepared = { text: '', scope: {} },
  ): Promise<SearchHit[]> {
    const sparse = mode === 'bm25' || mode === 'hybrid';
    // a Lean state wants Lean premises, an Isabelle goal Isabelle facts; text may match either
    const lang = opts.lang ?? queryLang(q.style);
    const segs = view.segs;
    // text in hybrid mode also searches the premises' English side, and its words are read as Lean names
    const tq = mode === 'hybrid' && q.style === 'text' && opts.informal !== false ? readTextQuery(q.text, this.vocabulary) : undefined;
    const informal = tq && this.informalWeights(tq, segs);
    const w = weightsFor(this.opts.weights ?? DEFAULT_WEIGHTS, q.style, tq?.style, !!this.opts.project);
    // names read against the query only where the fusion weighs them (prose)
    const readNames = !!tq && tq.style !== 'name' && w.name !== 0;
    vec = this.englishVector(q, mode, opts, tq, vec) ?? vec;
    const weights = sparse ? this.sparseWeights(q, !!opts.plainBm25, segs, tq?.lean) : undefined;
    const pool = Math.max(POOL, k);
    const excluded = new Set((opts.exclude ?? []).flatMap((n) => segs.map((s, i) => orderOf(i, s.table.id(n)))));
    const taken = this.ownUses(opts.exclude ?? [], view);
    // hidden lists can be long (a file's later declarations): test candidates' names, not every listed name's place
    const hidden = opts.hidden?.length ? new Set(opts.hidden) : undefined;
    const filtered = (seg: Segment, id: number) => {
      if (!hidden && !opts.only) return false;
      const name = seg.table.name(id);
      return !!hidden?.has(name) || (!!opts.only && !opts.only.has(name));
    };
    // module, namespace and kind filters mask the segments before any retriever keeps its best
    const outside = restricts(scope) ? segs.map((s) => s.scopeMasks.outside(scope)) : undefined;
    const blocked = outside && segs.map((s, i) => s.blocked(outside[i]!));
    const usable = (seg: Segment, segIndex: number, id: number) =>
      !seg.deleted[id] &&
      !(outside && outside[segIndex]![id]) &&
      !excluded.has(orderOf(segIndex, id)) &&
      !(view.shadowed.size && view.shadowed.has(orderOf(segIndex, id))) &&
      (!lang || seg.table.lang(id) === lang);
    if (isBaseline(mode)) {
      // baselines test many premises: hidden names by id, not candidates' names
      const hiddenIds = segs.map((s) => new Set((opts.hidden ?? []).map((n) => s.table.id(n)).filter((id) => id !== undefined)));
      const ok = (seg: Segment, segIndex: number, id: number) =>
        usable(seg, segIndex, id) && !hiddenIds[segIndex]!.has(id) && (!opts.only || opts.only.has(seg.table.name(id)));
      return this.baseline(q, mode, k, ok, segs).filter((h) => inScope(scope, h)).map((h, i) => ({ ...h, rank: i + 1 }));
    }
    // the pattern's matches before anything is scored: matching gives other searches turns, and they reuse the segments' accumulators
    const matched = pattern ? await this.matchPattern(pattern, segs, (seg, segIndex, id) => usable(seg, segIndex, id) && !filtered(seg, id), opts) : undefined;
    const search: Search = {
      q,
      mode,
      k,
      opts,
      vec,
      segs,
      w,
      tq,
      sparseTerms: weights,
      informalTerms: informal,
      readNames,
      poolSize: pool,
      blocked,
      pattern,
      matched,
      project: !!this.opts.project,
      firstOwn: this.firstOwn(),
      maxUses: this.maxUses,
      taken,
      reranker: opts.rerank ? this.opts.reranker : undefined,
      fusion: this.opts.fusion,
      ranker: this.opts.ranker,
      handWeights: !!this.opts.weights,
      goalMatch: opts.goalMatch ?? this.opts.goalMatch ?? true,
      usable,
      filtered,
      locate: (name) => this.locate(name, view),
      refTargets: (n) => this.refTargets(n, view),
      inMemory: (c) => !!c.parts.local || !this.base.includes(c.seg),
    };
    const list = await runPipeline(search);
    opts.onPool?.(list.map((c) => ({ name: c.seg.table.name(c.id), via: c.via })));
    // deprecated premises (rare; read from the records only for the head of the list) unless asked for
    const out: Candidate[] = [];
    for (const c of list) {
      if (out.length >= k) break;
      if (!c.info.deprecated || scope.deprecated) out.push(c);
    }
    const hits = out.map((c, i) => ({ ...c.info, rank: i + 1, score: c.score, parts: c.parts }));
    if (matched?.partial) this.partialAnswers.add(hits);
    if (matched) {
      this.matchCounts.set(hits, matched.count);
      opts.onMatchCount?.(matched.count);
    }
    return hits;
  }

  /** At most PATTERN_SEARCHES_AT_ONCE pattern searches match at once (pattern-run.ts). */
  private readonly patternGate = new Gate();
  /** Answers whose pattern search ran out of budget: never cached. */
  private readonly partialAnswers = new WeakSet<SearchHit[]>();
  /** How many premises matched a pattern answer's pattern (all, not only those returned), for an answer from the cache. */
  private readonly matchCounts = new WeakMap<SearchHit[], number>();

  /** A pattern's matches in every segment, within the search's budget; a partial answer is reported to `opts.onPartial`. */
  private async matchPattern(
    pattern: Pattern,
    segs: Segment[],
    usable: (seg: Segment, segIndex: number, id: number) => boolean,
    opts: SearchOptions,
  ): Promise<{ ids: number[][]; count: number; partial: boolean }> {
    const budget = opts.patternBudgetMs ?? this.opts.patternBudgetMs ?? PATTERN_BUDGET_MS;
    const release = await this.patternGate.enter();
    try {
      const r = await matchSegments(pattern, segs, usable, budget);
      if (r.partial) opts.onPartial?.(`the pattern search stopped after its ${budget} ms budget: the matches found by then come first`);
      return r;
    } finally {
      release();
    }
  }

  /**
   * An English sentence's vector: the text tower's (same space as the premise vectors)
   * averaged with the encoder's, which still reads the sentence's symbols and names
   * (together better than either alone; docs/quality.md). Undefined when no tower is
   * loaded or it knows none of the words.
   */
  private englishVector(q: ParsedQuery, mode: Mode, opts: SearchOptions, tq?: TextQuery, encoded?: Float32Array): Float32Array | undefined {
    const tower = this.opts.textTower;
    if (!tower || !usesVectors(mode) || q.style !== 'text' || opts.informal === false) return undefined;
    const read = tq ?? readTextQuery(q.text, this.vocabulary);
    const t = read.style === 'english' ? tower.embed(read.english) : undefined;
    if (!t || !encoded) return t;
    const sum = t.map((x, j) => x + encoded[j]!);
    const norm = Math.hypot(...sum);
    return norm > 0 ? sum.map((x) => x / norm) : t;
  }

  /** SInE or MePo over every segment's symbols, merged by selection round, then strength. */
  private baseline(
    q: ParsedQuery,
    mode: 'sine' | 'mepo',
    k: number,
    ok: (seg: Segment, segIndex: number, id: number) => boolean,
    segs: Segment[],
  ): SearchHit[] {
    const conjecture = statementSymbols([...q.hyps, ...q.otherGoals], q.goal);
    const picked: { seg: Segment; order: number; id: number; level: number; strength: number }[] = [];
    segs.forEach((seg, segIndex) => {
      const sets = seg.symbols;
      const opts = { limit: k, usable: (id: number) => ok(seg, segIndex, id) };
      const sel = mode === 'sine' ? sine(sets, sets.ids(conjecture), opts) : mepo(sets, sets.ids(conjecture), opts);
      for (const x of sel) picked.push({ seg, order: orderOf(segIndex, x.id), ...x });
    });
    picked.sort((a, b) => bySelection(a, b) || a.order - b.order);
    return picked.slice(0, k).map((x, i) => ({
      ...x.seg.table.get(x.id),
      rank: i + 1,
      // higher is better and the order is kept: round first, strength within it
      score: -x.level + x.strength / (1 + x.strength),
      parts: { level: x.level, strength: x.strength },
    }));
  }

  /** Where a name is searchable now: its newest live version (a search's own premises first). */
  private locate(name: string, view: View): Loc | undefined {
    const segs = view.segs;
    for (let i = segs.length - 1; i >= 0; i--) {
      const seg = segs[i]!;
      const id = seg.table.id(name);
      if (id !== undefined && !seg.deleted[id]) return { seg, id };
    }
    return undefined;
  }

  /** The live premises a proof references (a reference to a replaced premise goes to its new version). */
  private refTargets(n: Loc, view: View): Loc[] {
    const out: Loc[] = [];
    const segIndex = view.shadowed.size ? view.segs.indexOf(n.seg) : -1;
    const replaced = (r: number) => !!n.seg.deleted[r] || (segIndex >= 0 && view.shadowed.has(orderOf(segIndex, r)));
    for (const r of Array.from<number | string>(n.seg.table.refs(n.id))) {
      const loc = typeof r === 'string' ? this.locate(r, view) : replaced(r) ? this.locate(n.seg.table.name(r), view) : { seg: n.seg, id: r };
      if (loc) out.push(loc);
    }
    return out;
  }

  async upsert(records: PremiseRecord[]): Promise<void> {
    for (const r of records) this.overlayRecords.set(r.name, r);
    for (const r of records) this.tombstoneBase(r.name);
    await this.rebuildOverlay();
  }

  remove(names: string[]): void {
    for (const n of names) {
      this.tombstoneBase(n);
      this.overlayRecords.delete(n);
    }
    // the overlay keeps its vectors; removed names are tombstoned there too
    if (this.overlay) for (const n of names) this.markDeleted(this.overlay, n);
    this.recountLiveUses();
    this.resultCache.clear();
    this.liveCount = undefined;
  }

  async restore(names: string[]): Promise<void> {
    let changed = false;
    for (const n of names) {
      changed = this.overlayRecords.delete(n) || changed;
      for (const seg of this.base) {
        const id = seg.table.id(n);
        if (id === undefined || !seg.tombstoned.has(id)) continue;
        seg.deleted[id] = 0;
        seg.tombstoned.delete(id);
        changed = true;
      }
    }
    if (changed) await this.rebuildOverlay();
  }

  private tombstoneBase(name: string): void {
    for (const s of this.base) this.markDeleted(s, name);
  }

  private markDeleted(seg: Segment, name: string): void {
    const id = seg.table.id(name);
    if (id === undefined) return;
    seg.deleted[id] = 1;
    if (seg !== this.overlay) seg.tombstoned.add(id);
  }

  private async rebuildOverlay(): Promise<void> {
    const records = [...this.overlayRecords.values()];
    const infos = toInfos(records).map((p) => ({ ...p, uses: p.uses + (this.lookupBaseUses(p.name) ?? 0) }));
    const enc = this.opts.encoder;
    const vectors = enc && infos.length ? await this.overlayVectors(infos, enc) : undefined;
    const refs = records.map((r) => r.refs.filter((n) => n !== r.name));
    this.overlay = infos.length ? Segment.fromInfos(infos, vectors, enc?.dim, refs) : undefined;
    // the overlay's symbol sets now: the next pattern search costs what the ones after it do
    this.overlay?.prepareSymbols();
    this.recountLiveUses();
    this.resultCache.clear();
    this.liveCount = undefined;
  }

  /** Vectors of overlay premises, embedding only those whose text changed since the last rebuild. */
  private async overlayVectors(infos: PremiseInfo[], enc: Encoder): Promise<Float32Array> {
    const keyOf = (p: PremiseInfo) => JSON.stringify([p.args, p.goal, p.statement, p.doc ?? '']);
    const fresh = infos.filter((p) => this.overlayVecCache.get(p.name)?.key !== keyOf(p));
    const vecs = fresh.length ? await embedPremises(fresh, enc) : new Float32Array(0);
    fresh.forEach((p, i) => this.overlayVecCache.set(p.name, { key: keyOf(p), vec: vecs.slice(i * enc.dim, (i + 1) * enc.dim) }));
    const live = new Set(infos.map((p) => p.name));
    for (const name of this.overlayVecCache.keys()) if (!live.has(name)) this.overlayVecCache.delete(name);
    const out = new Float32Array(infos.length * enc.dim);
    infos.forEach((p, i) => out.set(this.overlayVecCache.get(p.name)!.vec, i * enc.dim));
    return out;
  }

  isConstant(name: string): boolean {
    return this.view().segs.some((seg) => knownConstant(seg, name));
  }

  indexedNames(): readonly string[] {
    return (this.listing ??= this.base.flatMap((s) => Array.from({ length: s.table.size }, (_, id) => s.table.name(id))));
  }

  moduleImports(): ModuleImports {
    return this.opts.moduleImports ?? NO_IMPORTS;
  }

  indexedModules(): readonly string[] {
    if (!this.modules) {
      const set = new Set<string>();
      for (const s of this.base) for (const p of s.table.scan()) set.add(p.module);
      this.modules = [...set].sort();
    }
    return this.modules;
  }

  private lookupBaseUses(name: string): number | undefined {
    for (const s of this.base) {
      const id = s.table.id(name);
      if (id !== undefined) return s.usesOf(id);
    }
    return undefined;
  }
}
