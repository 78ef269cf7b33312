/**
 * Index-time informalization: for each of the sources' own declarations, the LLM
 * writes a one-or-two-sentence informal statement, stored as the record's
 * `informal` field (part of the premise's English side). Answers are cached on
 * disk by content hash, so a second or interrupted run asks only for what is
 * missing; requests go a few at a time under the client's rate limit. Failures
 * leave the declaration without one (the offline informal side still exists).
 */
import type { PremiseRecord } from '../../../indexes/src/extract/record.js';
import { contentKey, InformalCache } from './cache.js';
import type { ChatMessage, LlmClient } from './client.js';

/** Bump when the prompt changes, so cached answers to the old one are not reused. */
const PROMPT_VERSION = 'informal-v1';
const MAX_CHARS = 600;
/** Consecutive failures after which the endpoint is taken to be down (the rest is not asked). */
export const GIVE_UP_AFTER = 10;

export interface InformalizeOptions {
  /** Most declarations to informalize (default: all given). */
  max?: number;
  /** Requests in flight at once (default 4; the client's rate limit still applies). */
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
}

export interface InformalizeSummary {
  /** Declarations that got an informal statement. */
  written: number;
  /** …of which came from the cache. */
  cached: number;
  failed: number;
  /** Set when the endpoint failed GIVE_UP_AFTER times in a row and the rest was not asked. */
  gaveUp?: boolean;
  /** The first failure, for the summary line. */
  firstError?: string;
}

export function informalMessages(r: Pick<PremiseRecord, 'name' | 'statement' | 'doc' | 'lang'>): ChatMessage[] {
  const system =
    `You explain ${r.lang === 'isabelle' ? 'Isabelle/HOL' : 'Lean 4 (Mathlib)'} declarations to mathematicians. ` +
    'Given a declaration, answer with one or two plain English sentences that state what it says or defines, ' +
    'using the usual mathematical words (no code, no notation lists, no preamble).';
  const user = `${r.statement.slice(0, 3000)}${r.doc ? `\n\nDocstring: ${r.doc.slice(0, 1000)}` : ''}`;
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

/** One answer cleaned up: fences and labels dropped, whitespace folded, cut at a sentence near MAX_CHARS. */
export function cleanInformal(reply: string): string | undefined {
  let s = reply.replace(/```[a-z]*\n?/gi, '').replace(/^\s*(informal( statement)?|answer)\s*:\s*/i, '').replace(/\s+/g, ' ').trim();
  if (s.length > MAX_CHARS) {
    const cut = s.lastIndexOf('. ', MAX_CHARS);
    s = cut > 40 ? s.slice(0, cut + 1) : s.slice(0, MAX_CHARS);
  }
  return s.length >= 3 ? s : undefined;
}

/** The cache key: what the answer depends on, the endpoint (servers with one model answer any name, `default` included), the model and the very prompt. */
export function informalKey(client: Pick<LlmClient, 'endpoint' | 'model'>, r: Pick<PremiseRecord, 'name' | 'statement' | 'doc' | 'lang'>): string {
  return contentKey([PROMPT_VERSION, client.endpoint, client.model, r.name, JSON.stringify(informalMessages(r))]);
}

/** Sets `informal` on (up to `max` of) `records`, in place. */
export async function informalize(records: PremiseRecord[], client: LlmClient, cache: InformalCache, opts: InformalizeOptions = {}): Promise<InformalizeSummary> {
  const todo = records.slice(0, opts.max ?? records.length);
  const summary: InformalizeSummary = { written: 0, cached: 0, failed: 0 };
  let done = 0;
  const step = () => opts.onProgress?.(++done, todo.length);
  opts.onProgress?.(0, todo.length);
  const missing: { r: PremiseRecord; key: string }[] = [];
  for (const r of todo) {
    const key = informalKey(client, r);
    const hit = cache.get(key);
    if (hit === undefined) missing.push({ r, key });
    else {
      r.informal = hit;
      summary.written++;
      summary.cached++;
      step();
    }
  }
  let next = 0;
  let failingInARow = 0;
  const worker = async () => {
    while (next < missing.length) {
      if (failingInARow >= GIVE_UP_AFTER) {
        summary.gaveUp = true;
        summary.failed += missing.length - next;
        done += missing.length - next; // the bar ends full, as after any other phase
        next = missing.length;
        break;
      }
      const { r, key } = missing[next++]!;
      try {
        const text = cleanInformal(await client.chat(informalMessages(r), { maxTokens: 160 }));
        if (!text) throw new Error('an empty answer');
        cache.set(key, text);
        r.informal = text;
        summary.written++;
        failingInARow = 0;
      } catch (e) {
        failingInARow++;
        summary.failed++;
        summary.firstError ??= `${r.name}: ${(e as Error).message}`;
      }
      step();
    }
    opts.onProgress?.(done, todo.length);
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.concurrency ?? 4) }, worker));
  return summary;
}
