/**
 * Raw references of a Lean proof/body: identifiers, minus keywords, tactic names,
 * projections and (cheaply detected) bound variables. The resolver later keeps only
 * names that exist.
 */
import { T, type Tok } from './lex.js';

/** Keywords and tactic names that are never premise references. */
export const NOT_REFS = new Set(
  (
    'by fun at with from have show suffices let in if then else do match return this calc where Type Sort Prop ' +
    'sorry using only generalizing deriving mut for unless try catch finally break continue open set_option ' +
    'termination_by decreasing_by haveI letI exact exacts apply refine refine\' intro intros rintro rintros ' +
    'obtain rcases cases cases\' induction induction\' simp simp_all simpa simp_rw simp? simp_all? dsimp rw rwa erw ' +
    'rewrite nth_rw nth_rewrite rw_mod_cast conv conv_lhs conv_rhs lhs rhs arg enter congr congr! congrm gcongr rel ' +
    'bound aesop tauto itauto norm_cast push_cast exact_mod_cast apply_mod_cast assumption_mod_cast mod_cast zify qify ' +
    'rify push_neg by_contra by_contra! by_cases contrapose contrapose! exists existsi apply_fun nlinarith linarith ' +
    'linarith! nlinarith! polyrith linear_combination linear_combination\' nontriviality inhabit classical ' +
    'infer_instance exact? apply? decide native_decide norm_num norm_num1 ring ring_nf ring1 abel abel_nf abel1 ' +
    'field_simp cancel_denoms interval_cases fin_cases mono continuity measurability fun_prop filter_upwards choose ' +
    'lift set peel wlog all_goals any_goals first repeat repeat\' iterate focus on_goal pick_goal swap rotate_left ' +
    'rotate_right case case\' next rename_i rename injection injections constructorm casesm cases_type split_ifs ' +
    'split split_ands and_intros exfalso trivial ac_rfl unfold unfold_let delta clear clear_value subst subst_vars ' +
    'revert generalize specialize replace change convert convert_to show_term says observe tfae_have tfae_finish ' +
    'compute_degree monicity reduce_mod_char simp_intro subsingleton borelize positivity finiteness module ' +
    'noncomm_ring group slim_check plausible apply_rules solve_by_elim aesop_cat cat_disch simp_arith omega ' +
    'bv_omega fin_omega ext ext1 apply_assumption constructor fconstructor econstructor left right symm trans ' +
    'use use! refine_lift assumption contradiction exact_mod_cast norm_num! field_simp! with_reducible ' +
    'config discharger contextual to hiding renaming nomatch nofun fail done skip sorry_if_sorry ' +
    'calc_step erw? rfl\' exact! simp! dsimp! simpa! simpa? apply_rfl hint mfld_set_tac rsuffices ' +
    'induction_on match_pattern introv rcases? rintro? obtain? show? unfold? at* fun_prop? measurability? ' +
    'continuity? positivity? says? cases_matching tfae aesop? bound? gcongr? clear_except set! nth_rewrite! ' +
    'refine\'? push_cast? omega? norm_num? linarith? polyrith? decreasing_tactic decreasing_trivial ' +
    'simp_wf norm_fin fin_omega? grind grind? exact_rat split_ands? assumption\' ' +
    'true false'
  ).split(/\s+/).filter((w) => w && w !== 'true' && w !== 'false'),
);

/** Keywords after which the next identifiers (on the same line) are bound. */
const BINDING_IDS = new Set([
  'fun', 'intro', 'intros', 'rintro', 'obtain', 'with', 'let', 'have', 'haveI', 'letI', 'set', 'case', "case'",
  'next', 'ext', 'ext1', 'funext', 'choose', 'generalize', 'rename_i', 'by_cases', 'by_contra', 'by_contra!',
  'peel', 'wlog', 'introv', 'lift', 'suffices',
]);
const BINDING_OPS = new Set(['λ', '∀', '∃', '∃!', '∑', '∏', '⋃', '⋂', '⨆', '⨅', '∫', '∑ᶠ', '∏ᶠ', 'Σ', 'Π', '∮']);

const MAX_PATTERN = 200;

/** Mark identifiers in a binder pattern starting at `i` as bound. */
function gatherPattern(toks: Tok[], i: number, b: number, bound: Set<string>, skipFirst: boolean): void {
  let depth = 0;
  let typeDepth = Infinity;
  let first = skipFirst;
  const limit = Math.min(b, i + MAX_PATTERN);
  for (let m = i; m < limit; m++) {
    const t = toks[m];
    if (m > i && t.nl && depth === 0) return;
    switch (t.k) {
      case T.Open:
      case T.Attr:
        depth++;
        break;
      case T.Close:
        depth--;
        if (depth < 0) return;
        if (depth < typeDepth) typeDepth = Infinity;
        break;
      case T.Colon:
        if (depth === 0) return;
        if (typeDepth === Infinity) typeDepth = depth;
        break;
      case T.Id:
        if (depth === 0 && NOT_REFS.has(t.v) && t.v !== 'rfl') return;
        if (depth >= typeDepth) break;
        if (t.v.startsWith('.')) {
          first = false;
          break;
        }
        if (first) {
          first = false;
          const nx = toks[m + 1];
          if (nx !== undefined && (nx.k === T.Id || nx.k === T.Open)) break; // `| succ n` : constructor
        }
        if (t.v !== 'rfl' && t.v !== '_' && t.v.indexOf('.') < 0) bound.add(t.v);
        break;
      case T.Comma:
      case T.Bar:
        if (depth === 0) return;
        break;
      case T.Op:
        if (depth === 0 && t.v !== '@') return;
        break;
      default:
        if (depth === 0) return;
    }
  }
}

/** Names bound inside [a, b) by `fun`, `intro`, `obtain ⟨…⟩`, `∀ x,`, match arms, … */
export function boundInBody(toks: Tok[], a: number, b: number, bound: Set<string>): void {
  for (let i = a; i < b; i++) {
    const t = toks[i];
    if (t.k === T.Id) {
      if (BINDING_IDS.has(t.v)) gatherPattern(toks, i + 1, b, bound, false);
    } else if (t.k === T.Op) {
      if (BINDING_OPS.has(t.v)) gatherPattern(toks, i + 1, b, bound, false);
    } else if (t.k === T.Bar && t.nl) {
      gatherPattern(toks, i + 1, b, bound, true);
    }
  }
}

/** `name x ⟨y, z⟩ :=` on one line: `name` is being defined (a `where` field), not used. */
function definesOnLine(toks: Tok[], i: number, b: number): boolean {
  const limit = Math.min(b, i + 16);
  for (let m = i; m < limit; m++) {
    const t = toks[m];
    if (t.nl) return false;
    if (t.k === T.Assign) return true;
    if (t.k !== T.Id && t.k !== T.Open && t.k !== T.Close && t.k !== T.Comma) return false;
  }
  return false;
}

/**
 * `(e : T)` with the identifier at `i` as the whole term `e`: a type ascription, so a
 * reference, not a binder `(x : T)`. A qualified name (`(Nat.succ_le_iff : a < b)`)
 * never names a binder; a plain one is taken as a term unless the parenthesis could
 * open a binder group: after a binding keyword or operator (`fun (x : α)`, `∀ (x : α)`),
 * a name (`go (n : ℕ)`, a local definition's parameters) or another group (`) (y : β)`).
 * (A real binder's name is also in `bound`, from boundInBody, which is checked first.)
 */
function isAscribed(toks: Tok[], i: number, a: number): boolean {
  const open = toks[i - 1];
  if (i - 1 < a || open === undefined || open.k !== T.Open || open.v !== '(') return false;
  const v = toks[i]!.v;
  if (v.charCodeAt(0) !== 46 /* . */ && v.indexOf('.') > 0) return true;
  const before = i - 2 >= a ? toks[i - 2] : undefined;
  if (before === undefined) return true;
  if (before.k === T.Close) return false;
  if (before.k === T.Op) return !BINDING_OPS.has(before.v);
  if (before.k === T.Id) return NOT_REFS.has(before.v) && !BINDING_IDS.has(before.v);
  return true;
}

/** Raw references in [a, b), deduplicated, in order of first use. */
export function extractRefs(toks: Tok[], a: number, b: number, bound: Set<string>, self?: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (let i = a; i < b; i++) {
    const t = toks[i];
    if (t.k !== T.Id) continue;
    const v = t.v;
    if (v === '_' || NOT_REFS.has(v) || seen.has(v)) continue;
    const next = toks[i + 1];
    if (next !== undefined && i + 1 < b && (next.k === T.Assign || (next.k === T.Colon && !isAscribed(toks, i, a)))) continue;
    if (v.charCodeAt(0) !== 46 /* . */) {
      const dot = v.indexOf('.');
      if (bound.has(dot < 0 ? v : v.slice(0, dot))) continue;
    }
    if (v === self) continue;
    if (t.nl && definesOnLine(toks, i + 1, b)) continue;
    seen.add(v);
    out.push(v);
  }
  return out;
}
