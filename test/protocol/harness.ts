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
import { JsonRpcClient, type Msg } from '../../server/src/jsonrpc/client.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const SERVE = join(ROOT, 'dist/cli.js');
export const FAKE_LEAN = join(ROOT, 'test/doubles/fake-lean.mjs');
export const FAKE_ISABELLE = join(ROOT, 'test/doubles/fake-isabelle.mjs');
export const FIXTURES = join(ROOT, 'test/fixtures/lsp');
export const PREMISES = join(FIXTURES, 'premises.json');
export const EMPTY = join(FIXTURES, 'empty.json');

/** The names `premise-lsp.search` answers for `query` (top `k`). */
export async function searchNames(e: Editor, query: string, k = 5): Promise<string[]> {
  const r = await e.request('workspace/executeCommand', { command: 'premise-lsp.search', arguments: [{ query, k }] });
  if (r.error) throw new Error(`premise-lsp.search failed: ${r.error.message}`);
  return r.result.results.map((h: { name: string }) => h.name);
}

/** Waits (up to 60 s) until the server's stderr says `text`; fails showing stderr otherwise. */
export async function stderrSays(e: Editor, text: string): Promise<void> {
  for (let i = 0; i < 1200 && !e.stderr.includes(text); i++) await new Promise((r) => setTimeout(r, 50));
  if (!e.stderr.includes(text)) throw new Error(`the server never said ${JSON.stringify(text)}; stderr:\n${e.stderr.slice(-4000)}`);
}

export function requireBuild(): void {
  if (!existsSync(SERVE)) throw new Error(`${SERVE} is missing: run \`npx tsup\` before the protocol tests`);
}


export type { Msg };
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
  stderr = '';
  readonly exited: Promise<number | null>;
  private readonly client: JsonRpcClient;

  constructor(command: string, args: string[], opts: Options = {}) {
    this.proc = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...opts.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    this.client = new JsonRpcClient(this.proc.stdout!, this.proc.stdin!, {
      answer: (msg) => {
        const r = opts.answer?.(msg);
        return r !== undefined ? r : msg.method === 'workspace/applyEdit' ? { applied: true } : null;
      },
      observe: (dir, msg) => this.transcript.push({ dir, msg }),
      timeoutMs: 15_000,
      describe: () => `stderr:\n${this.stderr.slice(-3000)}`,
    });
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

  /** Every message received from the server, in order. */
  get received(): Msg[] {
    return this.client.received;
  }

  send(msg: Msg): void {
    this.client.send(msg);
  }

  writeRaw(body: string | Buffer, header?: string): void {
    this.client.writeRaw(body, header);
  }

  /** Send a request; resolves with the whole response message (result or error). */
  request(method: string, params?: unknown, id?: number | string): Promise<Msg> {
    return this.client.request(method, params, id);
  }

  notify(method: string, params?: unknown): void {
    this.client.notify(method, params);
  }

  /** Next message (from now, or already received if `past`) matching `pred`. */
  waitFor(pred: (m: Msg) => boolean, opts: { past?: boolean; timeoutMs?: number } = {}): Promise<Msg> {
    return this.client.waitFor(pred, opts);
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
