/**
 * A small in-memory `PremiseSearch` over a JSON list of PremiseRecord-like
 * objects: token overlap weighted by rarity. For tests and demos
 * (`--fake-engine FILE`: that list, or `{premises: [...], imports: {module: [module]}}`
 * with the modules' imports), not for real retrieval.
 */
import { readFileSync } from 'node:fs';
import type { PremiseRecord } from '../../../indexes/src/extract/record.js';
import { toInfo } from '../../../indexes/src/premise-info.js';
import type { ModuleImports, PremiseInfo, PremiseSearch, SearchHit, SearchOptions } from './types.js';

const WORD = /[\p{L}\p{N}_']+|[^\s\p{L}\p{N}_'(){}\[\],:]/gu;

export function tokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(WORD)) {
    const t = m[0];
    out.push(t);
    if (t.includes('_')) for (const p of t.split('_')) if (p) out.push(p);
  }
  return out;
}

/** A record given in part, completed with defaults, as the index keeps it. */
function infoOf(r: Partial<PremiseRecord> & { name: string; uses?: number }): PremiseInfo {
  const full: PremiseRecord = {
    name: r.name,
    kind: r.kind ?? 'theorem',
    lang: r.lang ?? 'lean',
    module: r.module ?? '',
    file: r.file ?? '',
    range: r.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    statement: r.statement ?? r.name,
    args: r.args ?? [],
    goal: r.goal ?? '',
    doc: r.doc,
    refs: [],
    ...(r.unexposed ? { unexposed: true as const } : {}),
  };
  return toInfo(full, r.uses ?? 0);
}

export class FixtureEngine implements PremiseSearch {
  private readonly byName = new Map<string, { info: PremiseInfo; toks: Map<string, number> }>();
  /** The premises it was made with (what `restore` goes back to). */
  private readonly base: ReadonlyMap<string, { info: PremiseInfo; toks: Map<string, number> }>;
  private df = new Map<string, number>();

  private readonly imports: ModuleImports;

  constructor(records: Array<Partial<PremiseRecord> & { name: string }> = [], imports: ModuleImports = new Map()) {
    this.imports = imports;
    for (const r of records) this.add(infoOf(r));
    this.base = new Map(this.byName);
    this.recount();
  }

  static fromFile(path: string): FixtureEngine {
    const data = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    const obj = data as { premises?: unknown; imports?: unknown } | null;
    const list = Array.isArray(data) ? data : obj && typeof obj === 'object' && Array.isArray(obj.premises) ? obj.premises : undefined;
    if (!list) throw new Error(`${path}: expected a JSON list of premise records (or {premises, imports})`);
    const imports = new Map<string, string[]>();
    if (obj && typeof obj.imports === 'object' && obj.imports !== null) {
      for (const [m, l] of Object.entries(obj.imports)) if (Array.isArray(l)) imports.set(m, l.filter((x): x is string => typeof x === 'string'));
    }
    return new FixtureEngine(list.filter((r) => typeof r?.name === 'string'), imports);
  }

  get size(): number {
    return this.byName.size;
  }

  private add(info: PremiseInfo): void {
    const toks = new Map<string, number>();
    const name = info.name.replace(/\./g, ' ');
    for (const t of tokens(name)) toks.set(t, 2);
    for (const t of tokens(`${info.statement} ${info.goal} ${info.args.join(' ')}`)) if (!toks.has(t)) toks.set(t, 1);
    this.byName.set(info.name, { info, toks });
  }

  private recount(): void {
    this.df = new Map();
    for (const { toks } of this.byName.values()) for (const t of toks.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
  }

  async search(query: string, opts: SearchOptions = {}): Promise<SearchHit[]> {
    const k = opts.k ?? 20;
    // A multi-goal state: the main goal (first block) counts fully, the others as context.
    const [main, ...others] = query.slice(0, 20_000).split(/\n\s*\n/);
    const q = new Map<string, number>();
    for (const t of tokens(others.join('\n'))) q.set(t, 0.25);
    for (const t of tokens(main)) q.set(t, 1);
    const n = this.byName.size;
    const scored: Array<{ info: PremiseInfo; score: number }> = [];
    for (const { info, toks } of this.byName.values()) {
      if ((opts.lang && info.lang !== opts.lang) || opts.exclude?.includes(info.name) || opts.hidden?.includes(info.name) || (opts.only && !opts.only.has(info.name))) continue;
      let score = 0;
      for (const [t, qw] of q) {
        const w = toks.get(t);
        if (w) score += qw * w * Math.log(1 + n / (this.df.get(t) ?? 1));
      }
      if (opts.nearby?.includes(info.name)) score += 100; // locality wins in this double, so tests see it
      // in a rewriting slot this double keeps only equations and iffs on top, so tests see the slot arrive
      if (opts.slot && /^(rw|simp|nth_rw|rwa)/.test(opts.slot) && !/=|↔/.test(info.goal)) score /= 10;
      if (score > 0) scored.push({ info, score });
    }
    scored.sort((a, b) => b.score - a.score || a.info.name.localeCompare(b.info.name));
    return scored.slice(0, k).map((s, i) => ({ ...s.info, rank: i + 1, score: s.score, parts: { sparse: s.score } }));
  }

  async searchBatch(queries: string[], opts?: SearchOptions): Promise<SearchHit[][]> {
    return Promise.all(queries.map((q) => this.search(q, opts)));
  }

  lookup(name: string): PremiseInfo | undefined {
    return this.byName.get(name)?.info;
  }

  /** Its premises come from no index, so they have no source roots. */
  sourcePath(): string | undefined {
    return undefined;
  }

  indexedNames(): readonly string[] {
    return [...this.byName.keys()];
  }

  moduleImports(): ModuleImports {
    return this.imports;
  }

  indexedModules(): readonly string[] {
    return [...new Set([...this.byName.values()].map((p) => p.info.module))].sort();
  }

  async upsert(records: PremiseRecord[]): Promise<void> {
    for (const r of records) this.add(infoOf(r));
    this.recount();
  }

  remove(names: string[]): void {
    for (const n of names) this.byName.delete(n);
    this.recount();
  }

  async restore(names: string[]): Promise<void> {
    for (const n of names) {
      const original = this.base.get(n);
      if (original) this.byName.set(n, original);
      else this.byName.delete(n);
    }
    this.recount();
  }

  async dispose(): Promise<void> {}
}
