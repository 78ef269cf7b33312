import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractFile } from '../../indexes/src/extract/file.js';

const root = mkdtempSync(join(tmpdir(), 'premise-extract-file-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('extractFile', () => {
  it('reads a file that starts with a byte order mark as the editor shows it: first-line columns count from after the mark', () => {
    const text = 'theorem first_line : True := trivial\ntheorem second_line : True := trivial\n';
    const decls = (bom: string) => {
      const path = join(root, `F${bom.length}.lean`);
      writeFileSync(path, bom + text);
      const r = extractFile({ path, rel: `F${bom.length}.lean`, module: 'F', lang: 'lean', root });
      expect(r.skipped).toBe(false);
      return r.decls.map((d) => ({ name: d.name, range: d.range, statement: d.statement }));
    };
    const plain = decls('');
    expect(plain.map((d) => d.name)).toEqual(['first_line', 'second_line']);
    expect(plain[0]!.range.start).toEqual({ line: 0, character: 0 });
    expect(decls('\uFEFF')).toEqual(plain);
  });
});
