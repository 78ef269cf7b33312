/**
 * The engine query at a position: the proof state there if the prover gives one
 * in time, else the enclosing declaration's text.
 */
import { declarationBefore } from '../text/context.js';
import { enclosingTheorem } from '../text/enclosing.js';
import type { Position } from '../goals/types.js';
import { langFor, MAX_QUERY_CHARS, type FeatureContext } from './context.js';

export interface Query {
  text: string;
  source: 'goal' | 'declaration' | 'text';
  goalSource?: string;
  /** What searches exclude: the theorem being proved and what the document declares below it. */
  exclude?: string[];
}

/** Search options that keep the theorem being proved, and what is not yet in scope, out of the results. */
export const excluding = (q: Query | undefined) => (q?.exclude?.length ? { exclude: q.exclude } : {});

export async function queryAt(ctx: FeatureContext, uri: string, pos: Position, timeoutMs: number): Promise<Query | undefined> {
  const doc = ctx.docs.get(uri);
  const state = await ctx.goals.goalAt(uri, pos, timeoutMs).catch(() => undefined);
  const lang = langFor(ctx, uri);
  const theorem = doc && lang ? enclosingTheorem(doc.getText(), doc.offsetAt(pos), lang) : undefined;
  const exclude = [...(theorem ? [theorem] : []), ...ctx.live.declaredAfter(uri, pos.line)];
  const named = exclude.length ? { exclude } : {};
  if (state && state.text.trim()) return { text: state.text.slice(0, MAX_QUERY_CHARS), source: 'goal', goalSource: state.source, ...named };
  if (!doc) return undefined;
  const decl = declarationBefore(doc.getText(), doc.offsetAt(pos), ctx.flavor());
  return decl ? { text: decl.slice(0, MAX_QUERY_CHARS), source: 'declaration', ...named } : undefined;
}
