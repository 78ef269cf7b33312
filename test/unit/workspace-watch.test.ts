/**
 * The workspace watcher of `http --project` (server/src/indexing/workspace-watch.ts) reads a file
 * only as the index build does: a file over the indexer's size cap is never read (a 300 MB `.lean`
 * file was read whole, +296 MB; issue 36 item 7), and what it declared before is removed.
 */
import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '../../indexes/src/extract/file.js';
import type { PremiseSearch } from '../../server/src/engine/types.js';
import { WorkspaceWatcher } from '../../server/src/indexing/workspace-watch.js';

describe('workspace watcher', () => {
  it('a file over the indexer\'s size cap is not read; what it declared is removed', async () => {
    const root = mkdtempSync(join(tmpdir(), 'premise-watch-'));
    const big = join(root, 'Big.lean');
    writeFileSync(big, 'theorem big_one : 1 = 1 := rfl\n');
    const removed: string[] = [];
    const upserted: string[] = [];
    const engine = {
      lookup: () => undefined,
      remove: (names: string[]) => void removed.push(...names),
      upsert: async (rs: { name: string }[]) => void upserted.push(...rs.map((r) => r.name)),
    } as unknown as PremiseSearch;
    const log: string[] = [];
    const w = new WorkspaceWatcher(engine, root, (l) => log.push(l), 60_000);
    await w.start();
    expect(log.join('\n')).not.toContain('skipped');
    // grown past the cap (sparse: no disk taken): not read, its declaration removed
    writeFileSync(big, 'theorem big_two : 2 = 2 := rfl\n');
    truncateSync(big, MAX_FILE_BYTES + 1);
    await (w as unknown as { scan(b: boolean): Promise<void> }).scan(false);
    expect(log.join('\n')).toContain(`${big} skipped, larger than ${MAX_FILE_BYTES / 2 ** 20} MiB`);
    expect(upserted).not.toContain('big_two');
    expect(removed).toContain('big_one');
    await w.stop();
  });
});
