/**
 * The MCP server's stdio transport: one JSON-RPC message a line on stdin, replies on
 * stdout (the SDK's `StdioServerTransport` does the same, but answers nothing to a
 * line it cannot read and closes itself for good on a line over its 10 MiB buffer).
 * Here every line that is not a message gets a JSON-RPC error reply, and the server
 * goes on reading:
 *   - a line that is not JSON: −32700 (Parse error), `id` null;
 *   - JSON that is not a JSON-RPC message: −32600 (Invalid Request);
 *   - a line over MAX_MESSAGE_BYTES: −32600 saying so, its `id` when the start or the
 *     end of the line shows it (the rest is discarded unread, never held);
 *   - `tools/call` whose `params.name` is not a string, or whose `params.arguments` is
 *     not an object: −32602 (Invalid params), one line saying which (the SDK would
 *     answer −32603 with its validation's JSON).
 * Invariant: no line on stdin ends the server; only the end of stdin does
 * (test/cli/mcp.test.ts, "answers every line it cannot take").
 *
 * The SDK is not imported here (the CLI's bundle must not load it for other
 * commands): the message check comes in as `isMessage`.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Longest message line taken (the SDK's own limit); a longer one is answered with an error and discarded. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
/** How much of the start and of the end of an over-long line is kept to find its `id`. */
const ID_WINDOW = 64 * 1024;

type Id = string | number | null;

export interface LineTransportOptions {
  /** Is this parsed JSON a JSON-RPC message (the SDK's `JSONRPCMessageSchema`)? */
  isMessage: (value: unknown) => boolean;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  maxMessageBytes?: number;
  /** Where a one-line note of each refused line goes (stderr). */
  log?: (line: string) => void;
}

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly stdin: NodeJS.ReadableStream;
  private readonly stdout: NodeJS.WritableStream;
  private readonly max: number;
  /** The current line's pieces so far (while it is within the limit). */
  private pieces: Buffer[] = [];
  private size = 0;
  /** Over the limit: the line's first and last bytes, the rest dropped. */
  private over?: { head: Buffer; tail: Buffer; bytes: number };
  private closed = false;

  constructor(private readonly opts: LineTransportOptions) {
    this.stdin = opts.stdin ?? process.stdin;
    this.stdout = opts.stdout ?? process.stdout;
    this.max = opts.maxMessageBytes ?? MAX_MESSAGE_BYTES;
  }

  private readonly onData = (chunk: Buffer | string) => {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let at = 0;
    while (at < buf.length) {
      const nl = buf.indexOf(10, at);
      const end = nl < 0 ? buf.length : nl;
      this.take(buf.subarray(at, end));
      if (nl < 0) break;
      this.endLine();
      at = nl + 1;
    }
  };

  private readonly onError = (e: Error) => this.onerror?.(e);

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onError);
  }

  /** Part of the current line. */
  private take(part: Buffer): void {
    if (!part.length) return;
    if (this.over) {
      const o = this.over;
      o.bytes += part.length;
      if (o.head.length < ID_WINDOW) o.head = Buffer.concat([o.head, part.subarray(0, ID_WINDOW - o.head.length)]);
      o.tail = Buffer.concat([o.tail, part]).subarray(-ID_WINDOW);
      return;
    }
    if (this.size + part.length <= this.max) {
      this.pieces.push(part);
      this.size += part.length;
      return;
    }
    // past the limit: keep only what may show the id, and drop the rest as it comes
    const whole = Buffer.concat([...this.pieces, part]);
    this.over = { head: Buffer.from(whole.subarray(0, ID_WINDOW)), tail: Buffer.from(whole.subarray(-ID_WINDOW)), bytes: whole.length };
    this.pieces = [];
    this.size = 0;
  }

  private endLine(): void {
    if (this.over) {
      const o = this.over;
      this.over = undefined;
      const id = idOf(o.head.toString('utf8'), o.tail.toString('utf8'));
      this.opts.log?.(`a message of ${o.bytes} bytes, over the ${this.max} allowed (discarded unread)`);
      this.reject(id, -32600, `Invalid Request: the message has ${o.bytes} bytes, more than the ${this.max} bytes (${this.max / 2 ** 20} MiB) one message may have; it was not read`);
      return;
    }
    const line = Buffer.concat(this.pieces).toString('utf8').replace(/\r$/, '');
    this.pieces = [];
    this.size = 0;
    if (!line.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      this.opts.log?.(`a line that is not JSON: ${(e as Error).message}`);
      return this.reject(null, -32700, `Parse error: the line is not JSON (${(e as Error).message})`);
    }
    const id = plainId((value as { id?: unknown } | null)?.id);
    if (!this.opts.isMessage(value)) {
      this.opts.log?.('a line that is not a JSON-RPC message');
      return this.reject(id, -32600, 'Invalid Request: not a JSON-RPC 2.0 request, notification or response');
    }
    const bad = badToolCall(value as { method?: unknown; params?: unknown });
    if (bad) return this.reject(id, -32602, `Invalid params: ${bad}`);
    this.onmessage?.(value as JSONRPCMessage);
  }

  private reject(id: Id, code: number, message: string): void {
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage).catch((e: unknown) => this.onerror?.(e as Error));
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      if (this.stdout.write(JSON.stringify(message) + '\n')) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.pieces = [];
    this.over = undefined;
    this.onclose?.();
  }
}

const plainId = (v: unknown): Id => (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) ? v : null);

/** Why a `tools/call` request cannot name its tool, in one line; undefined when it can (or it is no tools/call). */
function badToolCall(m: { method?: unknown; params?: unknown }): string | undefined {
  if (m.method !== 'tools/call') return undefined;
  const p = m.params;
  if (!p || typeof p !== 'object' || Array.isArray(p)) return 'tools/call needs params {name, arguments}';
  const { name, arguments: args } = p as { name?: unknown; arguments?: unknown };
  if (typeof name !== 'string') return `tools/call params.name must be a string, the tool's name (tools/list lists them), not ${describe(name)}`;
  if (args !== undefined && (!args || typeof args !== 'object' || Array.isArray(args))) return `tools/call params.arguments must be an object, not ${describe(args)}`;
  return undefined;
}

function describe(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/**
 * The `id` of a JSON-RPC message known only by its first and last bytes: a top-level
 * `"id"` member among the first ones (read with the nesting tracked), or the last member
 * before the closing brace (the SDK's clients write `id` last). Null when neither shows it.
 */
export function idOf(head: string, tail: string): Id {
  let depth = 0;
  let i = 0;
  const scalar = /^\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*")/;
  while (i < head.length) {
    const c = head[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < head.length && head[j] !== '"') j += head[j] === '\\' ? 2 : 1;
      if (j >= head.length) break;
      if (depth === 1 && head.slice(i, j + 1) === '"id"') {
        const m = scalar.exec(head.slice(j + 1, j + 1 + 1100));
        if (m) return parsedId(m[1]!);
      }
      i = j + 1;
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    i++;
  }
  const last = /[,{]\s*"id"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.){0,1024}")\s*\}\s*$/.exec(tail);
  return last ? parsedId(last[1]!) : null;
}

function parsedId(text: string): Id {
  try {
    return plainId(JSON.parse(text));
  } catch {
    return null;
  }
}
