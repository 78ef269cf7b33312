/**
 * English → Lean vocabulary: which name parts an English search term stands for
 * ("product" → `mul`, `prod`; "divides" → `dvd`; "root" → `sqrt`, `roots`). The
 * naming-convention table (./naming.ts) read backwards is the seed; a table
 * learned from the corpus (`premise-lsp vocab`: docstring words against the name
 * parts of the declarations they document) ships in models/vocab/en-lean.json
 * and adds what the seed lacks.
 */
import { existsSync, readFileSync } from 'node:fs';
import { englishTerms } from './english.js';
import { NAME_WORDS } from './naming.js';

/** English term → [name part, weight in (0, 1]]. */
export type Vocabulary = Map<string, [string, number][]>;

/** The learned table's file format. */
export interface VocabFile {
  format: 'premise-lsp-vocab';
  version: 1;
  /** English term (stemmed) → name parts with association strengths in (0, 1]. */
  terms: Record<string, [string, number][]>;
}

function seed(): Vocabulary {
  const v: Vocabulary = new Map();
  for (const [part, words] of Object.entries(NAME_WORDS)) {
    if (part.includes('_')) continue;
    for (const t of new Set(englishTerms(words))) {
      if (t === part) continue;
      const list = v.get(t) ?? [];
      list.push([part, 1]);
      v.set(t, list);
    }
  }
  // a term that stands for many parts says little about each
  for (const list of v.values()) for (const e of list) e[1] = 1 / Math.sqrt(list.length);
  return v;
}

/** The seed, merged with a learned table when one is given (unreadable files are an error for the caller). */
export function loadVocabulary(file?: string): Vocabulary {
  const v = seed();
  if (!file || !existsSync(file)) return v;
  let data: VocabFile;
  try {
    data = JSON.parse(readFileSync(file, 'utf8')) as VocabFile;
  } catch (e) {
    throw new Error(`${file}: unreadable vocabulary (${(e as Error).message})`);
  }
  if (data?.format !== 'premise-lsp-vocab' || data.version !== 1 || typeof data.terms !== 'object' || !data.terms) {
    throw new Error(`${file}: not a premise-lsp vocabulary (format 1)`);
  }
  for (const [term, parts] of Object.entries(data.terms)) {
    if (!Array.isArray(parts)) continue;
    const list = v.get(term) ?? [];
    for (const e of parts) {
      const [part, w] = Array.isArray(e) ? e : [];
      if (typeof part !== 'string' || typeof w !== 'number' || !(w > 0 && w <= 1)) continue; // a damaged entry is skipped
      if (part !== term && !list.some((x) => x[0] === part)) list.push([part, w]);
    }
    v.set(term, list);
  }
  return v;
}

/**
 * Learns the table from premise records: for each docstring, its English terms
 * against the parts of the documented name. Keeps, per term, the parts whose
 * co-occurrence is frequent and far above chance (positive PMI), strongest first.
 */
export function learnVocabulary(
  docs: Iterable<{ doc: string; parts: string[] }>,
  opts: { minCount?: number; perTerm?: number } = {},
): VocabFile {
  const minCount = opts.minCount ?? 8;
  const perTerm = opts.perTerm ?? 4;
  const termCount = new Map<string, number>();
  const partCount = new Map<string, number>();
  const pair = new Map<string, number>();
  let n = 0;
  for (const { doc, parts } of docs) {
    const ts = new Set(englishTerms(doc));
    const ps = new Set(parts.filter((p) => p.length > 1 && /^[a-z]+$/.test(p)));
    if (!ts.size || !ps.size) continue;
    n++;
    for (const t of ts) termCount.set(t, (termCount.get(t) ?? 0) + 1);
    for (const p of ps) partCount.set(p, (partCount.get(p) ?? 0) + 1);
    for (const t of ts) for (const p of ps) if (t !== p) pair.set(`${t}\u0000${p}`, (pair.get(`${t}\u0000${p}`) ?? 0) + 1);
  }
  const best = new Map<string, [string, number][]>();
  for (const [key, c] of pair) {
    if (c < minCount) continue;
    const [t, p] = key.split('\u0000') as [string, string];
    const pmi = Math.log((c * n) / (termCount.get(t)! * partCount.get(p)!));
    if (pmi < 2) continue;
    // strength: how often the term's docstrings name the part, damped by how common the part is
    const strength = (c / termCount.get(t)!) * Math.min(1, pmi / 6);
    const list = best.get(t) ?? [];
    list.push([p, strength]);
    best.set(t, list);
  }
  const terms: VocabFile['terms'] = {};
  for (const [t, list] of [...best].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    list.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const top = list.slice(0, perTerm).filter((e) => e[1] >= 0.05);
    if (top.length) terms[t] = top.map(([p, w]) => [p, Math.round(Math.min(1, w) * 1000) / 1000]);
  }
  return { format: 'premise-lsp-vocab', version: 1, terms };
}
