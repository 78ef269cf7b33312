/**
 * LeanStateSearch's API (timechess/LeanStateSearch `app/api/search/route.ts`;
 * LeanSearchClient's `#statesearch`, `LEANSEARCHCLIENT_LEANSTATESEARCH_API_URL=http://HOST:PORT/api/search`,
 * lean-lsp-mcp's `LEAN_STATE_SEARCH_URL=http://HOST:PORT`), answered by the
 * engine's search of a proof state:
 *   GET /api/search?query=<goal as Lean prints it>&results=n&rev=<v4.x.y> →
 *     [{name, formal_type, module, rev}]
 * and its errors, 400 `{error, schema: {description}}`: a missing parameter, a
 * `query` with no `⊢`, `results` not a number (or below 1; above 100 is answered with 100). Any `rev` is
 * taken (the index is one version) and echoed back. `formal_type` is the
 * statement as Loogle prints it (hit-fields.ts). Transport-free.
 */
import { withNotation } from '../engine/open.js';
import { MAX_QUERY_CHARS, type PremiseSearch } from '../engine/types.js';
import { signatureOf } from './hit-fields.js';
import type { SearchApiOptions } from './loogle.js';
import type { ApiResponse, RouteSet } from './routes.js';

/** Most results one answer holds: a larger `results` gets this many. */
export const STATESEARCH_MAX_RESULTS = 100;

const invalid = (description: string, error = 'Invalid parameter value'): ApiResponse => ({ status: 400, body: { error, schema: { description } } });

const MISSING: ApiResponse = {
  status: 400,
  body: {
    error: 'Missing required parameters',
    schema: {
      description: 'The following parameters are required:',
      parameters: {
        query: { type: 'string', description: 'The search query string' },
        results: { type: 'number', description: 'The number of results to return' },
        rev: { type: 'string', description: 'The revision of the theorem database to use' },
      },
    },
  },
};

export class StateSearchApi implements RouteSet {
  readonly routes: RouteSet['routes'] = {
    '/api/search': { GET: ({ query }) => this.search(query.get('query'), query.get('results'), query.get('rev')) },
  };

  constructor(
    private readonly engine: PremiseSearch,
    private readonly opts: SearchApiOptions = {},
  ) {}

  async search(query: string | null, results: string | null, rev: string | null): Promise<ApiResponse> {
    if (!query || !results || !rev) return MISSING;
    if (!query.includes('⊢')) return invalid("The 'query' parameter must be a valid Lean proof state");
    if (query.length > MAX_QUERY_CHARS) return invalid(`The 'query' parameter has ${query.length} characters, more than the ${MAX_QUERY_CHARS} allowed`);
    const n = Number.parseInt(results, 10);
    if (Number.isNaN(n)) return invalid("The 'results' parameter must be a valid number");
    if (n < 1) return invalid(`The 'results' parameter must be a positive number (at most ${STATESEARCH_MAX_RESULTS} are answered)`);
    // more than the bound is answered with the bound, never refused (issue 35)
    const hits = await this.engine.search(withNotation(query), { k: Math.min(n, STATESEARCH_MAX_RESULTS), lang: 'lean', rerank: this.opts.rerank, mode: this.opts.mode });
    return { status: 200, body: hits.map((h) => ({ name: h.name, formal_type: signatureOf(h), module: h.module, rev })) };
  }
}
