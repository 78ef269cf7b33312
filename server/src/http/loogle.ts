/**
 * Loogle's JSON API (nomeata/loogle `server.py`), answered by the pattern search
 * (engine `search` with `pattern: true`), so that LeanSearchClient's `#loogle`
 * (`LEANSEARCHCLIENT_LOOGLE_API_URL=http://HOST:PORT/json`) and lean-lsp-mcp
 * (`LOOGLE_URL=http://HOST:PORT`) search the local index:
 *   GET /json?q=<query> → {header, heartbeats, count, hits: [{name, type, module, doc}]}
 *                         (`count` all the matches, `hits` at most 200 of them), or
 *                         {error, heartbeats, suggestions?} for a query that does not
 *                         parse or names a constant the index does not have
 *                         (`unknown identifier 'x'`, the quoted `"x"` first among the
 *                         suggestions, then the constants whose name ends in `.x`, as
 *                         Loogle answers), or {} for a missing or empty q.
 * As Loogle's server, the query is trimmed, a leading `#find ` dropped and
 * whitespace collapsed; errors are answered with status 200, as Loogle does. An
 * answer cut short by the pattern search's time budget says so in its `header` and
 * in the X-Premise-Partial header. `heartbeats` is always 0 (nothing is elaborated).
 * Transport-free.
 */
import { QueryError } from '../engine/open.js';
import type { Mode, PremiseSearch } from '../engine/types.js';
import { oneLine, signatureOf } from './hit-fields.js';
import { PARTIAL_HEADER } from './leanhammer.js';
import type { Lane, ApiResponse, RouteSet } from './routes.js';

/** Most hits one answer lists (Loogle's own bound). */
export const LOOGLE_MAX_HITS = 200;
/** Most characters of a query (Loogle queries are a line; this bounds what one request costs). */
export const LOOGLE_MAX_QUERY_CHARS = 2048;
/** Most qualified names suggested for an unknown name (after its quoted form). */
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
    // as Loogle: a bare name must be a constant (`rev` is not: Loogle's error, not the premises that write `rev`)
    const unknown = this.unknownName(topLevelParts(q));
    if (unknown) return unknown;
    let partial: string | undefined;
    let count: number | undefined;
    let hits;
    try {
      hits = await this.engine.search(q, {
        pattern: true,
        k: LOOGLE_MAX_HITS,
        lang: 'lean',
        rerank: this.opts.rerank,
        mode: this.opts.mode,
        onPartial: (why) => (partial = why),
        onMatchCount: (n) => (count = n),
      });
    } catch (e) {
      if (e instanceof QueryError) return failure(e.message);
      throw e;
    }
    const shown = hits.filter((h) => h.parts.pattern === 1);
    const total = Math.max(count ?? 0, shown.length);
    const found = `${total} declaration${total === 1 ? '' : 's'} matching ${q}`;
    const lines = [partial ? `Found ${found} before the search's time budget ran out (a partial answer: there may be more).` : `Found ${found}.`];
    if (total > shown.length) lines.push(`Of these, only the first ${shown.length} are shown.`);
    return {
      status: 200,
      body: {
        header: lines.join('\n'),
        heartbeats: 0,
        count: total,
        hits: shown.map((h) => ({ name: h.name, type: signatureOf(h), module: h.module || null, doc: h.doc ?? null })),
      },
      ...(partial ? { headers: { [PARTIAL_HEADER]: partial } } : {}),
    };
  }

  /** Whether a name is a constant: an indexed premise, or one the statements write in full (declared outside the index). */
  private isConstant(name: string): boolean {
    return !!this.engine.lookup(name) || !!this.engine.isConstant?.(name);
  }

  /**
   * The first part that is a bare name but not a constant: Loogle's error
   * `unknown identifier 'x'`, its suggestions the query with the name quoted (`"x"`, a
   * name-fragment search) first, then with each constant whose name ends in `.x`
   * (`sqrt` → `NNReal.sqrt`, `Real.sqrt`; shortest first).
   */
  private unknownName(parts: string[]): ApiResponse | undefined {
    const i = parts.findIndex((p) => IDENT.test(p) && !this.isConstant(p));
    if (i < 0) return undefined;
    const name = parts[i]!;
    const tail = `.${name}`;
    const found: string[] = [];
    for (const n of this.engine.indexedNames()) {
      if (n.endsWith(tail)) found.push(n);
    }
    found.sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
    const written = (x: string) => parts.map((p, j) => (j === i ? x : p)).join(', ');
    const suggestions = [written(`"${name}"`), ...found.slice(0, MAX_SUGGESTIONS).map(written)];
    return failure(`unknown identifier '${name}'`, suggestions);
  }
}
