/**
 * Query understanding for text queries (English, LaTeX already turned into
 * symbols, Lean notation inside prose, a declaration's name): what style the
 * text is written in, the English search terms for the informal field, and what
 * kind of declaration it asks for (a sentence that asserts something wants a
 * theorem; "the definition of …", "the … function", "a … space" want a
 * definition or structure).
 */
import { englishTerms, englishWords } from '../../../indexes/src/informal/english.js';
import { renderStatement } from '../../../indexes/src/informal/render.js';
import { partWords } from '../../../indexes/src/informal/naming.js';
import { identParts } from '../../../indexes/src/sparse/terms.js';
import type { DeclKind } from '../../../indexes/src/extract/record.js';
import type { Vocabulary } from '../../../indexes/src/informal/vocab.js';

export type TextStyle = 'name' | 'english' | 'formula' | 'mixed';
export type Intent = 'theorem' | 'definition' | 'any';

export interface TextQuery {
  style: TextStyle;
  intent: Intent;
  /** Informal-field terms with their query weights (before IDF). */
  english: Map<string, number>;
  /** Lean name parts the English words stand for, with weights, for the formal field. */
  lean: Map<string, number>;
}

/** Weight of a name part reached through the vocabulary, relative to a word of the query. */
const VOCAB_WEIGHT = 0.6;

const NAME_RE = /^@?[\p{L}_][\p{L}\p{N}_'!?₀-₉]*(?:\.[\p{L}_][\p{L}\p{N}_'!?₀-₉]*)*$/u;
/**
 * Prose with formulas is read as English only when words outnumber symbols this
 * many times over (`a measurable family κ : α → Measure β` is a formula with
 * words around it); chosen on MathlibQR's even rows.
 */
const ENGLISH_RATIO = 8;
const MATH_RE = /[=≤≥<>≠∣∈∉⊆⊂∪∩∑∏∫√∀∃→↔¬∧∨⁻¹^*+\/|‖⊔⊓⨆⨅•∘≅≃⋂⋃⊗⊕⨁↦×∼∅⟪⟫⊣⊨≫⟶≌↪]/gu;

/** Verbs and connectives of a sentence that states a fact. */
const ASSERTS = new Set(
  'is are equals equal has have implies iff commutes commute preserves preserve distributes divides holds exists exist converges tends satisfies gives yields maps sends lies belongs becomes can cannot must agrees coincides vanishes bounded dominates if then only whenever'.split(' '),
);
/** Nouns that name a result, not an object. */
const RESULT_NOUNS = new Set('theorem lemma inequality identity formula law rule principle criterion bound estimate test trick characterization characterisation'.split(' '));
/** Words that open a relative clause: a verb after them describes an object, it does not assert. */
const RELATIVE = new Set('that which where whose whom with such'.split(' '));
/** Nouns that name an object or a structure. */
const OBJECT_NOUNS = new Set('definition function map space group ring field structure type set class module algebra category functor order lattice topology measure filter sequence series number numbers polynomial matrix'.split(' '));

const THEOREM_KINDS = new Set<DeclKind>(['theorem', 'lemma', 'corollary', 'proposition']);

/** Whether a kind of declaration is what the intent asks for (undefined: no opinion). */
export function kindFits(intent: Intent, kind: DeclKind): boolean | undefined {
  // an instance is a definition that states a fact (`ℝ is a field`)
  if (intent === 'any' || kind === 'instance') return undefined;
  return (intent === 'theorem') === THEOREM_KINDS.has(kind);
}

export function styleOf(text: string): TextStyle {
  const t = text.trim();
  if (NAME_RE.test(t) && /[._]|\p{Ll}\p{Lu}/u.test(t)) return 'name';
  // single letters are variables, not words
  const words = englishWords(t.replace(/`[^`]*`/g, ' ')).filter((w) => w.length > 1).length;
  const symbols = (t.match(MATH_RE) ?? []).length;
  // Lean written in backticks is Lean, however much prose is around it
  if (/`[^`]+`/.test(t)) return words ? 'mixed' : 'formula';
  if (!symbols) return 'english';
  return words >= ENGLISH_RATIO * symbols ? 'english' : words >= 2 ? 'mixed' : 'formula';
}

export function intentOf(text: string, style: TextStyle): Intent {
  if (style === 'name') return 'any';
  const lower = text.toLowerCase();
  if (/^\s*(the )?definition of\b|^\s*define\b/.test(lower)) return 'definition';
  const words = englishWords(text.replace(/`[^`]*`|\$[^$]*\$/g, ' '));
  if (words.some((w) => RESULT_NOUNS.has(w))) return 'theorem';
  if (/[=≤≥<≠∣↔→⇒]| iff /u.test(text)) return 'theorem';
  // the first verb decides, unless a relative clause opened before it ("a group in which every …")
  for (const w of words) {
    if (ASSERTS.has(w)) return 'theorem';
    if (RELATIVE.has(w)) return 'definition';
  }
  return words.length && OBJECT_NOUNS.has(words[words.length - 1]!) ? 'definition' : 'any';
}

export function readTextQuery(text: string, vocabulary?: Vocabulary): TextQuery {
  const style = styleOf(text);
  const english = new Map<string, number>();
  const add = (s: string, w: number) => {
    for (const t of englishTerms(s)) english.set(t, (english.get(t) ?? 0) + w);
  };
  // prose as written; formulas (in backticks, dollars or bare) read in words like the premises' statements
  const prose = text.replace(/`[^`]*`/g, ' ');
  add(prose, 1);
  const formulas = [...text.matchAll(/`([^`]*)`/g)].map((m) => m[1]!);
  if (style === 'formula' || style === 'mixed') formulas.push(prose);
  for (const f of formulas) add(renderStatement(f), 0.5);
  const lean = new Map<string, number>();
  if (vocabulary && style !== 'name') {
    for (const t of new Set(englishTerms(prose))) {
      for (const [part, w] of vocabulary.get(t) ?? []) lean.set(part, Math.max(lean.get(part) ?? 0, VOCAB_WEIGHT * w));
    }
  }
  return { style, intent: intentOf(text, style), english, lean };
}

/** Queries up to this many terms (a nickname, a slogan) are matched on the name in full. */
const SHORT_QUERY = 3;
const partStems = new Map<string, Set<string>>();
/** The English search terms one name part stands for (`mul` → product, multipl, time…). */
function stemsOfPart(part: string): Set<string> {
  let set = partStems.get(part);
  if (!set) {
    set = new Set(englishTerms(partWords(part) || part));
    if (partStems.size < 100_000) partStems.set(part, set);
  }
  return set;
}

/**
 * A declaration's name as English search terms (naming.ts's part words, stemmed):
 * the stems of each part of its last component, then of each part of the
 * namespaces before it. The sets are shared per part (see stemsOfPart): a
 * name's stems are looked up, never copied (the name match reads a few hundred
 * names per query).
 */
export interface NameStems {
  /** Stems of every part, those of the last component's parts first. */
  parts: Set<string>[];
  /** How many of `parts` belong to the last component. */
  last: number;
}

export function nameStems(name: string): NameStems {
  const comps = name.split('.');
  const parts: Set<string>[] = [];
  for (const p of identParts(comps[comps.length - 1]!)) if (p.length > 1) parts.push(stemsOfPart(p));
  const last = parts.length;
  for (let i = 0; i < comps.length - 1; i++) for (const p of identParts(comps[i]!)) parts.push(stemsOfPart(p));
  return { parts, last };
}

/**
 * How well a declaration's name, read through the naming convention, says what
 * the query says: the share of the last component's parts the query mentions
 * (`abs_mul`: "absolute value" and "product" both asked for) times the share of
 * the query's terms the whole name accounts for. 1 when name and query agree.
 */
export function nameMatch(tq: TextQuery, { parts, last }: NameStems): number {
  if (!last || !tq.english.size) return 0;
  let covered = 0;
  for (let i = 0; i < last; i++) {
    for (const t of parts[i]!) {
      if (tq.english.has(t)) {
        covered++;
        break;
      }
    }
  }
  if (!covered) return 0;
  let said = 0;
  let total = 0;
  for (const [t, w] of tq.english) {
    total += w;
    if (parts.some((stems) => stems.has(t))) said += w;
  }
  // a name says a few words: the longer the query, the less a match on them settles it
  const brevity = Math.min(1, SHORT_QUERY / tq.english.size);
  return (covered / last) * (said / total) * brevity;
}
