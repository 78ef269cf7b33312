/**
 * The engine query at a position: the proof state there if the prover gives one
 * in time, else the enclosing declaration's text.
 */
import { declarationBefore } from '../text/context.js';
import type { Position } from '../goals/types.js';
import { MAX_QUERY_CHARS, type FeatureContext } from './context.js';

export interface Query {
  text: string;
  source: 'goal' | 'declaration' | 'text';
  goalSource?: string;
}

export async function queryAt(ctx: FeatureContext, uri: string, pos: Position, timeoutMs: number): Promise<Query | undefined> {
  const doc = ctx.docs.get(uri);
  const state = await ctx.goals.goalAt(uri, pos, timeoutMs).catch(() => undefined);
  if (state && state.text.trim()) return { text: state.text.slice(0, MAX_QUERY_CHARS), source: 'goal', goalSource: state.source };
  if (!doc) return undefined;
  const decl = declarationBefore(doc.getText(), doc.offsetAt(pos), ctx.flavor());
  return decl ? { text: decl.slice(0, MAX_QUERY_CHARS), source: 'declaration' } : undefined;
}
