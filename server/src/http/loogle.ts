/**
 * Loogle's JSON API (nomeata/loogle `server.py`), answered by the pattern search
 * (engine `search` with `pattern: true`), so that LeanSearchClient's `#loogle`
 * (`LEANSEARCHCLIENT_LOOGLE_API_URL=http://HOST:PORT/json`) and lean-lsp-mcp
 * (`LOOGLE_URL=http://HOST:PORT`) search the local index:
 *   GET /json?q=<query> → {header, heartbeats, count, hits: [{name, type, module, doc}]}
 *                         (at most 200 hits), or {error, heartbeats, suggestions?} for a
 *                         query that does not parse or names nothing the index has,
 *                         or {} for a missing or empty q.
 * As Loogle's server, the query is trimmed, a leading `#find ` dropped and
 * whitespace collapsed; errors are answered with status 200, as Loogle does.
 * `heartbeats` is always 0 (nothing is elaborated). Transport-free.
 */
import { QueryError } from '../engine/open.js';
import type { Mode, PremiseSearch } from '../engine/types.js';
import { oneLine, signatureOf } from './hit-fields.js';
import type { Lane, ApiResponse, RouteSet } from './routes.js';

/** Most hits one answer lists (Loogle's own bound). */
export const LOOGLE_MAX_HITS = 200;
/** Most characters of a query (Loogle queries are a line; this bounds what one request costs). */
export const LOOGLE_MAX_QUERY_CHARS = 2048;
/** Most suggestions for an unknown name. */
const MAX_SUGGESTIONS = 10;

export interface SearchApiOptions {
  rerank?: boolean;
  mode?: Mode;
}

const IDENT = /^[\p{L}_][\p{L}\p{N}_'!?₀-₉ₐ-ₜᵢ-ᵪ]*(?:\.[\p{L}_][\p{L}\p{N}_'!?₀-₉ₐ-ₜᵢ-ᵪ]*)*$/u;

/** The query as Loogle's server reads it: trimmed, without a leading `#find `, whitespace collapsed. */
export function normalizeLoogleQuery(q: string): string {
  return oneLine(q.trim().replace(/^#find\s+/, ''));
}

/** The top-level comma-separated parts (commas inside brackets or quotes do not separate). */
function topLevelParts(q: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let at = 0;
  let quoted = false;
  for (let i = 0; i < q.length; i++) {
    const c = q[i]!;
    if (c === '"') quoted = !quoted;
    else if (quoted) continue;
    else if ('([{⟨⦃'.includes(c)) depth++;
    else if (')]}⟩⦄'.includes(c)) depth--;
    else if (c === ',' && depth === 0) {
      out.push(q.slice(at, i).trim());
      at = i + 1;
    }
  }
  out.push(q.slice(at).trim());
  return out;
}

const ok = (body: unknown): ApiResponse => ({ status: 200, body });
const failure = (error: string, suggestions: string[] = []): ApiResponse => ok({ error, heartbeats: 0, ...(suggestions.length ? { suggestions } : {}) });

export class LoogleApi implements RouteSet {
  readonly routes: RouteSet['routes'] = {
    '/json': { GET: ({ query }) => this.json(query.get('q')) },
  };

  constructor(
    private readonly engine: PremiseSearch,
    private readonly opts: SearchApiOptions = {},
  ) {}

  /** Every Loogle query is a pattern search: it waits in the pattern lane. */
  lane(_method: string, path: string): Lane {
    return path === '/json' ? 'pattern' : 'normal';
  }

  async json(raw: string | null): Promise<ApiResponse> {
    if (raw === null) return ok({});
    const q = normalizeLoogleQuery(raw);
    if (!q) return ok({});
    if (q.length > LOOGLE_MAX_QUERY_CHARS) return failure(`the query has ${q.length} characters, more than the ${LOOGLE_MAX_QUERY_CHARS} allowed`);
    let hits;
    try {
      hits = await this.engine.search(q, { pattern: true, k: LOOGLE_MAX_HITS + 1, lang: 'lean', rerank: this.opts.rerank, mode: this.opts.mode });
    } catch (e) {
      if (e instanceof QueryError) return failure(e.message);
      throw e;
    }
    const matches = hits.filter((h) => h.parts.pattern === 1);
    if (!matches.length) {
      const unknown = this.unknownName(q);
      if (unknown) return unknown;
    }
    const more = matches.length > LOOGLE_MAX_HITS;
    const shown = matches.slice(0, LOOGLE_MAX_HITS);
    const header = more
      ? `Found more than ${LOOGLE_MAX_HITS} declarations matching ${q}; the first ${LOOGLE_MAX_HITS} are shown.`
      : `Found ${matches.length} declaration${matches.length === 1 ? '' : 's'} matching ${q}.`;
    return ok({
      header,
      heartbeats: 0,
      count: matches.length,
      hits: shown.map((h) => ({ name: h.name, type: signatureOf(h), module: h.module || null, doc: h.doc ?? null })),
    });
  }

  /**
   * A query with no match that names a constant the index does not have: Loogle's
   * "Unknown identifier" error, with the query written with each indexed name that
   * ends in it (`sqrt` → `Real.sqrt`, `NNReal.sqrt`) as suggestions.
   */
  private unknownName(q: string): ApiResponse | undefined {
    const parts = topLevelParts(q);
    const i = parts.findIndex((p) => IDENT.test(p) && !this.engine.lookup(p));
    if (i < 0) return undefined;
    const name = parts[i]!;
    const tail = `.${name}`;
    const found: string[] = [];
    for (const n of this.engine.indexedNames()) {
      if (n.endsWith(tail)) found.push(n);
    }
    found.sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
    const suggestions = found.slice(0, MAX_SUGGESTIONS).map((n) => parts.map((p, j) => (j === i ? n : p)).join(', '));
    return failure(`Unknown identifier '${name}'`, suggestions);
  }
}
