/**
 * Per-premise symbol sets: what the SInE and MePo baselines read, and what
 * narrows a pattern search's candidates. A premise's symbols
 * are what its source-level statement (hypotheses and conclusion, not its name
 * or docstring) mentions: identifiers as written (`Real.sqrt`, `Finset.sum`),
 * numerals and notation characters (`√`, `∑`, `≤`); bound variables (binder
 * names, single letters) are not symbols, nor is the logic both originals build
 * in (equality, connectives, quantifiers, True/False). A symbol's occurrence count is the
 * number of premises it occurs in. Built at index time and stored (`symbols.bin`,
 * store/symbols-file.ts), or from the metadata on first use for an index without
 * it and for in-memory premises, as flat arrays (premise → symbols, symbol → premises).
 */
import { binderToHyp } from './extract/lean/signature.js';

export interface SymbolSource {
  readonly size: number;
  /** Every premise in id order. */
  scan(): Iterable<{ args: readonly string[]; goal: string; statement: string }>;
}

/** Brackets, separators and markers that are never symbols. */
const NOISE = new Set([...'()[]{},;:.`"\'↑⇑↥⦃⦄⟨⟩@$', ...'=≠↔→∧∨¬∀∃⟹⋀⟷⟶', 'True', 'False', 'fun', 'λ', 'Prop']);
const TOKEN = /([\p{L}_][\p{L}\p{N}_'!?₀-₉ₐ-ₜᵢ-ᵪ]*(?:\.[\p{L}_][\p{L}\p{N}_'!?₀-₉ₐ-ₜᵢ-ᵪ]*)*)|([0-9]+)|(\S)/gu;
/** Single letters (with subscripts or primes) are variables: `x`, `x₁`, `α`, `f'` (π is a constant). */
const SINGLE_VAR = /^[A-Za-zα-ορ-ωϕ][₀-₉ₐ-ₜᵢ-ᵪ'!?]*$/u;
/** Names bound inside a term: `∀ x y,`, `∃ n :`, `fun i =>`, `∑ i ∈ s,`. */
const INNER_BINDER = /(?:∀|∃!?|fun|λ|∑|∏|⨆|⨅|⋃|⋂|∫)\s*([^,:=↦∈]*)/gu;

/** The distinct symbols of a statement given as hypotheses (`x y : ℝ`, `h : 0 < x`) and a conclusion. */
export function statementSymbols(hyps: readonly string[], goal: string): string[] {
  const bound = new Set<string>();
  const clean = (s: string) => s.replace(/✝\d*/g, '');
  const bodies = hyps.map((h) => {
    const m = /^([^:]*?)\s:\s([\s\S]*)$/.exec(clean(h));
    if (!m) return clean(h);
    for (const n of m[1]!.split(/\s+/)) if (n) bound.add(n);
    return m[2]!;
  });
  bodies.push(clean(goal));
  const out = new Set<string>();
  let m: RegExpExecArray | null;
  for (const b of bodies) {
    if (!/[∀∃λ∑∏⨆⨅⋃⋂∫]|fun/.test(b)) continue;
    INNER_BINDER.lastIndex = 0;
    while ((m = INNER_BINDER.exec(b))) for (const n of m[1]!.split(/[\s()]+/)) if (n) bound.add(n);
  }
  for (const b of bodies) {
    TOKEN.lastIndex = 0;
    while ((m = TOKEN.exec(b))) {
      const ident = m[1];
      if (ident !== undefined) {
        if (!bound.has(ident) && !SINGLE_VAR.test(ident) && !NOISE.has(ident)) out.add(ident);
      } else if (m[2] !== undefined) out.add(m[2]);
      else if (!NOISE.has(m[3]!)) out.add(m[3]!);
    }
  }
  return [...out];
}

/** Symbols by id and ids by symbol (a Map when built, the stored string table when read). */
export interface SymbolDict {
  readonly size: number;
  find(symbol: string): number | undefined;
  get(id: number): string;
}

export class SymbolSets {
  /** docStart[d]..docStart[d+1] index `docTerms`: premise d's distinct symbol ids. */
  readonly docStart: Uint32Array;
  readonly docTerms: Uint32Array;
  /** Occurrences (premises containing it) of each symbol id. */
  readonly occ: Uint32Array;
  /** Per premise: the occurrence count of its least common symbol (0 for a premise without symbols). */
  readonly minOcc: Uint32Array;
  private readonly postStart: Uint32Array;
  private readonly postDocs: Uint32Array;
  /** Each symbol's id, and the symbol of an id. */
  private readonly dict: SymbolDict;

  /** From the premises' statements (one pass over the table). */
  static build(table: SymbolSource): SymbolSets {
    const n = table.size;
    const idOf = new Map<string, number>();
    const docStart = new Uint32Array(n + 1);
    const flat: number[] = [];
    let d = 0;
    for (const p of table.scan()) {
      for (const s of statementSymbols(p.args.map(binderToHyp), p.goal || p.statement)) {
        let id = idOf.get(s);
        if (id === undefined) idOf.set(s, (id = idOf.size));
        flat.push(id);
      }
      docStart[++d] = flat.length;
    }
    const names = [...idOf.keys()];
    return new SymbolSets(docStart, Uint32Array.from(flat), { size: names.length, find: (s) => idOf.get(s), get: (i) => names[i]! });
  }

  /** From stored arrays: `docStart`/`docTerms` as `build` makes them, `dict` the symbols by id. */
  constructor(docStart: Uint32Array, docTerms: Uint32Array, dict: SymbolDict) {
    this.docStart = docStart;
    this.docTerms = docTerms;
    this.dict = dict;
    const n = docStart.length - 1;
    this.occ = new Uint32Array(dict.size);
    for (const t of this.docTerms) this.occ[t]!++;
    this.postStart = new Uint32Array(dict.size + 1);
    for (let t = 0; t < this.occ.length; t++) this.postStart[t + 1] = this.postStart[t]! + this.occ[t]!;
    this.postDocs = new Uint32Array(this.docTerms.length);
    const fill = this.postStart.slice(0, this.occ.length);
    this.minOcc = new Uint32Array(n);
    for (let d = 0; d < n; d++) {
      for (let i = this.docStart[d]!; i < this.docStart[d + 1]!; i++) {
        const t = this.docTerms[i]!;
        this.postDocs[fill[t]!++] = d;
        const o = this.occ[t]!;
        if (this.minOcc[d] === 0 || o < this.minOcc[d]!) this.minOcc[d] = o;
      }
    }
  }

  /** Number of distinct symbols. */
  get symbolCount(): number {
    return this.dict.size;
  }

  /** The symbol of an id. */
  symbol(t: number): string {
    return this.dict.get(t);
  }

  get docCount(): number {
    return this.docStart.length - 1;
  }

  /** The distinct symbol ids of a premise. */
  symbols(doc: number): Uint32Array {
    return this.docTerms.subarray(this.docStart[doc]!, this.docStart[doc + 1]!);
  }

  /** Ids of the given symbols that occur in some premise. */
  ids(symbols: Iterable<string>): number[] {
    const out = new Set<number>();
    for (const s of symbols) {
      const id = this.dict.find(s);
      if (id !== undefined) out.add(id);
    }
    return [...out];
  }

  /** The premises that contain symbol id `t`. */
  postings(t: number): Uint32Array {
    return this.postDocs.subarray(this.postStart[t]!, this.postStart[t + 1]!);
  }
}

