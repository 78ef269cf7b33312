/** The `buildIndex` hook of `index --llm`: informal statements for the sources' own declarations, with progress and a summary line. */
import type { OnProgress } from '../../../indexes/src/build.js';
import type { PremiseRecord } from '../../../indexes/src/extract/record.js';
import { InformalCache, informalCacheDir } from './cache.js';
import type { LlmClient } from './client.js';
import { informalize } from './informalize.js';

export interface HookOptions {
  /** Most declarations to informalize (default: all the sources' own). */
  max?: number;
  /** Cache directory (default: informalCacheDir()). */
  cacheDir?: string;
  onProgress?: OnProgress;
  log: (line: string) => void;
}

export function informalizeHook(client: LlmClient, opts: HookOptions) {
  return async (records: PremiseRecord[], own: ReadonlySet<string>): Promise<void> => {
    const mine = records.filter((r) => own.has(r.name));
    const cache = new InformalCache(opts.cacheDir ?? informalCacheDir());
    const s = await informalize(mine, client, cache, { max: opts.max, onProgress: (done, total) => opts.onProgress?.({ phase: 'informal', done, total }) });
    opts.log(
      `informal statements (LLM ${client.model}): ${s.written} of ${Math.min(mine.length, opts.max ?? mine.length)} declarations, ` +
        `${s.cached} from the cache (${cache.dir}), ${client.requests} requests` +
        (s.failed ? `, ${s.failed} failed${s.gaveUp ? ' (the endpoint kept failing: stopped asking)' : ''} (first: ${s.firstError})` : '') +
        (cache.writeError ? `; the cache is not usable (${cache.writeError}), so the next build asks again` : ''),
    );
  };
}
