/**
 * The MCP server's four tools, transport-free: each takes `{query, k?}`, asks
 * the engine through its public surface (types.ts, open.ts) and returns a JSON
 * value, or throws a `ToolError` whose message is the reason shown to the agent
 * (mcp/server.ts turns it into a result with `isError: true`). Nothing here
 * writes anywhere: stdout is the MCP channel.
 */
import { PatternError } from '../engine/open.js';
import { MAX_QUERY_CHARS, type PremiseInfo, type PremiseSearch, type SearchHit, type SearchOptions } from '../engine/types.js';

/** A refusal the agent should read (bad input, nothing found, no index). */
export class ToolError extends Error {}

export const TOOL_NAMES = ['premises', 'search', 'pattern', 'declaration'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export const DEFAULT_K = 10;
export const MAX_K = 200;
/** How many names a `declaration` miss suggests unless `k` says otherwise. */
const SUGGESTIONS = 5;
/** A docstring in a result list is cut here (`declaration` gives it whole). */
const DOC_CHARS = 400;

export const TOOL_DESCRIPTIONS: Record<ToolName, string> = {
  premises:
    'Ranked premises (lemmas, definitions) that help prove a goal. query: a Lean proof state as the infoview prints it ' +
    '("a b : ℕ\\n⊢ a + b = b + a"), a bare goal ("⊢ a + b = b + a" or "a + b = b + a"), a Lean statement or an Isabelle goal. ' +
    'Returns each premise with its statement, module and source location. k: how many (default 10, at most 200).',
  search:
    'Premises for an English question or any text ("square root of a product", "triangle inequality for abs"), ' +
    'ranked by names, statements and docstrings. k: how many (default 10, at most 200).',
  pattern:
    "Premises whose statement matches a Loogle-style pattern: constants (Real.sqrt), \"name fragments\" in quotes, " +
    'terms with _ and ?a holes (Real.sqrt ?a * Real.sqrt ?a), ⊢ for the conclusion (⊢ tsum _ = _ * tsum _), ' +
    'parts combined with commas. A pattern that does not parse is an error saying why. k: how many (default 10, at most 200).',
  declaration:
    'One declaration by its full name (Nat.add_comm): its statement, kind, module, docstring and source location. ' +
    'An unknown name is an error listing the nearest names (k of them, default 5).',
};

/**
 * What the tools search, once it is open: the engine and whether to rerank (unset:
 * the engine's default). It throws a ToolError when there is none (the index could not be opened).
 */
export type EngineSource = () => Promise<{ engine: PremiseSearch; rerank?: boolean }>;

/** A premise as the tools show it: `line` is 1-based; `path` is the absolute source path when found. */
function premiseOut(p: PremiseInfo, path: string | undefined, docChars = DOC_CHARS) {
  const doc = p.doc && p.doc.length > docChars ? `${p.doc.slice(0, docChars - 1)}…` : p.doc;
  return {
    name: p.name,
    kind: p.kind,
    statement: p.statement,
    module: p.module,
    file: p.file,
    line: p.range.start.line + 1,
    ...(path ? { path } : {}),
    ...(doc ? { doc } : {}),
    ...(p.deprecated ? { deprecated: true } : {}),
  };
}

function hitOut(engine: PremiseSearch, h: SearchHit) {
  return { rank: h.rank, ...premiseOut(h, engine.sourcePath(h)), score: Math.round(h.score * 1000) / 1000 };
}

/** The query text, checked: a string with something in it, cut where the engine would cut it. */
function queryText(query: unknown): string {
  if (typeof query !== 'string') throw new ToolError('query must be a string');
  if (!query.trim()) throw new ToolError('the query is empty');
  return query.length > MAX_QUERY_CHARS ? query.slice(0, MAX_QUERY_CHARS) : query;
}

function kOf(k: unknown, fallback: number): number {
  if (k === undefined || k === null) return fallback;
  if (typeof k !== 'number' || !Number.isInteger(k) || k < 1 || k > MAX_K) throw new ToolError(`k must be a whole number from 1 to ${MAX_K}, got ${JSON.stringify(k)}`);
  return k;
}

/**
 * A Lean goal written bare, on one line and without `⊢` ("a + b = b + a"), is read
 * as the goal of a proof state; anything else (a state, a statement, an Isabelle goal,
 * words) is searched as it is.
 */
export function asGoal(text: string): string {
  const t = text.trim();
  if (t.includes('⊢') || t.includes('\n')) return text;
  if (/^(@\[|theorem|lemma|example|def|abbrev|goal|private|protected)\b/.test(t) || /\\<|⟹|::|^"/.test(t)) return text;
  return /[=≤≥<>≠∈∉⊆⊂↔→∣∀∃¬∧∨]/.test(t) ? `⊢ ${t}` : text;
}

export class PremiseTools {
  constructor(private readonly open: EngineSource) {}

  /** Runs one tool; the value is JSON for the agent. Throws ToolError for what the agent should read. */
  async run(tool: ToolName, args: { query?: unknown; k?: unknown }): Promise<unknown> {
    const text = queryText(args.query);
    const { engine, rerank } = await this.open();
    const opts = rerank === undefined ? {} : { rerank };
    switch (tool) {
      case 'premises':
        return this.searched(engine, asGoal(text), { ...opts, k: kOf(args.k, DEFAULT_K), pattern: false });
      case 'search':
        return this.searched(engine, text, { ...opts, k: kOf(args.k, DEFAULT_K), pattern: false });
      case 'pattern':
        return this.searched(engine, text, { ...opts, k: kOf(args.k, DEFAULT_K), pattern: true }, 'no premise matches the pattern', true);
      case 'declaration':
        return this.declaration(engine, text.trim(), kOf(args.k, SUGGESTIONS));
    }
  }

  /** `matchesOnly`: a pattern search keeps only the premises that match (the engine ranks them first, then the rest). */
  private async searched(engine: PremiseSearch, text: string, opts: SearchOptions, none = 'no premises found', matchesOnly = false) {
    let hits: SearchHit[];
    try {
      hits = await engine.search(text, opts);
      if (matchesOnly) hits = hits.filter((h) => h.parts.pattern === 1);
    } catch (e) {
      if (e instanceof PatternError) throw new ToolError(`the pattern does not parse: ${e.message}`);
      throw e;
    }
    return hits.length ? { results: hits.map((h) => hitOut(engine, h)) } : { results: [], note: none };
  }

  private async declaration(engine: PremiseSearch, name: string, k: number) {
    const bare = name.replace(/^_root_\./, '').replace(/^@/, '');
    const found = engine.lookup(bare);
    if (found) return { ...premiseOut(found, engine.sourcePath(found), Infinity), uses: found.uses };
    throw new ToolError(`no declaration named ${JSON.stringify(bare)} in the index${await this.nearest(engine, bare, k)}`);
  }

  /**
   * The names nearest an unknown one, as a sentence's tail: the name with its last words
   * dropped, where that is a declaration; those that end with its last component
   * (`sqrt_mul` → `Real.sqrt_mul`, `NNReal.sqrt_mul`); then those the name, read as a query, finds.
   */
  private async nearest(engine: PremiseSearch, name: string, k: number): Promise<string> {
    const last = name.slice(name.lastIndexOf('.') + 1);
    const pool = Math.max(4 * k, 20);
    const found = async (q: string) => (q ? (await engine.search(q, { k: pool, pattern: false }).catch(() => [])).map((h) => h.name) : []);
    const names = [...new Set([...(await found(name)), ...(last !== name ? await found(last) : [])])];
    const same = (n: string) => n === last || n.endsWith(`.${last}`);
    // the name with its last words dropped, where that is a declaration (`Real.sqrt_mul_nope` → `Real.sqrt_mul`)
    const words = last.split('_');
    const shorter = words
      .slice(1)
      .map((_, i) => name.slice(0, name.length - last.length) + words.slice(0, words.length - 1 - i).join('_'))
      .filter((n) => engine.lookup(n));
    const near = [...new Set([...shorter, ...names.filter(same), ...names.filter((n) => !same(n))])].slice(0, k);
    return near.length ? `; the nearest names: ${near.join(', ')}` : '';
  }
}
