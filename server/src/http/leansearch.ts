/**
 * LeanSearch's API (frenzymath/LeanSearch; LeanSearchClient's `#leansearch`,
 * `LEANSEARCHCLIENT_LEANSEARCH_API_URL=http://HOST:PORT/search`), answered by the
 * engine's search (English, a Lean statement or a proof state):
 *   POST /search {query: [str] | str, num_results?: n | "n"} →
 *     [[{result: {name: [components], module_name: [components], kind, type, signature,
 *                 docstring, informal_name, informal_description}, distance}] per query]
 * `num_results` (default 6, LeanSearchClient's; more than 50 answered with 50) may be a string of digits
 * (lean-lsp-mcp sends it so). `type` is the statement as Loogle prints it (binders and
 * conclusion, hit-fields.ts), `signature` the declaration's header as written,
 * `informal_name` the name read as words, `informal_description` the premise's
 * informal statement, else its docstring, else its statement in words; `distance`
 * is 0 for the best hit and grows down the list (1 − score / best score). A bad
 * body is a 400 `{error}`. Transport-free.
 */
import { nameWords } from '../../../indexes/src/informal/naming.js';
import { renderStatement } from '../../../indexes/src/informal/render.js';
import { MAX_QUERY_CHARS, type PremiseSearch, type SearchHit } from '../engine/types.js';
import { nameComponents, oneLine, signatureOf } from './hit-fields.js';
import type { SearchApiOptions } from './loogle.js';
import { jsonError, type ApiResponse, type RouteSet } from './routes.js';

/** Most results per query (LeanSearch's own bound): a larger `num_results` gets this many. */
export const LEANSEARCH_MAX_RESULTS = 50;
export const LEANSEARCH_DEFAULT_RESULTS = 6;
/** Most queries in one request. */
export const LEANSEARCH_MAX_QUERIES = 16;

class BadRequest extends Error {}

function numResults(v: unknown): number {
  if (v === undefined || v === null) return LEANSEARCH_DEFAULT_RESULTS;
  const n = typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
  if (!Number.isInteger(n) || (n as number) < 1) {
    throw new BadRequest(`num_results must be a positive integer (a number or a string of digits; at most ${LEANSEARCH_MAX_RESULTS} are answered), got ${JSON.stringify(v)}`);
  }
  // more than the bound is answered with the bound, never refused (issue 35)
  return Math.min(n as number, LEANSEARCH_MAX_RESULTS);
}

function queries(v: unknown): string[] {
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list) || !list.length || !list.every((q) => typeof q === 'string' && q.trim().length > 0)) {
    throw new BadRequest('query must be a non-empty list of non-empty strings (or one string)');
  }
  if (list.length > LEANSEARCH_MAX_QUERIES) throw new BadRequest(`query has ${list.length} entries, more than the ${LEANSEARCH_MAX_QUERIES} allowed`);
  const long = list.findIndex((q: string) => q.length > MAX_QUERY_CHARS);
  if (long >= 0) throw new BadRequest(`query[${long}] has ${list[long].length} characters, more than the ${MAX_QUERY_CHARS} allowed`);
  return list as string[];
}

export function leanSearchResult(h: SearchHit, best: number): { result: Record<string, unknown>; distance: number } {
  const docstring = h.doc ?? null;
  const described = h.informal ?? h.doc ?? renderStatement(h.goal);
  return {
    result: {
      name: nameComponents(h.name),
      module_name: nameComponents(h.module),
      kind: h.kind,
      type: signatureOf(h),
      signature: oneLine(h.statement),
      docstring,
      informal_name: nameWords(h.name) || h.name,
      informal_description: oneLine(described),
    },
    distance: best > 0 ? Math.max(0, Math.round((1 - h.score / best) * 1e4) / 1e4) : h.rank - 1,
  };
}

export class LeanSearchApi implements RouteSet {
  readonly routes: RouteSet['routes'] = {
    '/search': { POST: ({ body }) => this.search(body) },
  };

  constructor(
    private readonly engine: PremiseSearch,
    private readonly opts: SearchApiOptions = {},
  ) {}

  async search(raw: string): Promise<ApiResponse> {
    let qs: string[];
    let k: number;
    try {
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch (e) {
        throw new BadRequest(`the body is not JSON (${(e as Error).message})`);
      }
      if (!body || typeof body !== 'object' || Array.isArray(body)) throw new BadRequest('the body must be a JSON object {query: [str], num_results}');
      const b = body as Record<string, unknown>;
      qs = queries(b.query);
      k = numResults(b.num_results);
    } catch (e) {
      if (e instanceof BadRequest) return jsonError(400, e.message);
      throw e;
    }
    const lists = await this.engine.searchBatch(qs, { k, lang: 'lean', rerank: this.opts.rerank, mode: this.opts.mode });
    return { status: 200, body: lists.map((hits) => hits.map((h) => leanSearchResult(h, hits[0]?.score ?? 0))) };
  }
}
