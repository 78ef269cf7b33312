/**
 * The HTTP API's one route table: every contract the server answers (LeanHammer's
 * selector, Loogle's JSON API, LeanSearch, LeanStateSearch) is a set of routes,
 * and one table dispatches a request to the route of its path and method, on one
 * port. Transport-free: server.ts puts it on node:http.
 */

import { QueryError } from '../engine/open.js';

export interface ApiResponse {
  status: number;
  body: unknown;
  /** Extra response headers (e.g. `retry-after`; `content-type` with `text`). */
  headers?: Record<string, string>;
  /** A body sent as it is (the search page's HTML, page.ts), instead of `body` as JSON. */
  text?: string;
}

/** A request as a route sees it: its query parameters and its body (POST only; '' otherwise). */
export interface ApiRequest {
  query: URLSearchParams;
  body: string;
}

export type Handler = (req: ApiRequest) => Promise<ApiResponse> | ApiResponse;

/** What the transport calls: a method, the request target (path and query) and the body. */
export interface HttpApi {
  handle(method: string, url: string, body: string): Promise<ApiResponse>;
  /** Which queue a request waits in (server.ts): pattern searches have a lane of their own, provers go first. */
  lane?(method: string, url: string, body: string): Lane;
}

/**
 * How a request waits (server.ts): pattern searches in a lane of their own, so they never
 * hold the other requests' places; a prover's request (LeanHammer's `/retrieve`, which a
 * tactic waits on under a timeout) ahead of the search clients' in the one queue; the rest
 * in arrival order.
 */
export type Lane = 'pattern' | 'prover' | 'normal';

/** One contract's routes: path (no trailing slash) → method → handler. */
export interface RouteSet {
  readonly routes: Readonly<Record<string, Partial<Record<'GET' | 'POST', Handler>>>>;
  /** A request of this contract that is a pattern search (default: none is). */
  lane?(method: string, path: string, body: string): Lane;
}

export const jsonError = (status: number, message: string): ApiResponse => ({ status, body: { error: message } });

/** The path of a request target without its query and trailing slashes ('/' stays '/'). */
function pathOf(url: string): string {
  const path = url.split('?')[0] ?? '';
  return path.replace(/\/+$/, '') || '/';
}

function queryOf(url: string): URLSearchParams {
  const at = url.indexOf('?');
  try {
    return new URLSearchParams(at >= 0 ? url.slice(at + 1) : '');
  } catch {
    return new URLSearchParams();
  }
}

export class RouteTable implements HttpApi {
  private readonly table = new Map<string, Partial<Record<string, Handler>>>();

  constructor(private readonly sets: readonly RouteSet[]) {
    for (const set of sets) {
      for (const [path, methods] of Object.entries(set.routes)) {
        if (this.table.has(path)) throw new Error(`two contracts claim the route ${path}`);
        this.table.set(path, methods);
      }
    }
  }

  /** The routes, sorted (the 404 answer lists them). */
  paths(): string[] {
    return [...this.table.keys()].sort();
  }

  lane(method: string, url: string, body: string): Lane {
    const path = pathOf(url);
    const lanes = this.sets.map((set) => set.lane?.(method, path, body));
    return lanes.includes('pattern') ? 'pattern' : lanes.includes('prover') ? 'prover' : 'normal';
  }

  async handle(method: string, url: string, body: string): Promise<ApiResponse> {
    const path = pathOf(url);
    const methods = this.table.get(path);
    if (!methods) return jsonError(404, `no route ${JSON.stringify(path)}: ${this.paths().join(', ')}`);
    const handler = Object.hasOwn(methods, method) ? methods[method] : undefined;
    if (!handler) return jsonError(405, `${path} takes ${Object.keys(methods).join(' or ')}`);
    try {
      return await handler({ query: queryOf(url), body });
    } catch (e) {
      // a query the engine refuses (a pattern that does not parse, too many scope entries): the caller's mistake
      if (e instanceof QueryError) return jsonError(400, e.message);
      throw e;
    }
  }
}
