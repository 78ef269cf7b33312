/**
 * Per-command parsers: turn one theory command (see commands.ts) into
 * declaration drafts — name, kind, premises, conclusion, token ranges, refs —
 * by its keyword: theorems.ts, definitions.ts, datatypes.ts, over reader.ts.
 * Records are assembled in extractor.ts.
 */
import type { Command } from './commands.js';
import { DATATYPE_COMMANDS, FUN_COMMANDS, INDUCTIVE_COMMANDS, THEOREM_COMMANDS } from './keywords.js';
import { SpecReader, type Draft, type SpecCtx } from './reader.js';
import { lemmas, theorem } from './theorems.js';
import { axiomatization, definition, fun, inductive, liftDefinition, namedFacts } from './definitions.js';
import { datatype } from './datatypes.js';

export type { Draft, SpecCtx } from './reader.js';

/** Drafts for one command; [] for commands that declare nothing we index. */
export function parseCommand(ctx: SpecCtx, cmd: Command): Draft[] {
  const p = new SpecReader(ctx, cmd);
  const kw = cmd.kw;
  if (THEOREM_COMMANDS.has(kw)) return theorem(p);
  if (kw === 'lemmas' || kw === 'theorems') return lemmas(p);
  if (kw === 'definition' || kw === 'abbreviation') return definition(p);
  if (FUN_COMMANDS.has(kw)) return fun(p);
  if (INDUCTIVE_COMMANDS.has(kw)) return inductive(p);
  if (kw === 'inductive_cases' || kw === 'inductive_simps') return namedFacts(p, 'lemma');
  if (DATATYPE_COMMANDS.has(kw)) return datatype(p).map((d) => ({ ...d, space: 'type' as const }));
  if (kw === 'lift_definition') return liftDefinition(p);
  if (kw === 'axiomatization') return axiomatization(p);
  return [];
}
