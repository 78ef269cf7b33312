/** What the features share: documents, engine, goals, settings. */
import type { Lang } from '../../../../indexes/src/extract/record.js';
import type { Flavor } from '../../upstream/command.js';
import type { PremiseConfig } from '../config.js';
import type { DocumentStore } from '../documents.js';
import type { EngineHost } from '../engine-host.js';
import type { GoalProvider } from '../goals/types.js';
import type { Logger } from '../log.js';
import type { StepPlace } from '../trials/place.js';
import type { TrialResult } from '../trials/runner.js';

export interface FeatureContext {
  docs: DocumentStore;
  engines: EngineHost;
  goals: GoalProvider;
  config(): PremiseConfig;
  flavor(): Flavor;
  log: Logger;
  /** What the open documents declare, from the live index. */
  live: { around(uri: string, line: number): { after: string[]; before: string[] }; documentOf(name: string): string | undefined };
  /** What trials found for a document's current version (`line`: at that step only). */
  trials?: { verdicts(uri: string, version: number, line?: number): Array<{ place: StepPlace; results: TrialResult[] }> };
}

/** Whose premises to search: the prover's, or (standalone) the document's language. */
export function langFor(ctx: FeatureContext, uri?: string): Lang | undefined {
  const flavor = ctx.flavor();
  if (flavor === 'lean' || flavor === 'isabelle') return flavor;
  if (uri === undefined) return undefined;
  const doc = ctx.docs.get(uri);
  const id = doc?.languageId ?? '';
  if (id.startsWith('lean') || uri.endsWith('.lean')) return 'lean';
  if (id.startsWith('isabelle') || uri.endsWith('.thy')) return 'isabelle';
  return undefined;
}

/**
 * The language a document is written in: its file's extension (`.lean`, `.thy`) first, then
 * the editor's language id, then the prover's flavour; undefined when none says. An edit
 * into the document (an insertion, an import) is written in this language, whatever the
 * server fronts: a `.thy` file served under `--lean` gets no Lean `import` (issue 36 item 6).
 */
export function docLanguage(ctx: FeatureContext, uri: string | undefined): Lang | undefined {
  if (uri !== undefined) {
    const path = uri.replace(/[?#].*$/, '');
    if (path.endsWith('.lean')) return 'lean';
    if (path.endsWith('.thy')) return 'isabelle';
    const id = ctx.docs.get(uri)?.languageId ?? '';
    if (id.startsWith('lean')) return 'lean';
    if (id.startsWith('isabelle')) return 'isabelle';
  }
  const flavor = ctx.flavor();
  return flavor === 'lean' || flavor === 'isabelle' ? flavor : undefined;
}

/**
 * Whose syntax a document is written in: the document's own language (`docLanguage`),
 * so that an insertion into a `.thy` file is Isabelle's (`simp add: name`, no Lean `]`)
 * whatever the server fronts; `generic` only when nothing says.
 */
export function syntaxFor(ctx: FeatureContext, uri: string | undefined): Flavor {
  return docLanguage(ctx, uri) ?? ctx.flavor();
}
