/**
 * Query augmentation (LeanSearch's recipe): the LLM rewrites a query into a
 * formal statement plus a precise informal restatement, answered as a small
 * JSON object. Anything else (prose, a refusal, a broken object, empty fields)
 * is "no augmentation": the caller searches offline.
 */
import type { ChatMessage, LlmClient } from './client.js';
import { LlmError } from './client.js';

export interface Augmentation {
  /** The query as a formal statement (Lean 4 / Mathlib, or Isabelle/HOL). */
  formal?: string;
  /** The query restated in precise English, with the library's vocabulary. */
  informal?: string;
}

/** Longest query text sent to the LLM. */
const MAX_QUERY_CHARS = 4000;
/** Longest rewrite kept (a runaway answer is not a query). */
const MAX_FIELD_CHARS = 1000;

export function augmentMessages(query: string, lang: 'lean' | 'isabelle' = 'lean'): ChatMessage[] {
  const system =
    lang === 'isabelle'
      ? 'You help search the Isabelle/HOL library and the Archive of Formal Proofs. Given a search query (English, LaTeX, a goal or a statement), answer with ONE JSON object and nothing else: {"formal": "<the statement in Isabelle/HOL syntax, e.g. rev (rev xs) = xs>", "informal": "<one precise English sentence stating it, using the library\'s usual terms>"}.'
      : 'You help search Lean 4 Mathlib. Given a search query (English, LaTeX, a goal or a statement), answer with ONE JSON object and nothing else: {"formal": "<the statement as a Lean 4 type in Mathlib notation, e.g. ∀ a b : ℤ, |a * b| = |a| * |b|>", "informal": "<one precise English sentence stating it, using Mathlib\'s usual terms>"}.';
  return [
    { role: 'system', content: system },
    { role: 'user', content: query.slice(0, MAX_QUERY_CHARS) },
  ];
}

/** The first balanced `{…}` in `text` (models like to wrap JSON in prose or fences). */
function firstObject(text: string): string | undefined {
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  return undefined;
}

const field = (v: unknown): string | undefined => {
  if (typeof v !== 'string') return undefined;
  const s = v.trim();
  return s && s.length <= MAX_FIELD_CHARS ? s : undefined;
};

/** The augmentation in a reply, or undefined when there is none worth using. */
export function parseAugmentation(reply: string): Augmentation | undefined {
  const obj = firstObject(reply);
  if (!obj) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(obj);
  } catch {
    return undefined;
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  const a: Augmentation = { formal: field(o.formal ?? o.lean ?? o.statement), informal: field(o.informal ?? o.english) };
  return a.formal || a.informal ? a : undefined;
}

/** Ask for the augmentation; throws LlmError (a reply without one is `malformed`). */
export async function augmentQuery(client: LlmClient, query: string, lang?: 'lean' | 'isabelle'): Promise<Augmentation> {
  const reply = await client.chat(augmentMessages(query, lang), { maxTokens: 300 });
  const a = parseAugmentation(reply);
  if (!a) throw new LlmError('malformed', `no {formal, informal} object in the reply (${JSON.stringify(reply.slice(0, 60))}…)`);
  return a;
}
