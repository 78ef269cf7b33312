/**
 * A deterministic English rendering of a formal statement: notation and common
 * constants become words (`∀ x ∈ s` → "for all … member", `∣` → "divides",
 * `∑` → "sum", `√` → "square root", `deriv` → "derivative"), identifiers are read
 * through the naming convention, bound variables are dropped. Also a few
 * shape rules a reader would state in words: `f (-x) = f x` is an even function.
 */
import { partWords } from './naming.js';
import { identParts, isDigit, mayStartIdent } from '../sparse/terms.js';

/** Notation → English. Longest first where one is a prefix of another. */
const SYMBOL_WORDS: [string, string][] = [
  ['⁻¹', 'inverse'],
  ['∀', 'for all every'],
  ['∃!', 'exists unique'],
  ['∃', 'exists there is some'],
  ['↔', 'if and only if equivalent'],
  ['→', 'implies then'],
  ['⟹', 'implies then'],
  ['¬', 'not'],
  ['∧', 'and'],
  ['∨', 'or'],
  ['≠', 'not equal'],
  ['≤', 'less than or equal at most'],
  ['≥', 'greater than or equal at least'],
  ['<', 'less than'],
  ['>', 'greater than'],
  ['∣', 'divides divisible'],
  ['∈', 'member in element'],
  ['∉', 'not member'],
  ['⊆', 'subset'],
  ['⊂', 'strict subset'],
  ['∪', 'union'],
  ['∩', 'intersection'],
  ['ᶜ', 'complement'],
  ['⊔', 'supremum join'],
  ['⊓', 'infimum meet'],
  ['⨆', 'supremum'],
  ['⨅', 'infimum'],
  ['∑', 'sum'],
  ['∏', 'product'],
  ['∫', 'integral'],
  ['√', 'square root'],
  ['∘', 'composition composed'],
  ['•', 'scalar multiplication'],
  ['‖', 'norm'],
  ['|', 'absolute value'],
  ['∞', 'infinity'],
  ['π', 'pi'],
  ['ℕ', 'natural number'],
  ['ℤ', 'integer'],
  ['ℚ', 'rational'],
  ['ℝ', 'real number'],
  ['ℂ', 'complex number'],
  ['⊤', 'top'],
  ['⊥', 'bottom'],
  ['∅', 'empty set'],
  ['*', 'times product'],
  ['+', 'plus sum'],
  ['/', 'divided quotient'],
  ['^', 'power'],
  ['=', 'equals'],
  ['!', 'factorial'],
];

const NUMBER_WORDS: Record<string, string> = { '0': 'zero', '1': 'one', '2': 'two', '3': 'three' };

const IDENT = /[\p{L}_][\p{L}\p{N}_'.]*/uy;

/** SYMBOL_WORDS by first UTF-16 unit, in table order (the first match wins, as in a scan of the whole table). */
const SYMBOLS_BY_FIRST = new Map<number, [string, string][]>();
for (const entry of SYMBOL_WORDS) {
  const c = entry[0].charCodeAt(0);
  const list = SYMBOLS_BY_FIRST.get(c);
  if (list) list.push(entry);
  else SYMBOLS_BY_FIRST.set(c, [entry]);
}


/** The statement read as words. */
export function renderStatement(text: string): string {
  const out: string[] = [];
  let i = 0;
  const n = text.length;
  outer: while (i < n) {
    const c = text.charCodeAt(i);
    if (mayStartIdent(c)) {
      IDENT.lastIndex = i;
      const m = IDENT.exec(text);
      if (m) {
        i += m[0].length;
        for (const comp of m[0].split('.')) {
          for (const part of identParts(comp)) {
            if (part.length < 2) continue; // bound variables
            const w = partWords(part);
            if (w) out.push(w);
          }
        }
        continue;
      }
    }
    if (isDigit(c)) {
      // a run of at most 12 digits, then the rest of a longer run as the next one
      let j = i + 1;
      while (j < n && j < i + 12 && isDigit(text.charCodeAt(j))) j++;
      out.push(NUMBER_WORDS[text.slice(i, j)] ?? '');
      i = j;
      continue;
    }
    const candidates = SYMBOLS_BY_FIRST.get(c);
    if (candidates) {
      for (const [sym, words] of candidates) {
        if (text.startsWith(sym, i)) {
          out.push(words);
          i += sym.length;
          continue outer;
        }
      }
    }
    i++;
  }
  return [...out, ...shapeWords(text)].filter(Boolean).join(' ');
}

/** Words for statement shapes that a reader names rather than spells out. */
function shapeWords(text: string): string[] {
  const out: string[] = [];
  // f (-x) = f x  /  f (-x) = -f x
  // each pattern's literal part checked first: the regexes backtrack from every position
  const m = text.includes(' (-') ? /(\S+) \(-(\w+)\) = (-?)\s*\1 \2\b/u.exec(text) : null;
  if (m) out.push(m[3] ? 'odd function' : 'even function symmetric');
  if (text.includes(' + ') && /\b(\w+) \(\w+ \+ \w+\) = \1 \w+ \+ \1 \w+/u.test(text)) out.push('additive linear');
  if (text.includes(' * ') && /\b(\w+) \(\w+ \* \w+\) = \1 \w+ \* \1 \w+/u.test(text)) out.push('multiplicative');
  return out;
}
