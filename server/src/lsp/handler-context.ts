/**
 * What a method handler may use: the session, the editor channel, and the
 * router's forwarding primitives. Handlers see this narrow view, never the
 * router itself, so the handler table (`handlers.ts`) and the router
 * (`router.ts`) do not import each other.
 */
import type { Id, RequestMessage, ResponseMessage } from '../jsonrpc/messages.js';
import type { EditorChannel } from './editor.js';
import type { Session } from './session.js';

/** Turns the upstream's response into the editor's; `undefined` = forward the raw bytes. */
export type Transform = (resp: ResponseMessage) => Promise<object | undefined> | object | undefined;

export interface HandlerContext {
  readonly session: Session;
  readonly editor: EditorChannel;
  /** Whether a prover is behind premise-lsp at all (standalone mode: none). */
  readonly hasUpstream: boolean;
  /** A prover was there and is gone for good (given up, or could not start): its requests fail naming why. */
  readonly upstreamStopped: boolean;
  /** Does the upstream take this request? (Unknown before its initialize reply: assume yes; a stopped one takes nothing.) */
  upstreamTakes(method: string, params?: unknown): boolean;
  /** The completion trigger characters the upstream registered. */
  upstreamTriggers(): string[];
  /** Forward an editor request (optionally transforming the reply), or refuse it if the upstream can't take it. */
  forward(msg: RequestMessage, raw: Buffer, transform?: Transform): void;
  /** Answer a request here, asynchronously, honouring `$/cancelRequest` (which aborts `signal`). */
  runLocal(id: Id, work: (signal: AbortSignal) => Promise<unknown> | unknown): void;
  /** Immediate success reply. */
  replyNow(id: Id, result: unknown): void;
  /** Cancel a request answered here; false when it is not ours (forward the cancel). */
  cancelLocal(id: Id): boolean;
  /** Document sync goes out only while the prover is live; a restarted one gets the current text. */
  forwardDocSync(raw: Buffer): void;
}

/** What the session's owner gives the router (and through it the lifecycle handlers). */
export interface RouterOptions {
  /** Start an upstream named in settings (`upstreamCommand`) when none was given on the command line. */
  startUpstream(argv: string[]): void;
  /** The session is over (exit notification or editor gone); 0 after a proper shutdown. */
  onExit(code: number): void;
  version: string;
}
