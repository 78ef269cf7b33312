/**
 * `premise-lsp serve --stdio`: wire the editor's stdio, the upstream prover (if
 * any) and the router together, and run until the editor exits.
 */
import { constants as osConstants } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { customCommand, flavorOfCommand, type Flavor } from '../upstream/command.js';
import type { ChildSpec } from '../upstream/child.js';
import { FrameDecoder } from '../jsonrpc/framing.js';
import { UpstreamLink } from '../upstream/link.js';
import { FrameWriter } from '../jsonrpc/writer.js';
import { EditorChannel } from './editor.js';
import { initializeWaitMs } from './config.js';
import { EngineHost, type EngineLoader } from './engine-host.js';
import { Logger, type LogSink } from './log.js';
import { Router } from './router.js';
import { Session } from './session.js';
import { packageVersion } from '../paths.js';

export interface ServeOptions {
  /** Upstream command and arguments; absent = standalone. */
  upstream?: string[];
  /** Alternatively a full spec (cwd for Lean's project root). */
  upstreamSpec?: ChildSpec;
  /** Protocol family; guessed from the command when absent. */
  flavor?: Flavor;
  engine: EngineLoader;
  stdin: Readable | NodeJS.ReadableStream;
  stdout: Writable | NodeJS.WritableStream;
  log?: LogSink | Logger;
  /** First restart delay (doubles per crash). */
  restartDelayMs?: number;
  /** Default for the `upstreamHangTimeoutMs` setting. */
  hangTimeoutMs?: number;
  /** Default for the `upstreamInitializeTimeoutMs` setting. */
  initializeTimeoutMs?: number;
  /** Advertise the commands under this project's own names (args.ts `projectCommands`). */
  projectCommands?: boolean;
  /** Largest accepted message from the editor. */
  maxMessageBytes?: number;
  /**
   * Signals that end the session as `exit` does (the prover is stopped: stdin
   * closed, then SIGTERM, then SIGKILL); a second one kills the prover at once.
   * The process-wide handlers are removed when the session ends.
   */
  stopOnSignals?: NodeJS.Signals[];
  /** Called with the exit code when the session ends (default: set process.exitCode). */
  onExit?: (code: number) => void;
}

/**
 * Bytes of output queued for the editor past which its requests are no longer read until it
 * reads: far above one reply, far below what a flood of requests whose answers nobody reads
 * would pile up (2.1 GB in 30 s of completion requests before this bound).
 */
export const MAX_QUEUED_REPLY_BYTES = 1024 * 1024;

export async function serve(opts: ServeOptions): Promise<void> {
  const log = opts.log instanceof Logger ? opts.log : new Logger(opts.log ?? process.stderr);
  // Flow control: while the editor does not read what we write, the prover's output is not read either
  // (its writes wait, as they would with no proxy); while the prover does not read, the editor's input waits.
  const said = new Set<string>();
  const holding = (what: string) => {
    log.log(said.has(what) ? 'debug' : 'info', said.has(what) ? what : `${what} (logged once; later ones at debug level)`);
    said.add(what);
  };
  // The editor's input is held for either of two reasons: the prover does not read what it sends, or the
  // editor does not read the replies premise-lsp makes itself (completion, premise-lsp.search…), which
  // would otherwise pile up without bound (issue 36 item 3).
  const holds = new Set<'prover' | 'replies'>();
  const holdInput = (why: 'prover' | 'replies', on: boolean) => {
    if (on) holds.add(why);
    else holds.delete(why);
    if (holds.size) input.pause();
    else input.resume();
  };
  const writer = new FrameWriter(
    opts.stdout as Writable,
    (e) => log.error(`cannot write to the editor: ${e.message}`),
    (full) => {
      if (full) holding("the editor is not reading: holding the prover's output until it does");
      if (full) session.link?.holdOutput();
      else session.link?.releaseOutput();
    },
    {
      holdBytes: MAX_QUEUED_REPLY_BYTES,
      onHold: (on) => {
        if (on) holding('the editor is not reading its replies: holding its requests until it does');
        holdInput('replies', on);
      },
    },
  );
  const editor = new EditorChannel(writer);
  log.attachAlerts((type, message) => editor.showMessage(type, message));
  const session = new Session(new EngineHost(opts.engine, log), log);
  if (opts.hangTimeoutMs !== undefined) session.cfg.upstreamHangTimeoutMs = opts.hangTimeoutMs;
  if (opts.initializeTimeoutMs !== undefined) session.cfg.upstreamInitializeTimeoutMs = opts.initializeTimeoutMs;
  session.projectCommands = opts.projectCommands === true;

  const input = opts.stdin as Readable;
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  let ended = false;

  const startUpstream = (spec: ChildSpec, flavor?: Flavor) => {
    const f = flavor ?? flavorOfCommand(spec);
    const hooks = {
      ...router.hooks,
      onPressure: (full: boolean) => {
        if (full) holding("the prover is not reading: holding the editor's input until it does");
        holdInput('prover', full);
      },
    };
    const link = new UpstreamLink(spec, hooks, {
      restartDelayMs: opts.restartDelayMs,
      hangTimeoutMs: session.cfg.upstreamHangTimeoutMs,
      initializeTimeoutMs: initializeWaitMs(session.cfg, f),
    });
    session.setUpstream(link, f);
    if (writer.backedUp) link.holdOutput();
    link.start();
  };

  const router: Router = new Router(session, editor, {
    version: packageVersion(),
    startUpstream: (argv) => startUpstream(customCommand(argv)),
    onExit: (code) => {
      if (ended) return;
      ended = true;
      if (opts.onExit) opts.onExit(code);
      else process.exitCode = code;
      finish();
    },
  });

  const spec = opts.upstreamSpec ?? (opts.upstream && opts.upstream.length > 0 ? customCommand(opts.upstream) : undefined);
  if (spec) startUpstream(spec, opts.flavor);
  else log.info('no upstream server: running standalone (premises only)');

  const decoder = new FrameDecoder((f) => router.onEditorFrame(f), { maxBytes: opts.maxMessageBytes });
  input.on('data', (d: Buffer | string) => decoder.push(typeof d === 'string' ? Buffer.from(d, 'utf8') : d));
  input.on('end', () => void router.lifecycle.exit(undefined));
  input.on('error', (e) => {
    log.error(`editor input failed: ${e.message}`);
    void router.lifecycle.exit(undefined);
  });
  let signalled = false;
  const onSignal = (sig: NodeJS.Signals) => {
    if (signalled) {
      session.link?.kill(`${sig} received again while stopping`);
      return;
    }
    signalled = true;
    log.info(`${sig} received: stopping the prover and exiting`);
    void router.lifecycle.exit(undefined, 128 + (osConstants.signals[sig] ?? 0));
  };
  for (const sig of opts.stopOnSignals ?? []) process.on(sig, onSignal);
  await done;
  for (const sig of opts.stopOnSignals ?? []) process.off(sig, onSignal);
  input.removeAllListeners('data');
}
