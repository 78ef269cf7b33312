/**
 * Portable indexes: an index names its encoder by content id, so it opens with this
 * installation's shipped encoder wherever the index was built (an older index that
 * recorded the encoder's absolute path opens too once that path is gone); an encoder
 * this installation does not have is one error naming the id and the rebuild command.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexes/src/build.js';
import { loadEncoder } from '../../models/src/encoder.js';
import { openEngine } from '../../server/src/engine/open.js';
import { defaultModelDir } from '../../server/src/paths.js';

const ROOT = resolve(__dirname, '../..');
const SAMPLE = join(ROOT, 'test/fixtures/sample');
const TINY = join(ROOT, 'test/fixtures/tiny-encoder');
const tmp = mkdtempSync(join(tmpdir(), 'premise-portable-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const STATE = 'a b : ℕ\n⊢ a + b = b + a';

/** Builds the sample with the encoder in a copy of `modelDir` (named `name`), which is then deleted. */
async function buildWithMovedEncoder(modelDir: string, name: string, out: string): Promise<string> {
  const copy = join(mkdtempSync(join(tmp, 'install-')), name);
  cpSync(modelDir, copy, { recursive: true });
  const encoder = await loadEncoder(copy);
  try {
    await buildIndex({ sources: [SAMPLE], out, encoder, encoderDir: copy, packages: false });
  } finally {
    await encoder.dispose();
  }
  rmSync(copy, { recursive: true, force: true });
  return (JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { encoder: { id: string } }).encoder.id;
}

describe('an index names its encoder by content id', () => {
  it('opens with the shipped encoder after the encoder it was built with has moved away', async () => {
    const out = join(tmp, 'moved');
    const id = await buildWithMovedEncoder(defaultModelDir(), 'default', out);
    const shipped = await loadEncoder(defaultModelDir());
    expect(shipped.id).toBe(id);
    await shipped.dispose();
    const engine = await openEngine(out);
    const hits = await engine.search(STATE, { k: 3, mode: 'dense' });
    expect(hits[0]?.name).toBe("Nat.add_comm'");
    expect(hits[0]?.parts.dense).toBeGreaterThan(0);
  });

  it('an encoder this installation does not have is one error naming the id and the command that rebuilds the index', async () => {
    const out = join(tmp, 'unknown');
    const id = await buildWithMovedEncoder(TINY, 'my-encoder', out);
    expect(id).toMatch(/^my-encoder-[0-9a-f]{12}$/);
    const err = await openEngine(out).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toContain(`the index ${out} was built with encoder ${id}, which this installation does not have`);
    expect(err?.message).toContain(`premise-lsp index ${SAMPLE} --out ${out}`);
    // sparse-only use of the same index needs no encoder
    expect((await openEngine(out, { sparseOnly: true }).then((e) => e.search(STATE, { k: 1 })))[0]?.name).toBe("Nat.add_comm'");
  });

  it('a directory that now holds another encoder is not taken for the recorded one', async () => {
    const out = join(tmp, 'replaced');
    const copy = join(mkdtempSync(join(tmp, 'byo-')), 'default');
    cpSync(TINY, copy, { recursive: true });
    const encoder = await loadEncoder(copy);
    await buildIndex({ sources: [SAMPLE], out, encoder, encoderDir: copy, packages: false });
    await encoder.dispose();
    // the directory is still there, with the same name, but another model in it
    rmSync(copy, { recursive: true, force: true });
    cpSync(join(TINY, 'hidden'), copy, { recursive: true });
    await expect(openEngine(out)).rejects.toThrow(`was built with encoder ${encoder.id}, which this installation does not have`);
  });
});
