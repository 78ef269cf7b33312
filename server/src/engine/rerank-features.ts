/**
 * Features for the learned reranker: one fixed-length row per (query, candidate)
 * describing how the candidate's first-stage scores sit within the pool and how
 * the premise's statement meets the proof state (relations, symbols, identifiers,
 * type classes, rewrite direction). Pure and deterministic: the `rerank-data`
 * command and the runtime reranker call the same function, and the model's
 * `reranker.json` names these features in this order.
 */
import { splitIdent } from '../../../indexes/src/sparse/terms.js';
import type { RerankInput } from './rerank.js';
import { parseQuery } from './query.js';
import { headRelation, RELATIONS, stripForall, type Relation } from './shape.js';
import type { ParsedQuery } from './types.js';

export { headRelation, RELATIONS, type Relation };

/** What the features read from a candidate (a first-stage `Candidate` or a search hit). */
export type RerankCandidate = RerankInput;


const KINDS = ['theorem', 'def', 'instance', 'field', 'type', 'other'] as const;

/** Feature names, in row order. `reranker.json` must list exactly these. */
export const FEATURE_NAMES: readonly string[] = [
  'fused',
  'fused_norm',
  'fused_rank',
  'fused_log_rank',
  'sparse_norm',
  'sparse_rank',
  'has_dense',
  'dense',
  'dense_norm',
  'dense_gap',
  'dense_rank',
  'graph_norm',
  'graph_rank',
  'log_uses',
  ...KINDS.map((k) => `kind_${k}`),
  'rel_match',
  'rel_rewrite_ok',
  ...RELATIONS.map((r) => `qrel_${r}`),
  ...RELATIONS.map((r) => `prel_${r}`),
  'sym_jaccard_goal',
  'sym_jaccard_hyps',
  'id_jaccard_goal',
  'id_cover_goal',
  'id_cover_state',
  'name_cover_goal',
  'name_cover_state',
  'id_jaccard_hyps',
  'class_count',
  'class_match',
  'class_all',
  'lhs_cover',
  'rhs_cover',
  'premise_goal_len',
  'premise_args',
  'rewritable',
  'query_goal_len',
  'query_hyps',
  // locality, raw lexical strength and the pool as a whole: when popularity misleads
  'local',
  'sparse_log',
  'pool_sparse_max',
  'pool_sparse_found',
  'pool_dense_max',
  'pool_mean_log_uses',
  'log_uses_rel',
  'log_uses_rank',
  'uses_low',
  'low_use_lexical',
  'pool_low_use_lexmax',
];

/** Fewer uses than this make a premise "new" (`uses_low`, `low_use_lexical`). */
export const LOW_USES = 5;

export const FEATURE_COUNT = FEATURE_NAMES.length;

// ---------------------------------------------------------------------------
// text analysis

/**
 * A one-pass lexer for the features (the BM25 `terms()` is too slow to run on 50
 * premises per query): identifiers split into lower-case parts as `terms()` does
 * (`Nat.succ_le` → nat, succ, le; lone ASCII letters dropped: they are bound
 * variables), numbers, and single mathematical symbols.
 */
const TOKEN_RE =
  /([\p{L}_][\p{L}\p{N}_'!?₀-₉ₐ-ₜᵢ-ᵪ]*(?:\.[\p{L}_][\p{L}\p{N}_'!?₀-₉ₐ-ₜᵢ-ᵪ]*)*)|([0-9]+)|(⁻¹|[^\s\p{L}\p{N}_()[\]{},;:`"'↑⇑↥✝])/gu;

const partCache = new Map<string, string[]>();

function identParts(ident: string): string[] {
  let parts = partCache.get(ident);
  if (parts) return parts;
  parts = [];
  for (const comp of ident.split('.')) {
    for (const p of splitIdent(comp)) if (/^\p{L}/u.test(p) && !(p.length === 1 && p < '\u0080')) parts.push(p);
  }
  if (partCache.size >= 100_000) partCache.clear();
  partCache.set(ident, parts);
  return parts;
}

interface TextSets {
  /** Identifier parts. */
  ids: Set<string>;
  /** Mathematical symbols. */
  syms: Set<string>;
  /** Identifier parts, symbols and numbers. */
  all: Set<string>;
}

function textSets(text: string): TextSets {
  const ids = new Set<string>();
  const syms = new Set<string>();
  const all = new Set<string>();
  TOKEN_RE.lastIndex = 0;
  for (let m = TOKEN_RE.exec(text); m; m = TOKEN_RE.exec(text)) {
    if (m[1] !== undefined) {
      for (const p of identParts(m[1])) {
        ids.add(p);
        all.add(p);
      }
    } else if (m[2] !== undefined) all.add(m[2]);
    else {
      syms.add(m[3]!);
      all.add(m[3]!);
    }
  }
  return { ids, syms, all };
}

/** Class names required by instance binders/hypotheses: `[Group G]`, `[inst : Ring R]`, `inst✝ : Field K`. */
function className(typeText: string): string | undefined {
  const m = /^\s*(?:@)?([\p{L}_][\p{L}\p{N}_'.]*)/u.exec(typeText);
  return m?.[1];
}

export function premiseClasses(args: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const a of args) {
    const s = a.trim();
    if (!s.startsWith('[')) continue;
    const inner = s.replace(/^\[|\]$/g, '');
    const named = /^[^:]*?\s:\s([\s\S]*)$/.exec(inner);
    const c = className(named ? named[1]! : inner);
    if (c) out.add(c);
  }
  return out;
}

export function queryClasses(hyps: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const h of hyps) {
    const m = /^\s*(inst[^\s:]*|_inst[^\s:]*)\s*:\s*([\s\S]*)$/u.exec(h) ?? /^\s*\[([\s\S]*)\]\s*$/u.exec(h);
    if (!m) continue;
    const c = className(m[2] ?? m[1]!);
    if (c) out.add(c);
  }
  return out;
}

/** Name parts worth matching: `Nat.succ_le_iff` → succ, le, iff (namespaces kept as parts too). */
function nameParts(name: string): Set<string> {
  const out = new Set<string>();
  for (const comp of name.split('.')) {
    for (const p of splitIdent(comp)) if (p.length > 1 && /^\p{L}/u.test(p)) out.add(p);
  }
  return out;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (!a.size && !b.size) return 0;
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  return inter / (a.size + b.size - inter);
}

/** Fraction of `part` found in `whole` (0 when `part` is empty). */
function cover(part: Set<string>, whole: Set<string>): number {
  if (!part.size) return 0;
  let n = 0;
  for (const x of part) if (whole.has(x)) n++;
  return n / part.size;
}

function union(...sets: Set<string>[]): Set<string> {
  const out = new Set<string>();
  for (const s of sets) for (const x of s) out.add(x);
  return out;
}

function kindIndex(kind: string): number {
  switch (kind) {
    case 'theorem':
    case 'lemma':
    case 'corollary':
    case 'proposition':
      return 0;
    case 'def':
    case 'abbrev':
    case 'definition':
    case 'fun':
    case 'opaque':
      return 1;
    case 'instance':
      return 2;
    case 'field':
    case 'constructor':
      return 3;
    case 'structure':
    case 'class':
    case 'inductive':
      return 4;
    default:
      return 5;
  }
}

// ---------------------------------------------------------------------------
// per-query and per-pool context (computed once, reused for every candidate)

interface QueryContext {
  rel: Relation;
  goal: TextSets;
  /** Identifiers and symbols of the hypotheses' types. */
  hyps: TextSets;
  /** Every identifier term of the state (goal + hyps). */
  stateIds: Set<string>;
  /** Every term of the goal (identifiers, symbols, numbers). */
  goalTerms: Set<string>;
  classes: Set<string>;
  goalLen: number;
}

/** The type part of a hypothesis line or binder: `h : a ≤ b` / `(h : a ≤ b)` → `a ≤ b`. */
function binderType(h: string): string {
  return h.trim().replace(/^[({[⦃]|[)}\]⦄]$/g, '').replace(/^[^:]*?\s:\s/, '');
}

function queryContext(q: ParsedQuery): QueryContext {
  const goal = stripForall(q.goal);
  const hypTypes = q.hyps.map(binderType).join(' ');
  const g = textSets(goal);
  const h = textSets(hypTypes);
  return {
    rel: headRelation(goal).rel,
    goal: g,
    hyps: h,
    stateIds: union(g.ids, h.ids),
    goalTerms: g.all,
    classes: queryClasses(q.hyps),
    goalLen: g.all.size,
  };
}

interface PoolContext {
  minFused: number;
  maxFused: number;
  maxSparse: number;
  minDense: number;
  maxDense: number;
  maxGraph: number;
  fusedRank: Map<RerankCandidate, number>;
  sparseRank: Map<RerankCandidate, number>;
  denseRank: Map<RerankCandidate, number>;
  graphRank: Map<RerankCandidate, number>;
  usesRank: Map<RerankCandidate, number>;
  /** Share of the pool with a lexical (BM25) score. */
  sparseFound: number;
  meanLogUses: number;
  /** The best `sparse / maxSparse` among the pool's new (low-use) premises. */
  lowUseLexMax: number;
  n: number;
}

function ranks(pool: readonly RerankCandidate[], value: (c: RerankCandidate) => number): Map<RerankCandidate, number> {
  // stable: ties keep pool order, so the same pool always gives the same ranks
  const order = pool.map((c, i) => ({ c, i, v: value(c) })).sort((a, b) => b.v - a.v || a.i - b.i);
  const out = new Map<RerankCandidate, number>();
  order.forEach((o, r) => out.set(o.c, r));
  return out;
}

function poolContext(pool: readonly RerankCandidate[]): PoolContext {
  let minFused = Infinity;
  let maxFused = -Infinity;
  let maxSparse = 0;
  let minDense = Infinity;
  let maxDense = -Infinity;
  let maxGraph = 0;
  let found = 0;
  let sumLogUses = 0;
  for (const c of pool) {
    if ((c.parts.sparse ?? 0) > 0) found++;
    sumLogUses += Math.log1p(c.info.uses);
    maxGraph = Math.max(maxGraph, c.parts.graph ?? 0);
    minFused = Math.min(minFused, c.score);
    maxFused = Math.max(maxFused, c.score);
    maxSparse = Math.max(maxSparse, c.parts.sparse ?? 0);
    if (c.parts.dense !== undefined) {
      minDense = Math.min(minDense, c.parts.dense);
      maxDense = Math.max(maxDense, c.parts.dense);
    }
  }
  let lowUseLexMax = 0;
  if (maxSparse > 0) for (const c of pool) if (c.info.uses < LOW_USES) lowUseLexMax = Math.max(lowUseLexMax, (c.parts.sparse ?? 0) / maxSparse);
  const n = pool.length;
  return {
    sparseFound: n ? found / n : 0,
    meanLogUses: n ? sumLogUses / n : 0,
    lowUseLexMax,
    usesRank: ranks(pool, (c) => c.info.uses),
    minFused,
    maxFused,
    maxSparse,
    minDense,
    maxDense,
    maxGraph,
    fusedRank: ranks(pool, (c) => c.score),
    sparseRank: ranks(pool, (c) => c.parts.sparse ?? 0),
    denseRank: ranks(pool, (c) => c.parts.dense ?? -Infinity),
    graphRank: ranks(pool, (c) => c.parts.graph ?? 0),
    n: pool.length,
  };
}

// ---------------------------------------------------------------------------

function row(qc: QueryContext, pc: PoolContext, c: RerankCandidate, qHyps: number): Float32Array {
  const f = new Float32Array(FEATURE_COUNT);
  let k = 0;
  const put = (v: number) => (f[k++] = Number.isFinite(v) ? v : 0);
  const span = (lo: number, hi: number, v: number) => (hi > lo ? (v - lo) / (hi - lo) : 1);
  const denom = Math.max(1, pc.n - 1);
  const info = c.info;

  // first-stage scores
  const fr = pc.fusedRank.get(c) ?? pc.n;
  put(c.score);
  put(span(pc.minFused, pc.maxFused, c.score));
  put(fr / denom);
  put(Math.log1p(fr));
  put(pc.maxSparse > 0 ? (c.parts.sparse ?? 0) / pc.maxSparse : 0);
  put((pc.sparseRank.get(c) ?? pc.n) / denom);
  const hasDense = c.parts.dense !== undefined;
  put(hasDense ? 1 : 0);
  put(hasDense ? c.parts.dense! : 0);
  put(hasDense ? span(pc.minDense, pc.maxDense, c.parts.dense!) : 0);
  put(hasDense ? pc.maxDense - c.parts.dense! : 0);
  put(hasDense ? (pc.denseRank.get(c) ?? pc.n) / denom : 1);
  const graph = c.parts.graph ?? 0;
  put(pc.maxGraph > 0 ? graph / pc.maxGraph : 0);
  put(graph > 0 ? (pc.graphRank.get(c) ?? pc.n) / denom : 1);
  put(Math.log1p(info.uses));

  // kind
  const ki = kindIndex(info.kind);
  for (let i = 0; i < KINDS.length; i++) put(i === ki ? 1 : 0);

  // relations
  const pgoal = stripForall(info.goal || info.statement);
  const head = headRelation(pgoal);
  const rewritable = head.rel === '=' || head.rel === '↔';
  put(qc.rel !== 'none' && head.rel === qc.rel ? 1 : 0);
  // a rewrite lemma can act on any goal; an `apply` lemma needs the goal's relation
  put(rewritable || (qc.rel !== 'none' && head.rel === qc.rel) ? 1 : 0);
  for (const r of RELATIONS) put(qc.rel === r ? 1 : 0);
  for (const r of RELATIONS) put(head.rel === r ? 1 : 0);

  // symbols and identifiers
  const pg = textSets(pgoal);
  const pa = textSets(info.args.map(binderType).join(' '));
  const names = nameParts(info.name);
  put(jaccard(qc.goal.syms, pg.syms));
  put(jaccard(qc.hyps.syms, pa.syms));
  put(jaccard(qc.goal.ids, pg.ids));
  put(cover(pg.ids, qc.goal.ids));
  put(cover(pg.ids, qc.stateIds));
  put(cover(names, qc.goal.ids));
  put(cover(names, qc.stateIds));
  put(jaccard(qc.hyps.ids, pa.ids));

  // type classes
  const pcls = premiseClasses(info.args);
  let matched = 0;
  for (const x of pcls) if (qc.classes.has(x)) matched++;
  put(Math.log1p(pcls.size));
  put(pcls.size ? matched / pcls.size : 0);
  put(pcls.size && matched === pcls.size ? 1 : 0);

  // rewrite sides: are the premise's LHS (RHS) terms all in the goal?
  if (rewritable && head.at >= 0) {
    const lhs = textSets(pgoal.slice(0, head.at)).all;
    const rhs = textSets(pgoal.slice(head.at + head.len)).all;
    put(cover(lhs, qc.goalTerms));
    put(cover(rhs, qc.goalTerms));
  } else {
    put(0);
    put(0);
  }

  // sizes
  put(Math.log1p(pg.all.size));
  put(Math.log1p(info.args.length));
  put(rewritable ? 1 : 0);
  put(Math.log1p(qc.goalLen));
  put(Math.log1p(qHyps));

  // locality, raw lexical strength, the pool
  const sparseNorm = pc.maxSparse > 0 ? (c.parts.sparse ?? 0) / pc.maxSparse : 0;
  const low = info.uses < LOW_USES ? 1 : 0;
  put(c.parts.local ? 1 : 0);
  put(Math.log1p(c.parts.sparse ?? 0));
  put(Math.log1p(pc.maxSparse));
  put(pc.sparseFound);
  put(pc.maxDense > -Infinity ? pc.maxDense : 0);
  put(pc.meanLogUses);
  put(Math.log1p(info.uses) - pc.meanLogUses);
  put((pc.usesRank.get(c) ?? pc.n) / denom);
  put(low);
  put(low * sparseNorm);
  put(pc.lowUseLexMax);
  return f;
}

/** The feature row of one candidate within its pool. */
export function features(q: ParsedQuery, c: RerankCandidate, pool: readonly RerankCandidate[]): Float32Array {
  return row(queryContext(q), poolContext(pool), c, q.hyps.length);
}

/** Rows for a whole pool, row-major [pool.length × FEATURE_COUNT] (what the reranker feeds the model). */
export function featureMatrix(q: ParsedQuery, pool: readonly RerankCandidate[]): Float32Array {
  const qc = queryContext(q);
  const pc = poolContext(pool);
  const out = new Float32Array(pool.length * FEATURE_COUNT);
  pool.forEach((c, i) => out.set(row(qc, pc, c, q.hyps.length), i * FEATURE_COUNT));
  return out;
}

/** The feature rows of a first-stage pool for a query text, one per candidate (`rerank-data` writes these for training). */
export function featureRows(queryText: string, pool: readonly RerankCandidate[]): Float32Array[] {
  const parsed = parseQuery(queryText);
  return pool.map((c) => features(parsed, c, pool));
}
