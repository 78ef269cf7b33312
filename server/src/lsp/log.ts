/**
 * Logging: stderr (or a caller-supplied sink), optionally mirrored to the editor
 * as `window/logMessage`. Never stdout: that is the protocol channel.
 */
export type Level = 'error' | 'warn' | 'info' | 'debug';
const RANK: Record<Level, number> = { error: 0, warn: 1, info: 2, debug: 3 };
const LSP_TYPE: Record<Level, number> = { error: 1, warn: 2, info: 3, debug: 4 };

export type LogSink = ((line: string) => void) | { write(s: string): unknown };

export class Logger {
  private mirror?: (type: number, message: string) => void;
  private mirrorLevel: Level = 'warn';

  constructor(
    private readonly sink: LogSink = process.stderr,
    private readonly level: Level = levelFromEnv(),
  ) {}

  /** Also send messages at or above `level` to the editor. */
  attachEditor(send: (type: number, message: string) => void, level: Level = 'warn'): void {
    this.mirror = send;
    this.mirrorLevel = level;
  }

  log(level: Level, msg: string): void {
    if (RANK[level] <= RANK[this.level]) {
      const line = `[premise-lsp] ${level}: ${msg}`;
      if (typeof this.sink === 'function') this.sink(line);
      else this.sink.write(line + '\n');
    }
    if (this.mirror && RANK[level] <= RANK[this.mirrorLevel]) {
      try {
        this.mirror(LSP_TYPE[level], `premise-lsp: ${msg}`);
      } catch {
        /* editor gone */
      }
    }
  }
  error(msg: string): void {
    this.log('error', msg);
  }
  warn(msg: string): void {
    this.log('warn', msg);
  }
  info(msg: string): void {
    this.log('info', msg);
  }
  debug(msg: string): void {
    this.log('debug', msg);
  }
}

function levelFromEnv(): Level {
  const v = (process.env.PREMISE_LSP_LOG ?? '').toLowerCase();
  return v in RANK ? (v as Level) : 'info';
}
