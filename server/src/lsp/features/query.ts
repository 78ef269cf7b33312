/**
 * The engine query at a position: the proof state there if the prover gives one
 * in time, else the enclosing declaration's text.
 */
import { declarationBefore } from '../text/context.js';
import { enclosingTheorem } from '../text/enclosing.js';
import type { Position } from '../goals/types.js';
import { MAX_QUERY_CHARS } from '../../engine/types.js';
import { langFor, syntaxFor, type FeatureContext } from './context.js';

export interface Query {
  text: string;
  source: 'goal' | 'declaration' | 'text';
  goalSource?: string;
  /** Where the query stands in its document (see `inScope`). */
  scope?: { exclude: string[]; hidden: string[]; nearby: string[] };
}

/**
 * Search options for the cursor's place: the theorem being proved is excluded,
 * what the document declares below it is hidden (not yet in scope), what it
 * declares above is nearby.
 */
export const inScope = (q: Query | undefined) => q?.scope ?? {};

export async function queryAt(ctx: FeatureContext, uri: string, pos: Position, timeoutMs: number): Promise<Query | undefined> {
  const doc = ctx.docs.get(uri);
  const state = await ctx.goals.goalAt(uri, pos, timeoutMs).catch(() => undefined);
  const lang = langFor(ctx, uri);
  const theorem = doc && lang ? enclosingTheorem(doc.getText(), doc.offsetAt(pos), lang) : undefined;
  const { after, before } = ctx.live.around(uri, pos.line);
  const named = { scope: { exclude: theorem ? [theorem] : [], hidden: after, nearby: before.filter((n) => n !== theorem) } };
  if (state && state.text.trim()) return { text: state.text.slice(0, MAX_QUERY_CHARS), source: 'goal', goalSource: state.source, ...named };
  if (!doc) return undefined;
  const decl = declarationBefore(doc.getText(), doc.offsetAt(pos), syntaxFor(ctx, uri));
  return decl ? { text: decl.slice(0, MAX_QUERY_CHARS), source: 'declaration', ...named } : undefined;
}
