/**
 * The editor side of protocol tests: spawns a language server (the built
 * premise-lsp, or a test double directly), speaks framed JSON-RPC to it, records
 * a transcript, and auto-answers server→client requests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const SERVE = join(ROOT, 'dist/cli.js');
export const FAKE_LEAN = join(ROOT, 'test/doubles/fake-lean.mjs');
export const FAKE_ISABELLE = join(ROOT, 'test/doubles/fake-isabelle.mjs');
export const FIXTURES = join(ROOT, 'test/fixtures/lsp');
export const PREMISES = join(FIXTURES, 'premises.json');
export const EMPTY = join(FIXTURES, 'empty.json');

export function requireBuild(): void {
  if (!existsSync(SERVE)) throw new Error(`${SERVE} is missing: run \`npx tsup\` before the protocol tests`);
}

export type Msg = { jsonrpc: '2.0'; id?: number | string | null; method?: string; params?: any; result?: any; error?: { code: number; message: string; data?: unknown } };
export type Entry = { dir: 'in' | 'out'; msg: Msg };

export function tempFile(name: string): string {
  return join(mkdtempSync(join(tmpdir(), 'premise-lsp-')), name);
}

export function readTranscript(path: string): Entry[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((e) => e.dir !== undefined);
}

export function fixture(name: string): { uri: string; text: string } {
  const path = join(FIXTURES, name);
  return { uri: 'file://' + path, text: readFileSync(path, 'utf8') };
}

/** Position of the `nth` occurrence of `needle` (plus `offset` characters). */
export function posOf(text: string, needle: string, offset = 0, nth = 0): { line: number; character: number } {
  let i = -1;
  for (let k = 0; k <= nth; k++) {
    i = text.indexOf(needle, i + 1);
    if (i < 0) throw new Error(`fixture text has no ${JSON.stringify(needle)}`);
  }
  i += offset;
  const before = text.slice(0, i);
  const line = before.split('\n').length - 1;
  return { line, character: i - (before.lastIndexOf('\n') + 1) };
}

export interface Options {
  env?: Record<string, string>;
  /** Answer server→client requests (default: null, or {applied: true} for applyEdit). */
  answer?: (msg: Msg) => unknown;
}

export class Editor {
  readonly proc: ChildProcess;
  readonly transcript: Entry[] = [];
  readonly received: Msg[] = [];
  stderr = '';
  private buf = Buffer.alloc(0);
  private nextId = 1;
  private waiters: Array<{ pred: (m: Msg) => boolean; resolve: (m: Msg) => void; from: number }> = [];
  readonly exited: Promise<number | null>;

  constructor(command: string, args: string[], private readonly opts: Options = {}) {
    this.proc = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...opts.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc.stdout!.on('data', (d: Buffer) => this.onData(d));
    this.proc.stderr!.on('data', (d: Buffer) => (this.stderr += d.toString()));
    this.proc.stdin!.on('error', () => {});
    this.exited = new Promise((res) => this.proc.on('exit', (code) => res(code)));
  }

  /** premise-lsp in front of `upstream` (or standalone when empty). */
  static proxy(upstream: string[], opts: Options & { engine?: string; extra?: string[] } = {}): Editor {
    requireBuild();
    const args = [SERVE, 'serve', '--stdio', '--fake-engine', opts.engine ?? PREMISES, '--restart-delay-ms', '50', ...(opts.extra ?? [])];
    if (upstream.length) args.push('--', ...upstream);
    return new Editor(process.execPath, args, opts);
  }

  static direct(upstream: string[], opts: Options = {}): Editor {
    return new Editor(upstream[0], upstream.slice(1), opts);
  }

  private onData(d: Buffer): void {
    this.buf = Buffer.concat([this.buf, d]);
    for (;;) {
      const end = this.buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const len = Number(/Content-Length:\s*(\d+)/i.exec(this.buf.subarray(0, end).toString('latin1'))![1]);
      if (this.buf.length < end + 4 + len) return;
      const msg = JSON.parse(this.buf.subarray(end + 4, end + 4 + len).toString('utf8')) as Msg;
      this.buf = this.buf.subarray(end + 4 + len);
      this.transcript.push({ dir: 'in', msg });
      this.received.push(msg);
      if (msg.method !== undefined && msg.id !== undefined) this.answerServer(msg);
      this.waiters = this.waiters.filter((w) => {
        if (!w.pred(msg)) return true;
        w.resolve(msg);
        return false;
      });
    }
  }

  private answerServer(msg: Msg): void {
    const r = this.opts.answer?.(msg);
    const result = r !== undefined ? r : msg.method === 'workspace/applyEdit' ? { applied: true } : null;
    this.send({ jsonrpc: '2.0', id: msg.id!, result });
  }

  send(msg: Msg): void {
    this.transcript.push({ dir: 'out', msg });
    this.writeRaw(JSON.stringify(msg));
  }

  writeRaw(body: string | Buffer, header?: string): void {
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    this.proc.stdin!.write(Buffer.concat([Buffer.from(header ?? `Content-Length: ${bytes.length}\r\n\r\n`, 'latin1'), bytes]));
  }

  /** Send a request; resolves with the whole response message (result or error). */
  request(method: string, params?: unknown, id: number | string = this.nextId++): Promise<Msg> {
    const p = this.waitFor((m) => m.id === id && m.method === undefined);
    this.send({ jsonrpc: '2.0', id, method, params });
    return p;
  }

  notify(method: string, params?: unknown): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  /** Next message (from now, or already received if `past`) matching `pred`. */
  waitFor(pred: (m: Msg) => boolean, opts: { past?: boolean; timeoutMs?: number } = {}): Promise<Msg> {
    if (opts.past) {
      const hit = this.received.find(pred);
      if (hit) return Promise.resolve(hit);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for a message; stderr:\n${this.stderr.slice(-3000)}`)), opts.timeoutMs ?? 15_000);
      this.waiters.push({
        pred,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
        from: this.received.length,
      });
    });
  }

  notification(method: string, pred: (p: any) => boolean = () => true, past = false): Promise<Msg> {
    return this.waitFor((m) => m.method === method && m.id === undefined && pred(m.params), { past });
  }

  async initialize(initializationOptions?: unknown, capabilities: unknown = { window: { workDoneProgress: true } }): Promise<Msg> {
    const r = await this.request('initialize', { processId: null, rootUri: 'file://' + FIXTURES, capabilities, initializationOptions });
    this.notify('initialized', {});
    return r;
  }

  open(uri: string, text: string, languageId = 'lean', version = 1): void {
    this.notify('textDocument/didOpen', { textDocument: { uri, languageId, version, text } });
  }

  async shutdown(): Promise<number | null> {
    await this.request('shutdown');
    this.notify('exit');
    return this.exited;
  }

  kill(): void {
    if (this.proc.exitCode === null) this.proc.kill('SIGKILL');
  }
}
