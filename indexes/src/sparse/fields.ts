/**
 * The two BM25 fields of a set of premises: the formal one (identifier parts and
 * symbols of name, hypotheses, conclusion, docstring) and the informal one
 * (English words of the premise's informal side). Built the same way for an
 * index directory and for the engine's in-memory overlay.
 */
import { informalText, sparseText } from '../premise-text.js';
import { englishTerms } from '../informal/english.js';
import { Bm25Index } from './bm25.js';
import { terms } from './terms.js';
import { phaseTimer } from '../profile.js';

type Textual = Parameters<typeof informalText>[0];

/** Terms are made one premise at a time (a corpus's term lists are never all held at once). */
export function buildSparseFields(premises: readonly Textual[]): { sparse: Bm25Index; informal: Bm25Index } {
  const prof = phaseTimer('bm25');
  const sparse = buildFormalField(premises);
  prof.lap('formal');
  const informal = buildInformalField(premises);
  prof.lap('informal');
  return { sparse, informal };
}

export function buildFormalField(premises: Iterable<Textual>): Bm25Index {
  return Bm25Index.build((function* () {
    for (const p of premises) yield terms(sparseText(p));
  })());
}

export function buildInformalField(premises: Iterable<Textual>): Bm25Index {
  return Bm25Index.build((function* () {
    for (const p of premises) yield englishTerms(informalText(p));
  })());
}

/** An informal field with no terms over `n` premises (its build deferred, see ../deferred-informal.ts). */
export function emptyField(n: number): Bm25Index {
  return Bm25Index.build((function* () {
    for (let i = 0; i < n; i++) yield [];
  })());
}
