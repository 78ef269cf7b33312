/**
 * A tree can hold more skipped entries (dangling links, FIFOs named `*.lean`)
 * than a function call takes arguments: they are each counted, and the build
 * goes on. (200k dangling links made `index` fail with "Maximum call stack size
 * exceeded"; the walk is stubbed here, making them would be slow.)
 */
import { describe, expect, it, vi } from 'vitest';

const SKIPPED = Array.from({ length: 300_000 }, (_, i) => `/x/X${i}.lean: skipped, not a regular file`);
vi.mock('../../indexes/src/extract/walk.js', () => ({
  discoverSources: () => ({ files: [], warnings: [], skipped: [...SKIPPED] }),
}));

const { extractCorpus } = await import('../../indexes/src/build.js');

describe('a tree with more skipped entries than a call takes arguments', () => {
  it('counts every one, with its warning', async () => {
    const c = await extractCorpus(['/x']);
    expect(c.skippedFiles).toBe(300_000);
    expect(c.warnings).toHaveLength(300_000);
    expect(c.records).toEqual([]);
  });
});
