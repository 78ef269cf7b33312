/**
 * The automatic index from the editor's side, for a Mathlib project: a Lake
 * project whose `.lake/packages/{mathlib,batteries}` link to the checkouts, an
 * empty cache, and `premise-lsp serve` started on it as an editor would. Times
 * from `initialize` to the first premise served (the sparse-only engine), to
 * the hybrid engine, the indexer children's peak memory, the server's own, and
 * the warm start (same cache, new server) to its first premise.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { encodeFrame, FrameDecoder } from '../jsonrpc/framing.js';
import { packageRoot } from '../paths.js';

export interface AutoIndexBench {
  declarations: number;
  firstPremiseS: number;
  hybridS: number;
  buildPeakMb: number;
  serverPeakMb: number;
  warmStartS: number;
  steps: string[];
}

const QUERY = '(a + b) * c = a * c + b * c';

/** A Lake project on the Mathlib and Batteries checkouts, with one workspace file. */
export function mathlibProject(dir: string, mathlib: string, batteries: string): string {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, '.lake', 'packages'), { recursive: true });
  mkdirSync(join(dir, 'Proj'), { recursive: true });
  symlinkSync(mathlib, join(dir, '.lake', 'packages', 'mathlib'));
  if (existsSync(batteries)) symlinkSync(batteries, join(dir, '.lake', 'packages', 'batteries'));
  writeFileSync(join(dir, 'lakefile.lean'), 'import Lake\nopen Lake DSL\n\npackage proj\n\nrequire mathlib from git "https://github.com/leanprover-community/mathlib4"\n\n@[default_target]\nlean_lib Proj\n');
  const pkg = (name: string, url: string) => ({ type: 'git', url, name, rev: 'bench', inherited: name !== 'mathlib', scope: 'leanprover-community' });
  writeFileSync(
    join(dir, 'lake-manifest.json'),
    JSON.stringify({ version: '1.1.0', packagesDir: '.lake/packages', name: 'proj', lakeDir: '.lake', packages: [pkg('mathlib', 'https://github.com/leanprover-community/mathlib4'), pkg('batteries', 'https://github.com/leanprover-community/batteries')] }, null, 2),
  );
  const tc = join(mathlib, 'lean-toolchain');
  if (existsSync(tc)) writeFileSync(join(dir, 'lean-toolchain'), readFileSync(tc));
  writeFileSync(join(dir, 'Proj', 'Main.lean'), 'import Mathlib\n\nnamespace Proj\n\ntheorem my_add_mul (a b c : ℕ) : (a + b) * c = a * c + b * c := add_mul a b c\n\nend Proj\n');
  return dir;
}

class Session {
  stderr = '';
  private nextId = 1;
  private readonly waiting = new Map<unknown, (r: { result?: any; error?: any }) => void>();
  readonly proc: ChildProcess;

  constructor(cache: string) {
    this.proc = spawn(process.execPath, [join(packageRoot(), 'dist', 'cli.js'), 'serve', '--stdio'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, PREMISE_LSP_CACHE: cache },
    });
    const decoder = new FrameDecoder((f) => {
      if (f.kind !== 'message') return;
      const m = f.value as { id?: unknown; method?: string; result?: unknown; error?: unknown };
      if (m.method !== undefined && m.id !== undefined) this.send({ jsonrpc: '2.0', id: m.id, result: null });
      else if (m.method === undefined) this.waiting.get(m.id)?.(m);
    });
    this.proc.stdout!.on('data', (d: Buffer) => decoder.push(d));
    this.proc.stderr!.setEncoding('utf8');
    this.proc.stderr!.on('data', (d: string) => {
      this.stderr += d;
      if (process.env.PREMISE_BENCH_VERBOSE) process.stderr.write(d);
    });
  }

  send(msg: object): void {
    this.proc.stdin!.write(encodeFrame(JSON.stringify(msg)));
  }

  request(method: string, params: unknown): Promise<{ result?: any; error?: any }> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, (r) => {
        this.waiting.delete(id);
        resolve(r);
      });
      this.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  /** The server's peak resident memory so far (Linux), in MB. */
  peakMb(): number {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${this.proc.pid}/status`, 'utf8'));
      return m ? Math.round(Number(m[1]) / 1024) : 0;
    } catch {
      return 0;
    }
  }

  async waitFor(text: string, timeoutS: number): Promise<boolean> {
    const end = Date.now() + timeoutS * 1000;
    while (!this.stderr.includes(text) && Date.now() < end && this.proc.exitCode === null) await new Promise((r) => setTimeout(r, 100));
    return this.stderr.includes(text);
  }

  async close(): Promise<void> {
    await this.request('shutdown', null);
    this.send({ jsonrpc: '2.0', method: 'exit', params: null });
    if (this.proc.exitCode === null) await new Promise((r) => this.proc.once('exit', r));
  }
}

/** initialize on `root`, then one search: seconds until it answers with premises. */
async function firstPremise(s: Session, root: string): Promise<number> {
  const t0 = performance.now();
  await s.request('initialize', { processId: process.pid, rootUri: pathToFileURL(root).href, capabilities: {} });
  s.send({ jsonrpc: '2.0', method: 'initialized', params: {} });
  const r = await s.request('workspace/executeCommand', { command: 'premise-lsp.search', arguments: [{ query: QUERY, k: 5 }] });
  if (r.error || !r.result?.results?.length) throw new Error(`no premises: ${JSON.stringify(r.error ?? r.result)}\n${s.stderr}`);
  return (performance.now() - t0) / 1000;
}

export async function benchAutoIndex(mathlib: string, batteries: string, work: string): Promise<AutoIndexBench> {
  const root = mathlibProject(join(work, 'proj'), mathlib, batteries);
  const cache = join(work, 'cache');
  rmSync(cache, { recursive: true, force: true });

  const cold = new Session(cache);
  const t0 = performance.now();
  const firstPremiseS = await firstPremise(cold, root);
  if (!(await cold.waitFor('engine upgraded', 1800))) throw new Error(`the hybrid engine never came:\n${cold.stderr.slice(-3000)}`);
  const hybridS = (performance.now() - t0) / 1000;
  const serverPeakMb = cold.peakMb();
  await cold.close();
  const peaks = [...cold.stderr.matchAll(/peak memory (\d+) MB/g)].map((m) => Number(m[1]));
  const steps = [...cold.stderr.matchAll(/automatic index: (\w+ \d+ declarations.*)$/gm)].map((m) => m[1]!);
  const declarations = Number(/engine upgraded: (\d+) premises/.exec(cold.stderr)?.[1] ?? 0);

  const warm = new Session(cache);
  const warmStartS = await firstPremise(warm, root);
  await warm.close();
  if (warm.stderr.includes('indexing')) throw new Error('the warm start rebuilt an entry');
  const r2 = (x: number) => Math.round(x * 100) / 100;
  return { declarations, firstPremiseS: r2(firstPremiseS), hybridS: r2(hybridS), buildPeakMb: Math.max(0, ...peaks), serverPeakMb, warmStartS: r2(warmStartS), steps };
}

export function renderAutoIndex(a: AutoIndexBench): string[] {
  return [
    '## Automatic index of a Mathlib project (language server, empty cache)',
    '',
    '| premises | first premise s | hybrid s | indexer peak MB | server peak MB | warm start s |',
    '|---|---|---|---|---|---|',
    `| ${a.declarations} | ${a.firstPremiseS} | ${a.hybridS} | ${a.buildPeakMb} | ${a.serverPeakMb} | ${a.warmStartS} |`,
    '',
    'Targets: first premise ≤ 30 s; hybrid ≤ 180 s; indexer peak ≤ 1500 MB; warm start ≤ 2 s (all from `initialize`).',
    '',
    ...a.steps.map((s) => `- ${s}`),
    '',
  ];
}
