/**
 * An index's JSON sidecars (imports.json, external-refs.json, …) are read as its other files
 * are (issue 31 item 16): listed in the manifest with size and CRC-32 and checked before they
 * are parsed; only a regular file (a FIFO hung the reader, a link to /dev/zero grew to 12 GB);
 * an unlisted one (an older index) at most 64 MiB (a 115 MB one took 21 s and 2.15 GB).
 * The hanging cases on the built CLI, in bounded processes: test/cli/sidecar-hostile.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexes/src/build.js';
import { EXTERNAL_REFS_FILE, readExternalRefs } from '../../indexes/src/external-refs.js';
import { IMPORTS_FILE, readModuleImports } from '../../indexes/src/module-imports.js';
import { MAX_SIDECAR_BYTES } from '../../indexes/src/store/sidecar.js';
import { MAX_MANIFEST_BYTES, readManifest } from '../../indexes/src/store/index-dir.js';

const SAMPLE = join(__dirname, '..', 'fixtures', 'sample');

async function sampleIndex(): Promise<string> {
  const out = join(mkdtempSync(join(tmpdir(), 'premise-sidecar-')), 'idx');
  await buildIndex({ sources: [SAMPLE], out });
  return out;
}

const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));

describe('index sidecars', () => {
  it('imports.json is listed in the manifest and checked against it', async () => {
    const dir = await sampleIndex();
    const listed = manifestOf(dir).files[IMPORTS_FILE];
    expect(listed).toMatchObject({ bytes: readFileSync(join(dir, IMPORTS_FILE)).length });
    expect(readModuleImports(dir).size).toBeGreaterThan(0);
    // replaced by valid JSON of another size, then of the same size
    const text = readFileSync(join(dir, IMPORTS_FILE), 'utf8');
    writeFileSync(join(dir, IMPORTS_FILE), text + ' ');
    expect(() => readModuleImports(dir)).toThrow(/imports\.json: size \d+ bytes, manifest says \d+ \(truncated or replaced\)/);
    writeFileSync(join(dir, IMPORTS_FILE), text.replace('{', ' ').replace(/}\s*$/, '}}'));
    expect(() => readModuleImports(dir)).toThrow(/imports\.json: checksum mismatch/);
    // not a regular file: never opened
    rmSync(join(dir, IMPORTS_FILE));
    symlinkSync('/dev/zero', join(dir, IMPORTS_FILE));
    expect(() => readModuleImports(dir)).toThrow(/index file .*imports\.json: not a regular file/);
    rmSync(join(dir, IMPORTS_FILE));
    expect(spawnSync('mkfifo', [join(dir, IMPORTS_FILE)]).status).toBe(0);
    expect(() => readModuleImports(dir)).toThrow(/imports\.json: not a regular file/);
  });

  it('an unlisted sidecar (an index built before they were listed) is read up to 64 MiB', async () => {
    const dir = await sampleIndex();
    const m = manifestOf(dir);
    delete m.files[IMPORTS_FILE];
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m));
    expect(readModuleImports(dir).size).toBeGreaterThan(0);
    truncateSync(join(dir, IMPORTS_FILE), MAX_SIDECAR_BYTES + 1);
    expect(() => readModuleImports(dir)).toThrow(/imports\.json: 67108865 bytes, more than the 64 MiB an unlisted imports\.json may have; rebuild the index/);
  });

  it('external-refs.json: the same checks', async () => {
    const dir = await sampleIndex();
    rmSync(join(dir, EXTERNAL_REFS_FILE), { force: true });
    expect(readExternalRefs(dir, 10)).toBeUndefined();
    writeFileSync(join(dir, EXTERNAL_REFS_FILE), ' '.repeat(MAX_SIDECAR_BYTES + 1));
    expect(() => readExternalRefs(dir, 10)).toThrow(/external-refs\.json: \d+ bytes, more than the 64 MiB/);
    rmSync(join(dir, EXTERNAL_REFS_FILE));
    symlinkSync('/dev/zero', join(dir, EXTERNAL_REFS_FILE));
    expect(() => readExternalRefs(dir, 10)).toThrow(/external-refs\.json: not a regular file/);
    rmSync(join(dir, EXTERNAL_REFS_FILE));
    expect(spawnSync('mkfifo', [join(dir, EXTERNAL_REFS_FILE)]).status).toBe(0);
    expect(() => readExternalRefs(dir, 10)).toThrow(/external-refs\.json: not a regular file/);
  });
});

describe('sizes past what can be read (issue 36 item 7)', () => {
  it('a sidecar listed (and truly) 2 GiB: an error naming it, not a range error without a path', async () => {
    const dir = await sampleIndex();
    const m = manifestOf(dir);
    m.files[IMPORTS_FILE].bytes = 2 ** 31;
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m));
    truncateSync(join(dir, IMPORTS_FILE), 2 ** 31); // sparse: no disk taken
    expect(() => readModuleImports(dir)).toThrow(new RegExp(`${join(dir, IMPORTS_FILE).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: 2147483648 bytes, more than`));
  });

  it('a manifest over MAX_MANIFEST_BYTES is not read: an error naming it', async () => {
    const dir = await sampleIndex();
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifestOf(dir)) + ' '.repeat(MAX_MANIFEST_BYTES));
    expect(() => readManifest(dir)).toThrow(/manifest\.json: \d+ bytes, more than the 4 MiB a manifest may have/);
  });
});
