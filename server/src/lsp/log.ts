/**
 * Logging: stderr (or a caller-supplied sink), optionally mirrored to the editor
 * as `window/logMessage`. Never stdout: that is the protocol channel. An alert
 * (something the user must act on: a bad index, a failed automatic index, a
 * prover that cannot start or keeps crashing) is logged and also shown where the
 * user looks, `window/showMessage`, once per message, with its fix.
 */
export type Level = 'error' | 'warn' | 'info' | 'debug';
const RANK: Record<Level, number> = { error: 0, warn: 1, info: 2, debug: 3 };
const LSP_TYPE: Record<Level, number> = { error: 1, warn: 2, info: 3, debug: 4 };

export type LogSink = ((line: string) => void) | { write(s: string): unknown };

export class Logger {
  private mirror?: (type: number, message: string) => void;
  private mirrorLevel: Level = 'warn';
  private show?: (type: 1 | 2, message: string) => void;
  /** Alerts made before `attachAlerts`, shown when it comes. */
  private waiting: Array<[1 | 2, string]> = [];
  private readonly shown = new Set<string>();

  constructor(
    private readonly sink: LogSink = process.stderr,
    private readonly level: Level = levelFromEnv(),
  ) {}

  /** Also send messages at or above `level` to the editor. */
  attachEditor(send: (type: number, message: string) => void, level: Level = 'warn'): void {
    this.mirror = send;
    this.mirrorLevel = level;
  }

  /** Where alerts are shown (the editor's `window/showMessage`); those made earlier are shown now. */
  attachAlerts(show: (type: 1 | 2, message: string) => void): void {
    this.show = show;
    for (const [type, message] of this.waiting.splice(0)) this.showSafely(type, message);
  }

  /** Log `msg` and show it to the user once (the same text again is only logged). `msg` should say how to fix it. */
  alert(level: 'error' | 'warn', msg: string): void {
    this.log(level, msg);
    const message = `premise-lsp: ${msg}`;
    if (this.shown.has(message)) return;
    this.shown.add(message);
    const type = level === 'error' ? 1 : 2;
    if (this.show) this.showSafely(type, message);
    else this.waiting.push([type, message]);
  }

  private showSafely(type: 1 | 2, message: string): void {
    try {
      this.show!(type, message);
    } catch {
      /* editor gone */
    }
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
