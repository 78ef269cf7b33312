/**
 * Lean proof states: our own `$/lean/plainGoal` (Lean answers once elaboration
 * reaches the position; after −32801 "File changed." it is asked again, once the
 * file is no longer being processed: the next `$/lean/fileProgress` with
 * `processing: []`, or only fatal-error entries, which never clear), falling back
 * to `$/lean/plainTermGoal`, plus goals captured from the editor's own plainGoal
 * requests.
 */
import { ErrorCodes, RpcError } from '../../jsonrpc/messages.js';
import type { GoalProvider, Position, ProofState } from './types.js';
import { stateText } from './types.js';

export interface UpstreamRequester {
  request<T>(method: string, params: unknown, opts: { timeoutMs?: number }): Promise<T>;
  readonly live: boolean;
}

interface Cached {
  pos: Position;
  version: number | undefined;
  state: ProofState;
}

const MAX_RETRIES = 3;

export class LeanGoals implements GoalProvider {
  private readonly cache = new Map<string, Cached>();
  private readonly progressWaiters = new Map<string, Array<() => void>>();
  /** Documents Lean is elaborating now (a `fileProgress` with kind-1 entries last seen). */
  private readonly processing = new Set<string>();

  constructor(
    private readonly upstream: UpstreamRequester,
    private readonly versionOf: (uri: string) => number | undefined,
  ) {}

  async goalAt(uri: string, pos: Position, timeoutMs: number): Promise<ProofState | undefined> {
    const hit = this.cache.get(uri);
    if (hit && hit.version === this.versionOf(uri) && samePos(hit.pos, pos)) return { ...hit.state, source: 'cache' };
    if (!this.upstream.live) return undefined;
    const deadline = Date.now() + timeoutMs;
    const params = { textDocument: { uri }, position: pos };
    for (let attempt = 0; attempt <= MAX_RETRIES; attempt++) {
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      try {
        const r = await this.upstream.request<unknown>('$/lean/plainGoal', params, { timeoutMs: left });
        const goals = goalsOf(r);
        if (goals) return this.remember(uri, pos, goals, 'plainGoal');
        if (r !== null && r !== undefined) return undefined; // {goals: []}: no goals left
        return await this.termGoal(uri, pos, deadline);
      } catch (e) {
        if (e instanceof RpcError && e.code === ErrorCodes.ContentModified) {
          // The edit that caused it may already be elaborated (its `processing: []` seen): ask again now.
          if (this.processing.has(uri) && !(await this.fileDone(uri, deadline - Date.now()))) return undefined;
          continue;
        }
        return undefined;
      }
    }
    return undefined;
  }

  private async termGoal(uri: string, pos: Position, deadline: number): Promise<ProofState | undefined> {
    const left = deadline - Date.now();
    if (left <= 0) return undefined;
    try {
      const r = await this.upstream.request<{ goal?: unknown } | null>('$/lean/plainTermGoal', { textDocument: { uri }, position: pos }, { timeoutMs: left });
      if (r && typeof r.goal === 'string' && r.goal.trim()) return this.remember(uri, pos, [r.goal], 'plainTermGoal');
    } catch {
      /* no term goal */
    }
    return undefined;
  }

  private remember(uri: string, pos: Position, goals: string[], source: ProofState['source']): ProofState {
    const state: ProofState = { goals, text: stateText(goals), source };
    this.cache.set(uri, { pos: { line: pos.line, character: pos.character }, version: this.versionOf(uri), state });
    return state;
  }

  /** Resolves true at the next `fileProgress` with `processing: []` for `uri`, false on timeout. */
  private fileDone(uri: string, timeoutMs: number): Promise<boolean> {
    if (timeoutMs <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const list = this.progressWaiters.get(uri) ?? [];
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        const l = this.progressWaiters.get(uri);
        if (l) this.progressWaiters.set(uri, l.filter((f) => f !== done));
        resolve(false);
      }, timeoutMs);
      list.push(done);
      this.progressWaiters.set(uri, list);
    });
  }

  observeNotification(msg: { method: string; params?: unknown }): void {
    if (msg.method !== '$/lean/fileProgress') return;
    const p = msg.params as { textDocument?: { uri?: string }; processing?: unknown[] } | undefined;
    const uri = p?.textDocument?.uri;
    if (!uri || !Array.isArray(p?.processing)) return;
    // kind 1 (or absent: the default) is work in progress; kind 2 is a fatal error that stays
    if (p!.processing!.some((x) => (x as { kind?: unknown } | null)?.kind !== 2)) {
      this.processing.add(uri);
      return;
    }
    this.processing.delete(uri);
    const waiters = this.progressWaiters.get(uri);
    this.progressWaiters.delete(uri);
    for (const w of waiters ?? []) w();
  }

  observeEditor(msg: { method: string; params?: unknown }, result?: unknown): void {
    if (msg.method !== '$/lean/plainGoal' || result === undefined) return;
    const p = msg.params as { textDocument?: { uri?: string }; position?: Position } | undefined;
    const goals = goalsOf(result);
    if (p?.textDocument?.uri && p.position && goals) this.remember(p.textDocument.uri, p.position, goals, 'passive');
  }

  forget(uri: string): void {
    this.cache.delete(uri);
    this.processing.delete(uri);
  }
}

function samePos(a: Position, b: Position): boolean {
  return a.line === b.line && a.character === b.character;
}

/**
 * `{goals: string[]}` with at least one goal → the goals, fences stripped. In conv
 * mode Lean shows the focused side as `| lhs` where a goal has `⊢ type`; it is read
 * as the goal.
 */
export function goalsOf(r: unknown): string[] | undefined {
  const goals = (r as { goals?: unknown } | null)?.goals;
  if (!Array.isArray(goals)) return undefined;
  const out = goals
    .filter((g): g is string => typeof g === 'string')
    .map((g) => g.replace(/^```lean\n?/, '').replace(/\n?```$/, '').trim())
    .map((g) => (/^⊢/m.test(g) ? g : g.replace(/^\| /m, '⊢ ')))
    .filter((g) => g.length > 0);
  return out.length > 0 ? out : undefined;
}
