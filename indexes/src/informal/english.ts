/**
 * English words as search terms: lower-cased words, stop words dropped (the
 * `stopword` package's English list, minus the words that carry logic in
 * mathematics: "not", "all", "only", "same"…), irregular plurals lemmatized
 * (wink-lemmatizer: "matrices" → "matrix") and then stemmed (Porter2:
 * "continuous"/"continuity" → "continu"). Premises' informal text and English
 * queries go through this one function, so both sides agree.
 */
import { eng } from 'stopword';
import lemmatizer from 'wink-lemmatizer';
import stem from 'wink-porter2-stemmer';

/** Stop words that still mean something in a mathematical statement. */
const KEEP = new Set(['not', 'no', 'all', 'every', 'each', 'any', 'some', 'only', 'same', 'than', 'more', 'less', 'between', 'one', 'two', 'first', 'second', 'zero', 'if', 'none', 'least', 'most', 'greater', 'under', 'over', 'above', 'below']);
/** Words that are frequent in questions and docstrings but never distinguish a lemma. */
const EXTRA = ['theorem', 'lemma', 'prove', 'proof', 'show', 'shows', 'statement', 'fact', 'result', 'given', 'suppose', 'let', 'holds', 'hold', 'also', 'version', 'note', 'see', 'use', 'used', 'using', 'lean', 'mathlib', 'tactic', 'simp'];
const STOP = new Set([...eng.filter((w: string) => !KEEP.has(w)), ...EXTRA]);

const WORD_RE = /[a-z]+(?:'[a-z]+)?/g;
/**
 * Longer words are kept whole: no English word is this long, and the stemmer's
 * suffix patterns take time quadratic in a word's length (a 30,000-letter name
 * in a request took 8 s, a 100,000-letter one minutes).
 */
const MAX_STEMMED = 48;
const memo = new Map<string, string | null>();

/** The search term of one lower-case word, or null for a stop word. */
export function englishTerm(word: string): string | null {
  let t = memo.get(word);
  if (t !== undefined) return t;
  if (STOP.has(word) || word.length < 2) t = null;
  else if (word.length > MAX_STEMMED) return word; // not remembered either
  else t = stem(lemmatizer.noun(word.replace(/'s$/, '')));
  if (memo.size < 200_000) memo.set(word, t);
  return t;
}

/** Search terms of an English text, in order, with repetitions. */
export function englishTerms(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(WORD_RE)) {
    const t = englishTerm(m[0]);
    if (t) out.push(t);
  }
  return out;
}

/** The English words of a text (lower-cased, stop words kept), for phrase-level rules. */
export function englishWords(text: string): string[] {
  return text.toLowerCase().match(WORD_RE) ?? [];
}
