/**
 * The premise record: one per declaration, emitted by the extractors and stored
 * (minus `rawRefs`/`scope`) in an index's metadata sidecar. docs/cli.md documents
 * this schema; keep both in step.
 */

import type { TermRun } from '../sparse/bm25.js';

export type Lang = 'lean' | 'isabelle';

/** Declaration kinds. Lean and Isabelle share the vocabulary where they can. */
export type DeclKind =
  // Lean
  | 'theorem'
  | 'lemma'
  | 'def'
  | 'abbrev'
  | 'instance'
  | 'structure'
  | 'class'
  | 'field'
  | 'inductive'
  | 'constructor'
  | 'axiom'
  | 'opaque'
  // Isabelle (lemma/theorem/def shared above)
  | 'corollary'
  | 'proposition'
  | 'definition'
  | 'fun';

/** 0-based line/character, like LSP. */
export interface Pos {
  line: number;
  character: number;
}
export interface Range {
  start: Pos;
  end: Pos;
}

export interface PremiseRecord {
  /** Fully qualified name, e.g. `Nat.add_comm`, or `Theory.fact` for Isabelle. */
  name: string;
  kind: DeclKind;
  lang: Lang;
  /** Lean module (`Mathlib.Algebra.Group.Defs`) or Isabelle theory name. */
  module: string;
  /** Path relative to the source root given to the extractor, `/`-separated. */
  file: string;
  /** Range of the whole declaration in `file`. */
  range: Range;
  /**
   * Γp: the arguments / hypotheses, one entry per binder group or assumption as
   * written (`{α : Type*}`, `[Group α]`, `(h : a ≤ b)`; Isabelle: each `assumes`
   * proposition or each premise of `⟦A; B⟧ ⟹ C`). Includes `variable` binders in
   * scope that the statement mentions. Isabelle text is in Unicode form.
   */
  args: string[];
  /** Gp: the conclusion (Lean: the type after the top-level `:`; Isabelle: `shows`). */
  goal: string;
  /** The signature as written, without the proof / body. */
  statement: string;
  /** Docstring without comment markers, if any. */
  doc?: string;
  /**
   * Prose around the declaration: module docstring title and section heading
   * (Lean), chapter/section titles and the `text` block before it (Isabelle).
   */
  context?: string;
  /**
   * An informal statement written by an LLM at index time (`index --llm`), part
   * of the premise's English side; absent without one.
   */
  informal?: string;
  /** Attributes as written, e.g. `simp`, `to_additive`. */
  attrs?: string[];
  /**
   * Names referenced in the proof or body (source-level approximation of the
   * premises it uses), resolved to full names where the resolver could.
   */
  refs: string[];
  /** For generated names (`@[to_additive]`, `@[simps]`, fields): the source declaration. */
  origin?: string;
  /**
   * Lean's module system: a definition (`def`, `instance`) of a `module` file whose body the
   * file does not expose (no `@[expose]` on it or on its section). A caller inside the module
   * system cannot unfold it unless it imports the module with `import all`; LeanHammer's
   * server leaves such premises out for it (server/src/http/leanhammer.ts). Absent otherwise.
   */
  unexposed?: true;
}

/**
 * What an extractor returns for one file: records plus the names in scope needed to
 * resolve references later (namespaces and `open`s at each declaration).
 */
export interface ExtractedDecl extends PremiseRecord {
  /** Namespace/open context the declaration was written in, for reference resolution. */
  scope: { namespaces: string[]; opens: string[] };
  /**
   * The formal BM25 terms, when the index build made them with the extraction
   * (on its worker threads): ids into a term table its batch of files shares.
   * The build moves them out of the records (see extractCorpus).
   */
  formalTerms?: TermRun;
}

export interface FileExtraction {
  decls: ExtractedDecl[];
  /** Human-readable warnings (skipped/unparsed constructs), counted in build summaries. */
  warnings: string[];
  /** The modules the file's header imports (`imports.ts`), set by `extractSource`. */
  imports?: string[];
}
