/**
 * Isabelle proof states: send `PIDE/caret_update` and take the next
 * `PIDE/dynamic_output` (HTML stripped; text output, which carries `decorations`,
 * taken as it is). Isabelle re-sends output only when it
 * changes, so the last content is cached per document and used when nothing new
 * arrives in time. Output names no caret: one caret is asked at a time, so that
 * concurrent requests never take each other's (another document's) state.
 */
import { stripHtml } from './html.js';
import type { GoalProvider, Position, ProofState } from './types.js';

export interface UpstreamNotifier {
  notify(method: string, params: unknown): void;
  readonly live: boolean;
}

interface Caret {
  uri: string;
  line: number;
  character: number;
}

export class IsabelleGoals implements GoalProvider {
  private readonly last = new Map<string, string>();
  private caret: Caret | undefined;
  private waiters: Array<(text: string) => void> = [];
  /** One caret at a time: output names no caret, so it belongs to the last one sent. */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(private readonly upstream: UpstreamNotifier) {}

  goalAt(uri: string, pos: Position, timeoutMs: number): Promise<ProofState | undefined> {
    const deadline = Date.now() + timeoutMs;
    const run = this.turn.then(() => this.ask(uri, pos, deadline - Date.now()));
    this.turn = run.catch(() => undefined);
    return run;
  }

  private async ask(uri: string, pos: Position, timeoutMs: number): Promise<ProofState | undefined> {
    const c = this.caret;
    const cached = this.last.get(uri);
    if (c && c.uri === uri && c.line === pos.line && c.character === pos.character && cached !== undefined) {
      return toState(cached, 'cache');
    }
    if (!this.upstream.live || timeoutMs <= 0) return cached !== undefined ? toState(cached, 'cache') : undefined;
    const next = this.nextOutput(timeoutMs);
    this.caret = { uri, line: pos.line, character: pos.character };
    this.upstream.notify('PIDE/caret_update', { uri, line: pos.line, character: pos.character });
    const text = await next;
    if (text !== undefined) return toState(text, 'dynamic_output');
    // Unchanged output is not re-sent: the cached content is the state here.
    const again = this.last.get(uri);
    return again !== undefined ? toState(again, 'cache') : undefined;
  }

  private nextOutput(timeoutMs: number): Promise<string | undefined> {
    return new Promise((resolve) => {
      const take = (text: string) => {
        clearTimeout(timer);
        resolve(text);
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== take);
        resolve(undefined);
      }, Math.max(0, timeoutMs));
      this.waiters.push(take);
    });
  }

  observeNotification(msg: { method: string; params?: unknown }): void {
    if (msg.method !== 'PIDE/dynamic_output') return;
    const p = msg.params as { content?: unknown; decorations?: unknown } | undefined;
    const content = p?.content;
    if (typeof content !== 'string') return;
    // Only text output (`vscode_html_output=false`) comes with `decorations`: it is not HTML,
    // and a `<` in it (`x < y`, `\<forall>`) is text.
    const text = p?.decorations !== undefined ? content.trim() : stripHtml(content);
    if (this.caret) this.last.set(this.caret.uri, text);
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) w(text);
  }

  observeEditor(msg: { method: string; params?: unknown }): void {
    if (msg.method !== 'PIDE/caret_update') return;
    const p = msg.params as Partial<Caret> | undefined;
    if (p && typeof p.uri === 'string' && typeof p.line === 'number' && typeof p.character === 'number') {
      this.caret = { uri: p.uri, line: p.line, character: p.character };
    }
  }

  forget(uri: string): void {
    this.last.delete(uri);
  }
}

/** Only output that carries goals is a proof state. */
function toState(text: string, source: ProofState['source']): ProofState | undefined {
  if (!/\bgoal\b|subgoal/.test(text)) return undefined;
  const m = /goal \(\d+ subgoals?\):\n([\s\S]*)$/.exec(text);
  const goals = m ? m[1].split(/\n(?= *\d+\. )/).map((g) => g.trim()).filter(Boolean) : [text];
  // The engine reads Isabelle state text itself; main (first) subgoal stays first.
  return { goals, text, source };
}
