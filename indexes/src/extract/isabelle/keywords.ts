/** Isabelle outer-syntax keyword tables (Pure, HOL and commands common in the AFP). */

const words = (s: string): Set<string> => new Set(s.split(/\s+/).filter(Boolean));

/** Document commands: dropped together with their one text argument. */
export const DOC_COMMANDS = words(`
  chapter section subsection subsubsection paragraph subparagraph text text_raw txt header
  sect subsect subsubsect txt_raw
`);

/** Commands that start a new theory-level command (and end any proof before them). */
export const THEORY_COMMANDS = words(`
  theory end
  lemma theorem corollary proposition schematic_goal schematic_lemma schematic_theorem
  schematic_corollary lemmas theorems named_theorems
  definition abbreviation fun function primrec primcorec primcorecursive corec corecursive
  partial_function termination fun_cases nominal_primrec
  inductive inductive_set coinductive coinductive_set inductive_cases inductive_simps
  nominal_inductive nominal_inductive2 equivariance atom_decl nominal_datatype
  datatype datatype_new codatatype old_datatype rep_datatype old_rep_datatype datatype_compat
  free_constructors wrap_free_constructors bnf bnf_axiomatization copy_bnf lift_bnf
  datatype_new_compat
  record typedef typedecl type_synonym types nonterminal consts constdefs defs axioms
  axiomatization specification ax_specification recdef recdef_tc arities classes classrel
  lift_definition setup_lifting lifting_forget lifting_update quotient_type quotient_definition
  quotient_def
  locale sublocale interpretation global_interpretation permanent_interpretation
  class subclass instantiation instance overloading context bundle unbundle notepad experiment
  declare hide_class hide_type hide_const hide_fact alias type_alias
  notation no_notation type_notation no_type_notation syntax no_syntax translations
  no_translations adhoc_overloading no_adhoc_overloading default_sort judgment
  ML ML_file SML_file setup local_setup attribute_setup method_setup
  declaration syntax_declaration simproc_setup parse_ast_translation parse_translation
  print_translation typed_print_translation print_ast_translation oracle
  code_datatype code_printing code_reserved code_identifier code_module code_const code_type
  code_instance code_class code_include code_reflect code_pred code_monad code_abort
  code_modulename code_lazy_type export_code code_reserved
  functor enriched_type derive simps_of_case case_of_simps
  nitpick_params quickcheck_params quickcheck_generator sledgehammer_params refute_params
  consts_code types_code extract extract_type realizers realizability
  spark_open spark_vc spark_status spark_end spark_proof_functions spark_types
  boogie_open boogie_vc boogie_status boogie_end
`);

/** Proof-level commands and Isar minor keywords that end a fact list or method. */
export const PROOF_KEYWORDS = words(`
  have show hence thus obtain from with using unfolding note then also finally moreover
  ultimately fix assume presume case next qed proof by apply done oops sorry defer prefer
  back let def define consider interpret txt supply include including subgoal apply_end
  guess write print_cases is and where for if when premises fixes assumes shows obtains
  defines notes includes constrains in begin imports keywords
  ML_prf
`);

/** Tokens that end a statement and start its proof. */
export const PROOF_START = words(`
  proof by apply using unfolding including supply oops sorry subgoal apply_end done defer
  prefer nitpick sledgehammer quickcheck try try0 refute
`);

/** Context elements of a long statement. */
export const CONTEXT_ELEMENTS = words(`fixes assumes shows obtains includes defines notes constrains`);

export const THEOREM_COMMANDS = words(`
  lemma theorem corollary proposition schematic_goal schematic_lemma schematic_theorem
  schematic_corollary
`);
export const FUN_COMMANDS = words(`
  fun function primrec primcorec primcorecursive corec corecursive partial_function nominal_primrec
`);
export const INDUCTIVE_COMMANDS = words(`inductive inductive_set coinductive coinductive_set`);
export const DATATYPE_COMMANDS = words(`datatype datatype_new codatatype old_datatype nominal_datatype`);

/** Commands whose `begin` opens a nested context closed by `end`. */
export const CONTEXT_OPENERS = words(`context locale class instantiation overloading notepad experiment bundle`);

/**
 * Diagnostic commands: allowed both between and inside proofs, so they never end a
 * declaration (at theory level they just trail the previous one, harmlessly).
 */
export const DIAGNOSTIC_COMMANDS = words(`
  thm term prop typ value values find_theorems find_consts thm_deps print_theorems
  print_locale print_locales print_interps print_classes print_context print_statement
  print_attributes print_methods print_simpset print_rules print_commands print_definitions
  print_abbrevs print_syntax print_cases print_bundles print_codesetup print_quotients
  print_quotmaps print_quotconsts print_dependencies print_options print_state print_theory
  locale_deps class_deps welcome display_drafts code_deps code_thms ML_val ML_command
  nitpick quickcheck sledgehammer try try0 refute solve_direct smt_status
`);

/**
 * Commands from optional libraries or old Isabelle versions whose names might also be
 * ordinary identifiers elsewhere: recognised only at the start of a line.
 */
export const LOOSE_COMMANDS = words(`
  extract extract_type realizers realizability derive spark_open spark_vc spark_status spark_end
  spark_proof_functions spark_types boogie_open boogie_vc boogie_status boogie_end
  nominal_datatype nominal_primrec nominal_inductive nominal_inductive2 atom_decl equivariance
  quotient_def consts_code types_code recdef recdef_tc types classes arities classrel axioms defs
  constdefs code_const code_type code_instance code_class code_modulename code_include code_monad
  code_abort lift_bnf copy_bnf bnf bnf_axiomatization judgment oracle alias type_alias specification
  ax_specification simps_of_case case_of_simps enriched_type functor datatype_new_compat
  datatype_compat old_rep_datatype rep_datatype old_datatype schematic_lemma schematic_theorem
  schematic_corollary header sect subsect subsubsect txt_raw permanent_interpretation
  free_constructors wrap_free_constructors code_lazy_type
`);
