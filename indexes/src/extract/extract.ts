/**
 * The one extract-then-resolve pipeline for a source text: the extractor of its
 * language, then proof references resolved against what it declares. The index
 * build runs the first step per file and resolves the whole corpus at once; the
 * server's live index runs both on one open document.
 *
 * Invariant: extractors never throw and never stop a build; bad input becomes a
 * counted warning (the "never throws" tests of extract-lean and extract-isabelle).
 */
import { addContext } from '../informal/context.js';
import { headerImports } from './imports.js';
import { extractIsabelle } from './isabelle/extractor.js';
import { extractLean } from './lean/extractor.js';
import type { FileExtraction, PremiseRecord } from './record.js';
import { resolveRefs } from './resolve.js';
import type { SourceFile } from './walk.js';

/** One source text through the extractor of its language, with the prose around each declaration (never throws: problems are warnings). */
export function extractSource(text: string, src: Pick<SourceFile, 'lang' | 'rel' | 'module'>): FileExtraction {
  const r = src.lang === 'lean' ? extractLean(text, src.rel, src.module) : extractIsabelle(text, src.rel, src.module);
  addContext(r.decls, text, src.lang);
  r.imports = headerImports(text, src.lang).imports;
  return r;
}

/** One document's premise records: extracted, then resolved among themselves (one record per name, aliases dropped). */
export function extractRecords(text: string, src: Pick<SourceFile, 'lang' | 'rel' | 'module'>): PremiseRecord[] {
  return resolveRefs(extractSource(text, src).decls);
}
