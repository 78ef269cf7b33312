/**
 * JSON-RPC 2.0 message shapes and helpers shared by the upstream link and the
 * LSP router. Plain data only: no transport, no LSP semantics (vscode-languageserver
 * belongs to server/src/lsp alone; test/unit/import-graph.test.ts keeps it there).
 */

export type Id = number | string;
/** A request id as sent on the wire (`null` only in error replies to unreadable input). */
export type WireId = Id | null;

export interface RequestMessage {
  jsonrpc: '2.0';
  id: Id;
  method: string;
  params?: unknown;
}
export interface NotificationMessage {
  jsonrpc: '2.0';
  method: string;
  params?: unknown;
}
export interface ResponseError {
  code: number;
  message: string;
  data?: unknown;
}
export interface ResponseMessage {
  jsonrpc: '2.0';
  id: WireId;
  result?: unknown;
  error?: ResponseError;
}
export type Message = RequestMessage | NotificationMessage | ResponseMessage;

export const ErrorCodes = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ServerNotInitialized: -32002,
  RequestFailed: -32803,
  ServerCancelled: -32802,
  ContentModified: -32801,
  RequestCancelled: -32800,
} as const;

/** A message with a typed classification, plus the exact bytes it arrived as. */
export type Incoming =
  | { kind: 'request'; msg: RequestMessage; raw: Buffer }
  | { kind: 'notification'; msg: NotificationMessage; raw: Buffer }
  | { kind: 'response'; msg: ResponseMessage; raw: Buffer }
  | { kind: 'invalid'; id: WireId; reason: string };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
function isId(v: unknown): v is Id {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}

/**
 * Classify one parsed JSON value. `raw` is its exact wire body. `requireVersion`:
 * a message without `"jsonrpc": "2.0"` is invalid (Lean's server cannot read one).
 */
export function classify(value: unknown, raw: Buffer, opts: { requireVersion?: boolean } = {}): Incoming {
  if (!isObject(value)) return { kind: 'invalid', id: null, reason: 'message is not a JSON object' };
  const hasId = 'id' in value;
  const id = value.id;
  if (hasId && !isId(id) && id !== null) return { kind: 'invalid', id: null, reason: 'id must be a string or a number' };
  if (opts.requireVersion && value.jsonrpc !== '2.0') {
    return { kind: 'invalid', id: hasId ? (id as WireId) : null, reason: `jsonrpc must be "2.0", got ${JSON.stringify(value.jsonrpc) ?? 'none'}` };
  }
  if ('method' in value) {
    if (typeof value.method !== 'string') return { kind: 'invalid', id: hasId ? (id as WireId) : null, reason: 'method must be a string' };
    if (hasId) {
      if (id === null) return { kind: 'invalid', id: null, reason: 'request id must not be null' };
      return { kind: 'request', msg: value as unknown as RequestMessage, raw };
    }
    return { kind: 'notification', msg: value as unknown as NotificationMessage, raw };
  }
  if (hasId && ('result' in value || 'error' in value)) {
    return { kind: 'response', msg: value as unknown as ResponseMessage, raw };
  }
  return { kind: 'invalid', id: hasId ? (id as WireId) : null, reason: 'message has no method (and is not a response)' };
}

/** Map key that keeps `1` and `"1"` apart. */
export function idKey(id: WireId): string {
  return typeof id === 'number' ? `n:${id}` : typeof id === 'string' ? `s:${id}` : 'null';
}

export function request(id: Id, method: string, params?: unknown): RequestMessage {
  return params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
}
export function notification(method: string, params?: unknown): NotificationMessage {
  return params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
}
export function success(id: WireId, result: unknown): ResponseMessage {
  return { jsonrpc: '2.0', id, result: result === undefined ? null : result };
}
export function failure(id: WireId, code: number, message: string, data?: unknown): ResponseMessage {
  const error: ResponseError = data === undefined ? { code, message } : { code, message, data };
  return { jsonrpc: '2.0', id, error };
}

/** Error thrown by handlers to become a JSON-RPC error reply. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}
