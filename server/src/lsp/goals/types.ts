/** What every prover's goal source offers the features. */
import type { NotificationMessage, RequestMessage } from '../../jsonrpc/messages.js';

export interface Position {
  line: number;
  character: number;
}

export interface ProofState {
  /** Goals, main goal first. */
  goals: string[];
  /** The query for the engine: the main goal first, the others as context. */
  text: string;
  source: 'plainGoal' | 'plainTermGoal' | 'dynamic_output' | 'passive' | 'cache';
}

export interface GoalProvider {
  /** The proof state at a position, or undefined (no goal there / timed out / no upstream). */
  goalAt(uri: string, pos: Position, timeoutMs: number): Promise<ProofState | undefined>;
  /** Passive capture: a notification from the upstream. */
  observeNotification(msg: NotificationMessage): void;
  /** Passive capture: an editor message (notification, or a request with its upstream result). */
  observeEditor(msg: RequestMessage | NotificationMessage, result?: unknown): void;
  /** The document went away. */
  forget(uri: string): void;
}

export function stateText(goals: string[]): string {
  return goals.join('\n\n');
}

/** A provider for when there is no prover. */
export const noGoals: GoalProvider = {
  goalAt: async () => undefined,
  observeNotification: () => {},
  observeEditor: () => {},
  forget: () => {},
};
