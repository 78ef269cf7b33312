/**
 * A small client for any OpenAI-compatible chat-completions endpoint (OpenAI,
 * llama.cpp's server, Ollama, vLLM…): one overall deadline per call (retries
 * included), bounded retries on network errors, 429 and 5xx, and a rate limit
 * on request starts shared by every call through the same client. The API key
 * comes from the environment (PREMISE_LSP_LLM_KEY), never from the command line.
 */

export const KEY_ENV = 'PREMISE_LSP_LLM_KEY';

export interface LlmConfig {
  /** `http(s)://host:port` (then `/v1/chat/completions` is appended), `…/v1`, or the full chat-completions URL. */
  url: string;
  /** Model name sent with each request (servers with one model ignore it). */
  model?: string;
  /** Deadline of one call, retries included (default 10 s). */
  timeoutMs?: number;
  /** Further tries after a network error, 429 or 5xx (default 2). */
  retries?: number;
  /** Most request starts per second (default: no limit). */
  ratePerSecond?: number;
  /** Bearer token; default: the environment's PREMISE_LSP_LLM_KEY. */
  apiKey?: string;
}

export type LlmFailure = 'timeout' | 'http' | 'network' | 'malformed' | 'refusal';

export class LlmError extends Error {
  constructor(
    readonly kind: LlmFailure,
    message: string,
    /** An HTTP 429/5xx reply's Retry-After, in ms. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'LlmError';
  }
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatOptions {
  maxTokens?: number;
  temperature?: number;
}

/** The chat-completions URL for what the user gave. */
export function endpointUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`not a URL: ${JSON.stringify(url)}`);
  }
  // fetch refuses such a URL at each call, and its error would print the password
  if (u.username || u.password) throw new Error('the LLM endpoint URL must not hold a user name or password (put the API key in PREMISE_LSP_LLM_KEY)');
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`the LLM endpoint must be an http(s) URL, got ${JSON.stringify(url)}`);
  const path = u.pathname.replace(/\/+$/, '');
  if (/\/chat\/completions$/.test(path)) u.pathname = path;
  else if (/\/v\d+$/.test(path)) u.pathname = `${path}/chat/completions`;
  else u.pathname = `${path}/v1/chat/completions`;
  return u.toString();
}

const DEFAULT_TIMEOUT_MS = 10_000;
/** Largest reply read: a chat answer is a few KB, more is a broken or hostile server (a 1 GB body, an endless stream). */
export const MAX_REPLY_BYTES = 4 * 1024 * 1024;

/** The body as text, at most `limit` bytes (LlmError `malformed` beyond, without reading the rest). */
async function readCapped(res: Response, limit: number): Promise<string> {
  const tooBig = () => new LlmError('malformed', `the reply is over ${limit} bytes`);
  if (Number(res.headers.get('content-length')) > limit) {
    res.body?.cancel().catch(() => {});
    throw tooBig();
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      reader.cancel().catch(() => {});
      throw tooBig();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A server's text for an error message: one line of at most 120 characters, no control characters (a terminal would obey escape sequences on stderr). */
function snippet(text: string): string {
  return text.slice(0, 500).replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ').trim().slice(0, 120);
}

/** Retry-After (seconds or an HTTP date) in ms, or undefined. */
function retryAfterMs(value: string | null): number | undefined {
  if (!value) return undefined;
  const ms = /^\s*\d+\s*$/.test(value) ? Number(value) * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) ? Math.max(0, ms) : undefined;
}

/**
 * `text` without reasoning models' `<think>…</think>` blocks, in linear time (a regex is quadratic on many
 * unclosed `<think>`s). A thought the reply never closes (cut off by max_tokens) is no answer: it is dropped
 * to the end, not kept as one; a `</think>` with no opening tag (the chat template opened it) ends a thought.
 */
export function dropThinking(text: string): string {
  const firstClose = text.indexOf('</think>');
  const firstOpen = text.indexOf('<think>');
  if (firstClose >= 0 && (firstOpen < 0 || firstClose < firstOpen)) text = text.slice(firstClose + 8);
  let out = '';
  let from = 0;
  for (;;) {
    const open = text.indexOf('<think>', from);
    if (open < 0) break;
    const close = text.indexOf('</think>', open + 7);
    out += text.slice(from, open);
    if (close < 0) return out;
    from = close + 8;
  }
  return out + text.slice(from);
}
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/** A call's deadline: `ms` of running time, paused while the call waits its turn under the rate limit. */
class Deadline {
  private readonly ctrl = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private remaining: number;
  private since = 0;

  constructor(ms: number) {
    this.remaining = ms;
    this.resume();
  }

  get signal(): AbortSignal {
    return this.ctrl.signal;
  }

  /** Milliseconds left. */
  left(): number {
    return this.timer ? this.remaining - (Date.now() - this.since) : this.remaining;
  }

  pause(): void {
    if (!this.timer) return;
    this.remaining = this.left();
    this.clear();
  }

  resume(): void {
    if (this.timer || this.ctrl.signal.aborted) return;
    this.since = Date.now();
    this.timer = setTimeout(() => this.ctrl.abort(), Math.max(0, this.remaining));
    this.timer.unref();
  }

  clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** Spaces request starts at least `1000 / rate` ms apart (FIFO). */
class RateLimit {
  private next = 0;
  constructor(private readonly intervalMs: number) {}
  /** Reserve the next slot and wait for it. */
  async take(): Promise<void> {
    if (this.intervalMs <= 0) return;
    const now = Date.now();
    const at = Math.max(now, this.next);
    this.next = at + this.intervalMs;
    await sleep(at - now);
  }
}

export class LlmClient {
  readonly endpoint: string;
  readonly model: string;
  readonly timeoutMs: number;
  private readonly retries: number;
  private readonly apiKey: string | undefined;
  private readonly rate: RateLimit;
  /** Requests sent (for tests and summaries). */
  requests = 0;

  constructor(cfg: LlmConfig, env: NodeJS.ProcessEnv = process.env) {
    this.endpoint = endpointUrl(cfg.url);
    this.model = cfg.model ?? 'default';
    this.timeoutMs = cfg.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retries = Math.max(0, cfg.retries ?? 2);
    this.apiKey = cfg.apiKey ?? (env[KEY_ENV] || undefined);
    this.rate = new RateLimit(cfg.ratePerSecond && cfg.ratePerSecond > 0 ? 1000 / cfg.ratePerSecond : 0);
  }

  /**
   * The assistant's reply text. Throws LlmError (never anything else) on failure.
   * The deadline counts the endpoint's time only: waiting for a turn under the rate
   * limit (which a slow `--llm-rate` and many requests at once make long) does not
   * use it up, so a timeout always means the endpoint was slow.
   */
  async chat(messages: ChatMessage[], opts: ChatOptions = {}): Promise<string> {
    const deadline = new Deadline(this.timeoutMs);
    try {
      return await this.attempts(messages, opts, deadline);
    } finally {
      deadline.clear();
    }
  }

  private async attempts(messages: ChatMessage[], opts: ChatOptions, deadline: Deadline): Promise<string> {
    let last: LlmError | undefined;
    for (let attempt = 0; attempt <= this.retries; attempt++) {
      if (attempt > 0) {
        const wait = Math.max(Math.min(250 * 2 ** (attempt - 1), 4000), last?.retryAfterMs ?? 0);
        // the server asks for more patience than the deadline leaves: asking sooner only earns another 429
        if (last?.retryAfterMs !== undefined && wait >= deadline.left()) {
          throw new LlmError(last.kind, `${last.message} (Retry-After ${Math.ceil(last.retryAfterMs / 1000)} s is past the ${this.timeoutMs} ms deadline)`);
        }
        await sleep(wait, deadline.signal);
        if (deadline.signal.aborted) break;
      }
      deadline.pause();
      await this.rate.take();
      deadline.resume();
      try {
        return await this.once(messages, opts, deadline.signal);
      } catch (e) {
        last = e instanceof LlmError ? e : new LlmError('network', (e as Error).message);
        if (deadline.signal.aborted) break;
        const retryable = last.kind === 'network' || (last.kind === 'http' && /^HTTP (429|5\d\d)/.test(last.message));
        if (!retryable) throw last;
      }
    }
    if (deadline.signal.aborted) throw new LlmError('timeout', `no answer within ${this.timeoutMs} ms`);
    throw last ?? new LlmError('network', 'no answer');
  }

  private async once(messages: ChatMessage[], opts: ChatOptions, signal: AbortSignal): Promise<string> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    const body = JSON.stringify({
      model: this.model,
      messages,
      temperature: opts.temperature ?? 0,
      max_tokens: opts.maxTokens ?? 300,
      stream: false,
    });
    this.requests++;
    let res: Response;
    try {
      res = await fetch(this.endpoint, { method: 'POST', headers, body, signal });
    } catch (e) {
      if (signal.aborted) throw new LlmError('timeout', `no answer within ${this.timeoutMs} ms`);
      throw new LlmError('network', `${(e as Error).message}${(e as { cause?: Error }).cause ? ` (${(e as { cause: Error }).cause.message})` : ''}`);
    }
    let text: string;
    try {
      text = await readCapped(res, MAX_REPLY_BYTES);
    } catch (e) {
      if (e instanceof LlmError) throw e;
      throw new LlmError(signal.aborted ? 'timeout' : 'network', signal.aborted ? `no answer within ${this.timeoutMs} ms` : 'the reply was cut off');
    }
    if (!res.ok) {
      throw new LlmError('http', `HTTP ${res.status}${text ? `: ${snippet(text)}` : ''}`, retryAfterMs(res.headers.get('retry-after')));
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new LlmError('malformed', 'the reply is not JSON');
    }
    const choice = (json as { choices?: { message?: { content?: unknown; refusal?: unknown }; finish_reason?: unknown }[] })?.choices?.[0];
    if (!choice || typeof choice !== 'object') throw new LlmError('malformed', 'the reply has no choices');
    if (typeof choice.message?.refusal === 'string' && choice.message.refusal) throw new LlmError('refusal', `refused: ${snippet(choice.message.refusal)}`);
    if (choice.finish_reason === 'content_filter') throw new LlmError('refusal', 'refused (content filter)');
    // reasoning models (DeepSeek-R1, Qwen3…) may put their thinking before the answer
    const content = typeof choice.message?.content === 'string' ? dropThinking(choice.message.content) : undefined;
    if (!content?.trim()) throw new LlmError('malformed', 'the reply has no message content');
    return content;
  }
}
