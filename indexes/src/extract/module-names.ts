/**
 * How a module or theory name is written in an import, and whether it can be
 * written at all: the one check every import edit goes through (`imports.ts`'s
 * `add`, which the language server's completions, code actions, search and
 * insert commands all use) and that the walk applies to the files it finds
 * (`walk.ts`: a file whose name cannot be imported is skipped, counted).
 *
 * Lean: a dotted path whose every component is a Lean identifier, written as it
 * is, or one that `«…»` can quote (no `«`, `»`, no control, format or
 * line-separator character), written quoted; a component that is a keyword
 * (`end`, `import`, `macro`, …) is quoted too. Isabelle: a theory name written bare when it
 * is made of `A-Za-z0-9_'.` and is no header keyword (`begin`, `imports`, …), else in double quotes, provided it holds no `"`,
 * `\`, cartouche, backquote, white space, control or format character (Isabelle
 * strings have no escape for a quote we would trust here). Anything else is
 * never offered for import: a name is data from the disk or an index, and must
 * never become code in the user's file.
 */
import type { Lang } from './record.js';
import { isIdRest, isIdStart } from './lean/lex.js';

/**
 * Lean words that read as keywords (tokens of Lean's own grammar), never as a module name
 * component, when written bare: quoted. Quoting a word that is no keyword is harmless
 * (`«x»` is `x`), so the list errs on the side of more (issue 36 item 6: `macro`, `syntax`,
 * `run_cmd` were written bare).
 */
const LEAN_KEYWORDS = new Set([
  'import', 'prelude', 'module', 'public', 'meta', 'private', 'protected', 'all', 'end', 'open', 'section', 'namespace', 'theorem', 'lemma',
  'def', 'example', 'variable', 'universe', 'where', 'at', 'by', 'fun', 'have', 'show', 'from', 'then', 'else', 'if', 'do',
  'let', 'in', 'match', 'with', 'instance', 'structure', 'class', 'inductive', 'coinductive', 'axiom', 'abbrev', 'opaque', 'set_option',
  'macro', 'macro_rules', 'syntax', 'elab', 'elab_rules', 'notation', 'infix', 'infixl', 'infixr', 'prefix', 'postfix', 'declare_syntax_cat',
  'run_cmd', 'run_elab', 'run_meta', 'attribute', 'deriving', 'mutual', 'noncomputable', 'partial', 'unsafe', 'scoped', 'local', 'omit',
  'include', 'export', 'extends', 'initialize', 'builtin_initialize', 'termination_by', 'decreasing_by', 'suffices', 'calc', 'nomatch',
  'nofun', 'for', 'unless', 'return', 'mut', 'try', 'catch', 'finally', 'break', 'continue', 'using', 'Type', 'Sort', 'Prop', 'add_decl_doc',
  'register_simp_attr', 'register_option', 'builtin_simproc', 'simproc', 'dsimproc', 'irreducible_def', 'alias', 'hiding', 'renaming',
  'nonrec', 'rec', 'obtain',
]);

/** Characters no written name may hold: controls, format characters (bidi overrides included), line and paragraph separators. */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

function isLeanIdent(s: string): boolean {
  let first = true;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (first ? !isIdStart(c) : !isIdRest(c)) return false;
    first = false;
  }
  return !first;
}

/**
 * Longest module or theory name written: a name is a file's path under its source root,
 * so a deep tree (2,000 levels, test/cli/hostile-input.test.ts) still has its modules; the bound
 * only keeps an edit's size in reason.
 */
const MAX_NAME_CHARS = 16_384;

/** A Lean module name as an import writes it (`Mathlib.Order.Basic`, `Foo.«2d»`), or undefined when it cannot be written safely. */
export function leanModuleSyntax(module: string): string | undefined {
  if (!module || module.length > MAX_NAME_CHARS) return undefined;
  const parts = module.split('.');
  const out: string[] = [];
  for (const p of parts) {
    if (!p || UNSAFE.test(p)) return undefined;
    if (isLeanIdent(p) && !LEAN_KEYWORDS.has(p)) out.push(p);
    else if (/[«»]/.test(p)) return undefined;
    else out.push(`«${p}»`);
  }
  return out.join('.');
}

const ISABELLE_BARE = /^[A-Za-z0-9_'.]+$/;
/** Words of a theory header (and its neighbours) that a bare theory name would be read as: quoted (issue 36 item 6). */
const ISABELLE_KEYWORDS = new Set(['begin', 'imports', 'keywords', 'abbrevs', 'theory', 'end', 'and', 'in', 'is', 'if', 'for', 'where', 'open', 'when', 'chapter', 'section', 'text']);
const ISABELLE_UNQUOTABLE = /["\\‹›`\s]/u;

/** An Isabelle theory name as `imports` writes it (`Main`, `"HOL-Library.Multiset"`), or undefined when it cannot be written safely. */
export function isabelleTheorySyntax(theory: string): string | undefined {
  if (!theory || theory.length > MAX_NAME_CHARS) return undefined;
  if (ISABELLE_BARE.test(theory) && !ISABELLE_KEYWORDS.has(theory)) return theory;
  if (ISABELLE_UNQUOTABLE.test(theory) || UNSAFE.test(theory)) return undefined;
  return `"${theory}"`;
}

/** The name as an import of `lang` writes it, or undefined when it cannot be written safely (never offered for import). */
export function importSyntax(module: string, lang: Lang): string | undefined {
  return lang === 'lean' ? leanModuleSyntax(module) : isabelleTheorySyntax(module);
}
