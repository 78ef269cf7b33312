/**
 * The retrieval engine: parses a query, gathers candidates from every segment
 * (BM25 postings and the dense ANN graph), lets the nearest theorems' proofs vote
 * (hybrid), scores each candidate on every side, fuses with the popularity prior,
 * optionally reranks, and caches recent query embeddings and results. It does no
 * I/O to editors or provers.
 */
import { LRUCache } from 'lru-cache';
import type { Encoder } from '../../../models/src/encoder.js';
import { embedPremises } from '../../../indexes/src/embed.js';
import { idf } from '../../../indexes/src/sparse/bm25.js';
import { terms } from '../../../indexes/src/sparse/terms.js';
import type { Lang, PremiseRecord } from '../../../indexes/src/extract/record.js';
import { toInfos } from '../../../indexes/src/graph.js';
import type { PremiseInfo } from '../../../indexes/src/store/premises.js';
import { DEFAULT_WEIGHTS, fuse, weightsFor, type StyleWeights } from './fusion.js';
import { denseQueryText, parseQuery } from './query.js';
import { graphVotes, nearest, NEIGHBOURS, SHARPNESS, type Loc, type Neighbour } from './graph-votes.js';
import { Segment, topByScore } from './segment.js';
import { kindFits, readTextQuery, type TextQuery } from './text-query.js';
import { loadVocabulary, type Vocabulary } from '../../../indexes/src/informal/vocab.js';
import type { Reranker } from './rerank.js';
import type { Mode, ParsedQuery, PremiseSearch, ScoreParts, SearchHit, SearchOptions } from './types.js';

/** Query-side weights of the parts of a proof state for BM25. */
const PART_WEIGHT = { goal: 1, hyp: 0.3, other: 0.15 };
/** Candidates taken from each retriever before fusion. */
const POOL = 200;
/** Candidates handed to the reranker. */
const RERANK_TOP = 50;
/** Text queries: fused candidates whose kind is checked against what the sentence asks for. */
const KIND_TOP = 100;
/**
 * In a library-sized corpus, terms in more than this share of premises (`=`, `→`,
 * `ℕ`…) cost the most postings and carry little signal; they are skipped.
 */
const MAX_DF_RATIO = 0.25;
const MAX_DF_MIN_CORPUS = 10_000;

const LANG_OF_STYLE: Record<ParsedQuery['style'], Lang | undefined> = {
  'lean-state': 'lean',
  'lean-statement': 'lean',
  'isabelle-state': 'isabelle',
  text: undefined,
};

export interface EngineOptions {
  encoder?: Encoder;
  reranker?: Reranker;
  /** Rerank when a search does not say (the loaded reranker's evaluation decides; see open.ts). */
  rerankByDefault?: boolean;
  weights?: StyleWeights;
  defaultMode?: Mode;
  /** English → Lean name parts for text queries (default: the naming-convention seed). */
  vocabulary?: Vocabulary;
}

/** A first-stage candidate; its metadata is read from the index only when asked for. */
export class Candidate {
  private cached?: PremiseInfo;
  score = 0;

  constructor(
    readonly seg: Segment,
    readonly id: number,
    readonly order: number,
    readonly parts: ScoreParts,
  ) {}

  get info(): PremiseInfo {
    return (this.cached ??= this.seg.table.get(this.id));
  }
}

/** A candidate's key and tie-break: segment first, then position in the segment (-1 for absent). */
const orderOf = (segIndex: number, id: number | undefined) => (id === undefined ? -1 : segIndex * 2 ** 32 + id);

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

export class Engine implements PremiseSearch {
  private base: Segment[];
  private overlay?: Segment;
  private overlayRecords = new Map<string, PremiseRecord>();
  private readonly embedCache = new LRUCache<string, Float32Array>({ max: 1024 });
  private readonly resultCache = new LRUCache<string, SearchHit[]>({ max: 256 });
  private maxUses = 0;
  private liveCount?: number;
  private readonly overlayVecCache = new Map<string, { key: string; vec: Float32Array }>();
  private listing?: string[];
  private modules?: string[];
  private readonly vocabulary: Vocabulary;

  constructor(
    base: Segment[],
    private readonly opts: EngineOptions = {},
  ) {
    this.base = base;
    this.vocabulary = opts.vocabulary ?? loadVocabulary();
    for (const s of base) for (const u of s.table.uses) this.maxUses = Math.max(this.maxUses, u);
  }

  get encoder(): Encoder | undefined {
    return this.opts.encoder;
  }
  get hasReranker(): boolean {
    return !!this.opts.reranker;
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
  }

  lookup(name: string): PremiseInfo | undefined {
    const loc = this.locate(name);
    return loc && loc.seg.table.get(loc.id);
  }

  async search(query: string, opts: SearchOptions = {}): Promise<SearchHit[]> {
    return (await this.searchBatch([query], opts))[0]!;
  }

  async searchBatch(queries: string[], opts: SearchOptions = {}): Promise<SearchHit[][]> {
    const mode = opts.mode ?? this.opts.defaultMode ?? (this.opts.encoder ? 'hybrid' : 'bm25');
    if (mode === 'dense' && !this.opts.encoder) throw new Error(`mode ${mode} needs an index built with an encoder`);
    if (opts.rerank && !this.opts.reranker) throw new Error('reranking was asked for but no reranker model is loaded');
    opts = { ...opts, rerank: opts.rerank ?? (!!this.opts.reranker && !!this.opts.rerankByDefault) };
    const k = Math.max(1, Math.min(opts.k ?? 10, 1000));
    const keyOf = (q: string) =>
      JSON.stringify([q, k, mode, !!opts.rerank, opts.lang ?? '', !!opts.plainBm25, opts.informal ?? true, opts.exclude ?? [], opts.hidden ?? [], opts.nearby ?? []]);
    const parsed = queries.map(parseQuery);
    const vectors = mode === 'bm25' || !this.opts.encoder ? [] : await this.embedQueries(parsed.map(denseQueryText));
    const out: SearchHit[][] = [];
    for (let i = 0; i < queries.length; i++) {
      const key = opts.only ? undefined : keyOf(queries[i]!);
      const cached = key === undefined ? undefined : this.resultCache.get(key);
      if (cached) {
        out.push(cached);
        continue;
      }
      const hits = await this.searchOne(parsed[i]!, vectors[i], mode, k, opts);
      if (key !== undefined) this.resultCache.set(key, hits);
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

  private sparseWeights(q: ParsedQuery, plain: boolean, extra?: Map<string, number>): Map<string, number> {
    const segs = this.segments;
    const docCount = segs.reduce((n, s) => n + s.table.size, 0);
    const out = new Map<string, number>();
    const qt = weightedTerms(q, plain);
    for (const [t, w] of extra ?? []) qt.set(t, Math.max(qt.get(t) ?? 0, w));
    for (const [t, w] of qt) {
      const df = segs.reduce((n, s) => n + s.sparse.df(t), 0);
      const common = docCount >= MAX_DF_MIN_CORPUS && df > MAX_DF_RATIO * docCount;
      if (df > 0 && !common) out.set(t, w * idf(df, docCount));
    }
    return out;
  }

  /** IDF-weighted informal-field terms over all segments. */
  private informalWeights(tq: TextQuery): Map<string, number> {
    const segs = this.segments;
    const docCount = segs.reduce((n, s) => n + s.table.size, 0);
    const out = new Map<string, number>();
    for (const [t, w] of tq.english) {
      const df = segs.reduce((n, s) => n + s.informal.df(t), 0);
      if (df > 0) out.set(t, w * idf(df, docCount));
    }
    return out;
  }

  private async searchOne(
    q: ParsedQuery,
    vec: Float32Array | undefined,
    mode: Mode,
    k: number,
    opts: SearchOptions,
  ): Promise<SearchHit[]> {
    const sparse = mode !== 'dense';
    // a Lean state wants Lean premises, an Isabelle goal Isabelle facts; text may match either
    const lang = opts.lang ?? LANG_OF_STYLE[q.style];
    // text in hybrid mode also searches the premises' English side, and its words are read as Lean names
    const tq = mode === 'hybrid' && q.style === 'text' && opts.informal !== false ? readTextQuery(q.text, this.vocabulary) : undefined;
    const informal = tq && this.informalWeights(tq);
    const weights = sparse ? this.sparseWeights(q, !!opts.plainBm25, tq?.lean) : undefined;
    const pool = Math.max(POOL, k);
    const segs = this.segments;
    const excluded = new Set((opts.exclude ?? []).flatMap((n) => segs.map((s, i) => orderOf(i, s.table.id(n)))));
    // hidden lists can be long (a file's later declarations): test candidates' names, not every listed name's place
    const hidden = opts.hidden?.length ? new Set(opts.hidden) : undefined;
    const filtered = (seg: Segment, id: number) => {
      if (!hidden && !opts.only) return false;
      const name = seg.table.name(id);
      return !!hidden?.has(name) || (!!opts.only && !opts.only.has(name));
    };
    const usable = (seg: Segment, segIndex: number, id: number) =>
      !seg.deleted[id] && !excluded.has(orderOf(segIndex, id)) && (!lang || seg.table.lang(id) === lang);
    const cands = new Map<number, Candidate>();
    const candidate = (seg: Segment, segIndex: number, id: number): Candidate | undefined => {
      const order = orderOf(segIndex, id);
      let c = cands.get(order);
      if (c || !usable(seg, segIndex, id) || filtered(seg, id)) return c;
      const parts: ScoreParts = { prior: Math.log1p(seg.table.uses[id]!) };
      if (sparse) parts.sparse = seg.acc[id]!;
      if (informal) parts.informal = seg.informalAcc[id]!;
      if (vec && seg.dense) parts.dense = seg.dense.score(vec, id);
      cands.set(order, (c = new Candidate(seg, id, order, parts)));
      return c;
    };
    const neighbours: Neighbour[] = [];
    segs.forEach((seg, segIndex) => {
      const found: Neighbour[] = [];
      // both fields are accumulated before any candidate of this segment is scored
      if (informal) {
        seg.informalAcc.fill(0);
        seg.informal.accumulate(informal, seg.informalAcc);
      }
      if (weights) {
        seg.acc.fill(0);
        seg.sparse.accumulate(weights, seg.acc);
        for (const id of topByScore(seg.acc, seg.deleted, pool)) {
          candidate(seg, segIndex, id);
          if (!vec) found.push({ seg, id, sim: seg.acc[id]! });
        }
      }
      if (informal) for (const id of topByScore(seg.informalAcc, seg.deleted, pool)) candidate(seg, segIndex, id);
      if (vec && seg.dense) {
        for (const h of seg.dense.top(vec, pool)) {
          candidate(seg, segIndex, h.id);
          found.push({ seg, id: h.id, sim: h.score });
        }
      }
      if (mode === 'hybrid') neighbours.push(...found.filter((n) => usable(seg, segIndex, n.id) && seg.table.refs(n.id).length));
    });
    if (mode === 'hybrid') {
      for (const name of opts.nearby ?? []) {
        const loc = this.locate(name);
        const c = loc && candidate(loc.seg, segs.indexOf(loc.seg), loc.id);
        if (c) c.parts.local = 1;
      }
      const votes = graphVotes(nearest(neighbours, NEIGHBOURS), vec ? SHARPNESS.dense : SHARPNESS.sparse, (n) => this.refTargets(n));
      for (const [seg, byId] of votes) {
        const segIndex = segs.indexOf(seg);
        for (const [id, v] of byId) {
          const c = candidate(seg, segIndex, id);
          if (c) c.parts.graph = v;
        }
      }
    }
    if (tq?.style === 'name') {
      // a declaration's name asked for by name
      const loc = this.locate(q.text.trim().replace(/^@/, ''));
      const c = loc && candidate(loc.seg, segs.indexOf(loc.seg), loc.id);
      if (c) c.parts.informal = Math.max(...[...cands.values()].map((x) => x.parts.informal ?? 0), 1) * 2;
    }
    const list = [...cands.values()];
    const w = weightsFor(this.opts.weights ?? DEFAULT_WEIGHTS, q.style, tq?.style);
    const fused = fuse(
      list.map((c) => ({
        dense: c.parts.dense,
        sparse: c.parts.sparse,
        informal: c.parts.informal,
        graph: c.parts.graph,
        local: c.parts.local,
        uses: c.seg.table.uses[c.id]!,
      })),
      mode,
      this.maxUses,
      w,
    );
    list.forEach((c, i) => (c.score = fused[i]!));
    // ties broken by position in the index, so results never depend on set order
    const byScore = (a: Candidate, b: Candidate) => b.score - a.score || a.order - b.order;
    list.sort(byScore);
    if (tq && tq.intent !== 'any' && w.kind) {
      // the kind is in the metadata read from disk: only the head of the list is checked
      const head = list.slice(0, KIND_TOP);
      for (const c of head) {
        const fits = kindFits(tq.intent, c.info.kind);
        if (fits !== undefined) c.score += fits ? w.kind : -w.kind;
      }
      head.sort(byScore);
      list.splice(0, head.length, ...head);
    }
    if (opts.rerank && this.opts.reranker) {
      const top = list.slice(0, RERANK_TOP);
      const scores = await this.opts.reranker.score(q, top);
      top.forEach((c, i) => {
        c.parts.rerank = scores[i]!;
        c.score = scores[i]!;
      });
      top.sort(byScore);
      list.splice(0, top.length, ...top);
    }
    return list.slice(0, k).map((c, i) => ({ ...c.info, rank: i + 1, score: c.score, parts: c.parts }));
  }

  /** Where a name is searchable now: its newest live version. */
  private locate(name: string): Loc | undefined {
    const segs = this.segments;
    for (let i = segs.length - 1; i >= 0; i--) {
      const seg = segs[i]!;
      const id = seg.table.id(name);
      if (id !== undefined && !seg.deleted[id]) return { seg, id };
    }
    return undefined;
  }

  /** The live premises a proof references (a reference to a replaced premise goes to its new version). */
  private refTargets(n: Loc): Loc[] {
    const out: Loc[] = [];
    for (const r of Array.from<number | string>(n.seg.table.refs(n.id))) {
      const loc = typeof r === 'string' ? this.locate(r) : n.seg.deleted[r] ? this.locate(n.seg.table.name(r)) : { seg: n.seg, id: r };
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
    this.resultCache.clear();
    this.liveCount = undefined;
  }

  private tombstoneBase(name: string): void {
    for (const s of this.base) this.markDeleted(s, name);
  }

  private markDeleted(seg: Segment, name: string): void {
    const id = seg.table.id(name);
    if (id !== undefined) seg.deleted[id] = 1;
  }

  private async rebuildOverlay(): Promise<void> {
    const records = [...this.overlayRecords.values()];
    const infos = toInfos(records).map((p) => ({ ...p, uses: p.uses + (this.lookupBaseUses(p.name) ?? 0) }));
    const enc = this.opts.encoder;
    const vectors = enc && infos.length ? await this.overlayVectors(infos, enc) : undefined;
    const refs = records.map((r) => r.refs.filter((n) => n !== r.name));
    this.overlay = infos.length ? Segment.fromInfos(infos, vectors, enc?.dim, refs) : undefined;
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

  indexedNames(): readonly string[] {
    return (this.listing ??= this.base.flatMap((s) => Array.from({ length: s.table.size }, (_, id) => s.table.name(id))));
  }

  indexedModules(): readonly string[] {
    if (!this.modules) {
      const set = new Set<string>();
      for (const s of this.base) for (let id = 0; id < s.table.size; id++) set.add(s.table.get(id).module);
      this.modules = [...set].sort();
    }
    return this.modules;
  }

  private lookupBaseUses(name: string): number | undefined {
    for (const s of this.base) {
      const id = s.table.id(name);
      if (id !== undefined) return s.table.uses[id];
    }
    return undefined;
  }
}
