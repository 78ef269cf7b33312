/**
 * The HTTP API's one route table: every contract the server answers (LeanHammer's
 * selector, Loogle's JSON API, LeanSearch, LeanStateSearch) is a set of routes,
 * and one table dispatches a request to the route of its path and method, on one
 * port. Transport-free: server.ts puts it on node:http.
 */

export interface ApiResponse {
  status: number;
  body: unknown;
  /** Extra response headers (e.g. `retry-after`). */
  headers?: Record<string, string>;
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
}

/** One contract's routes: path (no trailing slash) → method → handler. */
export interface RouteSet {
  readonly routes: Readonly<Record<string, Partial<Record<'GET' | 'POST', Handler>>>>;
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

  constructor(sets: readonly RouteSet[]) {
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

  async handle(method: string, url: string, body: string): Promise<ApiResponse> {
    const path = pathOf(url);
    const methods = this.table.get(path);
    if (!methods) return jsonError(404, `no route ${JSON.stringify(path)}: ${this.paths().join(', ')}`);
    const handler = Object.hasOwn(methods, method) ? methods[method] : undefined;
    if (!handler) return jsonError(405, `${path} takes ${Object.keys(methods).join(' or ')}`);
    return handler({ query: queryOf(url), body });
  }
}
