/**
 * One prover process: spawn it, frame its stdio, report its messages and its exit.
 * This is the only place that spawns provers (child_process is imported only
 * here, by the indexer launcher and by the benchmark: import-graph.test.ts).
 * Its stderr goes to our log, never to our stdout.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { FrameDecoder, type Frame } from '../jsonrpc/framing.js';
import { FrameWriter } from '../jsonrpc/writer.js';

export interface ChildSpec {
  command: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

export interface ChildEvents {
  onFrame(frame: Frame): void;
  onExit(info: { code: number | null; signal: NodeJS.Signals | null; error?: Error }): void;
  onStderr(line: string): void;
  /** Its stdin is full (`true`) or drained again (`false`). */
  onPressure?(full: boolean): void;
}

export class ChildTransport {
  private readonly proc: ChildProcess;
  private readonly writer: FrameWriter;
  private exited = false;

  constructor(spec: ChildSpec, events: ChildEvents) {
    this.proc = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: spec.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const decoder = new FrameDecoder((f) => events.onFrame(f));
    this.proc.stdout!.on('data', (d: Buffer) => decoder.push(d));
    let errTail = '';
    this.proc.stderr!.on('data', (d: Buffer) => {
      const lines = (errTail + d.toString('utf8')).split('\n');
      errTail = lines.pop() ?? '';
      for (const l of lines) events.onStderr(l);
    });
    this.writer = new FrameWriter(this.proc.stdin!, () => {}, (full) => events.onPressure?.(full));
    let spawnError: Error | undefined;
    this.proc.on('error', (e) => {
      spawnError = e;
      // 'exit' may not follow a failed spawn.
      if (this.proc.pid === undefined) finish(null, null);
    });
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (this.exited) return;
      this.exited = true;
      this.writer.close();
      if (errTail) events.onStderr(errTail);
      events.onExit({ code, signal, error: spawnError });
    };
    this.proc.on('exit', (code, signal) => finish(code, signal));
  }

  get pid(): number | undefined {
    return this.proc.pid;
  }
  get alive(): boolean {
    return !this.exited;
  }

  send(body: Buffer | object): boolean {
    return !this.exited && this.writer.write(body);
  }

  /** Stop reading its stdout (the pipe fills and the prover waits); `releaseOutput` reads on. */
  holdOutput(): void {
    this.proc.stdout?.pause();
  }

  releaseOutput(): void {
    this.proc.stdout?.resume();
  }

  /** Close stdin, then escalate SIGTERM → SIGKILL if it does not go. */
  stop(graceMs = 2000): void {
    if (this.exited) return;
    try {
      this.proc.stdin?.end();
    } catch {
      /* already closed */
    }
    const term = setTimeout(() => {
      if (!this.exited) this.proc.kill('SIGTERM');
    }, graceMs);
    const kill = setTimeout(() => {
      if (!this.exited) this.proc.kill('SIGKILL');
    }, graceMs * 2);
    term.unref();
    kill.unref();
  }

  kill(): void {
    if (!this.exited) this.proc.kill('SIGKILL');
  }
}
