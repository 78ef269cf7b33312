/**
 * Owns the retrieval engine: loads it (with progress), reloads it when the
 * `index` or `autoIndex` setting changes, and hands it out without blocking when
 * asked to.
 */
import type { PremiseSearch } from '../engine/types.js';
import type { Logger } from './log.js';
import type { ProgressReporter } from './progress.js';

/** What to load: an index directory, or else (autoIndex) the automatic index of a Lake project. */
export interface LoadRequest {
  index?: string;
  /** Build or reuse the automatic index when no index is given (default true). */
  autoIndex?: boolean;
  /** The editor's workspace folder, a candidate Lake project root. */
  workspaceRoot?: string;
  /** Opens a `$/progress` (for builds; waits until the editor may be sent requests). */
  progress?: (title: string) => Promise<ProgressReporter>;
  log?: Logger;
  /** Told which project the automatic index serves (undefined: none found); not called for an index or the fixture engine. */
  onProject?: (root: string | undefined) => void;
  /** Given by the host: replaces the loaded engine with a better one (the automatic index's hybrid one after its sparse one). */
  upgrade?: (engine: PremiseSearch) => void;
}

/**
 * How long hover and code actions wait for an index still loading before they answer without its
 * premises (the prover's hover, the trials' verdicts): a loaded index answers in milliseconds.
 */
export const INTERACTIVE_WAIT_MS = 2000;

export type EngineLoader = (opts?: LoadRequest) => Promise<PremiseSearch> | PremiseSearch;

export class EngineHost {
  private engine: PremiseSearch | undefined;
  private loading: Promise<PremiseSearch | undefined> | undefined;
  private loadedKey: string | undefined;
  /** Counts loads: a slow load (an automatic index build) finishing after a newer one must not replace it. */
  private generation = 0;
  private failure: string | undefined;
  private readonly upgradeListeners: Array<(engine: PremiseSearch) => void> = [];

  constructor(
    private readonly loader: EngineLoader,
    private readonly log: Logger,
  ) {}

  /** Start (or restart, for a new index) loading; an index path alone is a request for it. */
  load(request: string | LoadRequest | undefined): Promise<PremiseSearch | undefined> {
    const req: LoadRequest | undefined = typeof request === 'string' ? { index: request } : request;
    const key = JSON.stringify([req?.index, req?.autoIndex, req?.workspaceRoot]);
    if (this.loading && key === this.loadedKey) return this.loading;
    this.loadedKey = key;
    const gen = ++this.generation;
    const run = (async () => {
      const t0 = Date.now();
      try {
        const upgrade = (e: PremiseSearch) => {
          if (gen !== this.generation) return; // superseded
          this.engine = e;
          this.log.info(`engine upgraded: ${e.size} premises`);
          for (const l of this.upgradeListeners) l(e);
        };
        const e = await this.loader({ ...req, log: req?.log ?? this.log, upgrade });
        if (gen !== this.generation) return e; // superseded by a newer load
        this.engine = e;
        this.failure = undefined;
        this.log.info(`engine ready: ${e.size} premises in ${Date.now() - t0} ms`);
        return e;
      } catch (err) {
        if (gen !== this.generation) return undefined;
        this.failure = (err as Error).message;
        // the loader's message says how to fix it
        this.log.alert('error', `could not load the premise index: ${this.failure}`);
        return undefined;
      }
    })();
    this.loading = run;
    return run;
  }

  /** Called when a loaded engine is replaced by a better one of the same load (its overlay starts empty). */
  onUpgrade(listener: (engine: PremiseSearch) => void): void {
    this.upgradeListeners.push(listener);
  }

  /** The engine if it is ready now (completion must not wait for a load). */
  now(): PremiseSearch | undefined {
    return this.engine;
  }

  /**
   * Wait for the engine: for ever (commands: their caller asked for premises), or at most `waitMs`
   * (hover, code actions: the prover's own answer must not be held while an index loads or a first
   * automatic index builds, which takes minutes; test/protocol/engine-wait.test.ts).
   */
  async get(waitMs?: number): Promise<PremiseSearch | undefined> {
    if (this.engine) return this.engine;
    if (!this.loading) return undefined;
    if (waitMs === undefined) return await this.loading;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), waitMs);
    });
    try {
      return await Promise.race([this.loading, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  get error(): string | undefined {
    return this.failure;
  }
}
