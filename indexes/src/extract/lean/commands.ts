/**
 * Where Lean commands start in a token stream: column-0 command keywords,
 * declaration keywords anywhere a line begins, and declarations that begin in
 * the middle of a line. Docstrings, attributes and modifiers stay with the
 * declaration they precede.
 */
import { T, type Tok } from './lex.js';
import { MODIFIERS } from './struct.js';

/** Reserved words that start a command wherever they begin a line. */
const ANY_COL = new Set([
  'theorem', 'lemma', 'def', 'abbrev', 'instance', 'structure', 'class', 'inductive', 'axiom', 'opaque', 'example',
  'namespace', 'section', 'end', 'mutual', 'variable', 'universe',
]);

/** Declaration and scope keywords that start a command even in the middle of a line. */
const MID_LINE = new Set([
  'theorem', 'lemma', 'def', 'abbrev', 'instance', 'structure', 'class', 'inductive', 'axiom', 'opaque', 'example',
  'namespace', 'section', 'end',
]);

/** Words after which a declaration keyword continues the command (`class inductive`, `open Foo in def`). */
const CONTINUES = new Set(['in', 'class', 'deriving', 'where', 'with', 'extends', 'attribute', 'for']);

/** Words that start a command at column 0. */
const COL0 = new Set([
  ...ANY_COL, ...MODIFIERS, 'irreducible_def', 'universes', 'open', 'set_option', 'attribute', 'include', 'omit',
  'export', 'alias', 'import', 'macro', 'macro_rules', 'syntax', 'notation', 'notation3', 'infix', 'infixl',
  'infixr', 'prefix', 'postfix', 'elab', 'elab_rules', 'initialize', 'builtin_initialize', 'run_cmd', 'run_elab',
  'run_meta', 'assert_not_exists', 'assert_not_imported', 'library_note', 'initialize_simps_projections',
  'add_decl_doc', 'compile_inductive', 'compile_def', 'suppress_compilation', 'unseal', 'seal', 'proof_wanted',
  'declare_aesop_rule_sets', 'register_option', 'register_simp_attr', 'simproc', 'dsimproc', 'simproc_decl',
  'dsimproc_decl', 'register_label_attr', 'add_aesop_rules', 'mk_iff_of_inductive_prop', 'module', 'unif_hint',
  'declare_syntax_cat', 'recall', 'insert_to_additive_translation', 'register_builtin_option', 'whatsnew',
  'count_heartbeats', 'grind_pattern', 'declare_config_elab', 'register_hint', 'lemma', 'binder_predicate',
  'open_locale', 'scoped', 'local', 'deprecate', 'to_additive_ignore_args', 'gen_injective_theorems', 'library_note2',
]);

function isStart(toks: Tok[], i: number, inMutual: boolean): boolean {
  const t = toks[i];
  if (!t.nl) return false;
  switch (t.k) {
    case T.Doc:
    case T.Attr:
      return t.col === 0 || inMutual;
    case T.Op:
      return t.col === 0 && t.v.startsWith('#');
    case T.Id:
      if (ANY_COL.has(t.v)) return true;
      if (t.col === 0) {
        if (t.v === 'deriving') return toks[i + 1]?.v === 'instance';
        return COL0.has(t.v);
      }
      return inMutual && MODIFIERS.has(t.v);
    default:
      return false;
  }
}

/**
 * Where a command starting mid-line (`… := rfl @[simp] theorem b …`: several
 * declarations on one line, e.g. a generated file on a single line) begins: the
 * keyword at `i`, or the docstring, attributes and modifiers just before it; -1
 * when the keyword continues the command before it (`class inductive`,
 * `deriving instance`, `open X in def`, `attribute [local instance]`, quotations).
 */
function midLineStart(toks: Tok[], i: number): number {
  let j = i;
  while (j > 0) {
    const p = toks[j - 1];
    if (p.k === T.Doc || (p.k === T.Id && MODIFIERS.has(p.v))) j--;
    else if (p.k === T.Close) {
      let depth = 0;
      let k = j - 1;
      for (; k >= 0; k--) {
        if (toks[k].k === T.Close) depth++;
        else if (toks[k].k === T.Open || toks[k].k === T.Attr) depth--;
        if (depth === 0) break;
      }
      if (k < 0 || toks[k].k !== T.Attr) break;
      j = k;
    } else break;
  }
  if (j === 0 || toks[j].nl) return j;
  // after an antiquotation (`$mods:declModifiers theorem …` in a syntax quotation)
  for (let k = Math.max(0, j - 4); k < j; k++) if (toks[k].k === T.Op && toks[k].v.startsWith('$')) return -1;
  const p = toks[j - 1];
  const endsTerm = p.k === T.Num || p.k === T.Str || p.k === T.Char || p.k === T.Close || p.k === T.Proj || (p.k === T.Id && !CONTINUES.has(p.v));
  return endsTerm ? j : -1;
}

/** Token indices where commands start; modifiers/attributes stay with their declaration. */
export function commandStarts(toks: Tok[]): number[] {
  const starts: number[] = [];
  let modsOnly = false;
  let attrDepth = 0;
  let inMutual = false;
  let depth = 0; // brackets open since the last command start (syntax quotations `(…) hold commands)
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    let start = isStart(toks, i, inMutual) && !modsOnly ? i : -1;
    if (start < 0 && !t.nl && t.k === T.Id && MID_LINE.has(t.v) && !modsOnly && depth === 0) {
      const j = midLineStart(toks, i);
      if (j > (starts[starts.length - 1] ?? -1)) start = j;
    }
    if (start >= 0) {
      starts.push(start);
      modsOnly = true;
      attrDepth = 0;
      depth = 0;
      for (let k = start; k < i; k++) depth += toks[k].k === T.Open || toks[k].k === T.Attr ? 1 : toks[k].k === T.Close ? -1 : 0;
      if (t.k === T.Id && t.v === 'mutual') inMutual = true;
      else if (t.k === T.Id && t.v === 'end') inMutual = false;
    }
    if (t.k === T.Open || t.k === T.Attr) depth++;
    else if (t.k === T.Close && depth > 0) depth--;
    if (attrDepth > 0) {
      if (t.k === T.Open || t.k === T.Attr) attrDepth++;
      else if (t.k === T.Close) attrDepth--;
    } else if (t.k === T.Attr) attrDepth = 1;
    else if (t.k !== T.Doc && !(t.k === T.Id && MODIFIERS.has(t.v))) modsOnly = false;
  }
  return starts;
}
