/**
 * Owns the retrieval engine: loads it (with progress), reloads it when the
 * `index` setting changes, and hands it out without blocking when asked to.
 */
import type { PremiseSearch } from '../engine/types.js';
import type { Logger } from './log.js';

export type EngineLoader = (opts?: { index?: string }) => Promise<PremiseSearch> | PremiseSearch;

export class EngineHost {
  private engine: PremiseSearch | undefined;
  private loading: Promise<PremiseSearch | undefined> | undefined;
  private loadedIndex: string | undefined;
  private failure: string | undefined;

  constructor(
    private readonly loader: EngineLoader,
    private readonly log: Logger,
  ) {}

  /** Start (or restart, for a new index) loading. */
  load(index: string | undefined): Promise<PremiseSearch | undefined> {
    if (this.loading && index === this.loadedIndex) return this.loading;
    this.loadedIndex = index;
    const run = (async () => {
      const t0 = Date.now();
      try {
        const e = await this.loader(index === undefined ? undefined : { index });
        this.engine = e;
        this.failure = undefined;
        this.log.info(`engine ready: ${e.size} premises in ${Date.now() - t0} ms`);
        return e;
      } catch (err) {
        this.failure = (err as Error).message;
        this.log.error(`could not load the premise index: ${this.failure}`);
        return undefined;
      }
    })();
    this.loading = run;
    return run;
  }

  /** The engine if it is ready now (completion must not wait for a load). */
  now(): PremiseSearch | undefined {
    return this.engine;
  }

  /** Wait for the engine (commands, code actions, hover). */
  async get(): Promise<PremiseSearch | undefined> {
    if (this.engine) return this.engine;
    return this.loading ? await this.loading : undefined;
  }

  get error(): string | undefined {
    return this.failure;
  }
}
