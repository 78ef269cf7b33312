/** openEngine over several index directories: one engine, premises from each, one encoder for all. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexes/src/build.js';
import { openEngine } from '../../server/src/engine/open.js';
import { DEP_THEOREM, lakeFixture, WS_THEOREM } from './lake-project.js';
import { fakeEncoder } from './engine-helpers.js';

describe('openEngine with several index directories', () => {
  const f = lakeFixture();
  const tmp = mkdtempSync(join(tmpdir(), 'premise-lsp-open-'));
  const dep = join(tmp, 'dep');
  const ws = join(tmp, 'ws');
  const built = Promise.all([
    buildIndex({ sources: [f.depDir], out: dep }),
    buildIndex({ sources: [f.root], out: ws, packages: false }),
  ]);

  it('finds premises from each directory', async () => {
    const [d, w] = await built;
    expect(d.declarations).toBe(1);
    expect(w.declarations).toBe(1); // the workspace index does not contain the dependency
    const engine = await openEngine([dep, ws], { defaultReranker: false });
    expect(engine.size).toBe(2);
    const names = async (q: string) => (await engine.search(q, { k: 5, mode: 'bm25' })).map((h) => h.name);
    expect(await names('zorble frob')).toContain(DEP_THEOREM);
    expect(await names('quux wibble')).toContain(WS_THEOREM);
    expect((await openEngine(ws, { defaultReranker: false })).size).toBe(1); // one directory still works
  });

  it('refuses directories built with different encoders, naming them', async () => {
    await built;
    const denseA = join(tmp, 'dense-a');
    const denseB = join(tmp, 'dense-b');
    await buildIndex({ sources: [f.depDir], out: denseA, encoder: fakeEncoder('enc-a'), encoderDir: join(tmp, 'no-such-encoder') });
    await buildIndex({ sources: [f.root], out: denseB, encoder: fakeEncoder('enc-b'), encoderDir: join(tmp, 'no-such-encoder'), packages: false });
    await expect(openEngine([denseA, denseB], { defaultReranker: false })).rejects.toThrow(/different encoders.*enc-a.*enc-b/);
    await expect(openEngine([dep, denseB], { defaultReranker: false })).rejects.toThrow(/different encoders.*no encoder.*enc-b/);
    await expect(openEngine([], { defaultReranker: false })).rejects.toThrow(/no index directory/);
  });
});
