/**
 * Every editor snippet of the documentation (a fenced Lua, Vim script or Emacs
 * Lisp block in README.md, docs/*.md, clients/README.md, clients/*\/README.md)
 * is run verbatim by a client test: it follows a `<!-- test: NAME -->` marker,
 * and a test under test/clients reads it with `snippet(FILE, NAME)`. None sets
 * an index: the snippets rely on the automatic index (setting one turns it off).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docFiles, fencedBlocks } from '../clients/snippets.js';
import { ROOT } from '../clients/util.js';

const EDITOR_LANGS = new Set(['lua', 'vim', 'elisp', 'emacs-lisp', 'lisp']);

function editorBlocks() {
  return docFiles().flatMap((file) => fencedBlocks(readFileSync(join(ROOT, file), 'utf8')).filter((b) => EDITOR_LANGS.has(b.lang)).map((b) => ({ file, ...b })));
}

/** (file, name) pairs the client tests read, from their `snippet('FILE', 'NAME')` calls. */
function testedSnippets(): Set<string> {
  const dir = join(ROOT, 'test/clients');
  const names = new Set<string>();
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    for (const m of readFileSync(join(dir, f), 'utf8').matchAll(/snippet\('([^']+)', '([^']+)'\)/g)) names.add(`${m[1]}#${m[2]}`);
  }
  return names;
}

describe('editor snippets of the documentation', () => {
  it('finds the snippets (README and docs/editors.md have some)', () => {
    const files = new Set(editorBlocks().map((b) => b.file));
    expect(files).toContain('README.md');
    expect(files).toContain('docs/editors.md');
  });

  it('every one has a test marker, and a client test that reads it', () => {
    const tested = testedSnippets();
    for (const b of editorBlocks()) {
      expect(b.marker, `${b.file}:${b.line}: a ${b.lang} block without <!-- test: NAME --> before it`).toBeDefined();
      expect(tested.has(`${b.file}#${b.marker}`), `${b.file}:${b.line}: no test under test/clients reads snippet('${b.file}', '${b.marker}')`).toBe(true);
    }
  });

  it('every snippet a test reads exists, once', () => {
    const blocks = editorBlocks();
    for (const key of testedSnippets()) {
      const [file, name] = key.split('#');
      expect(blocks.filter((b) => b.file === file && b.marker === name), key).toHaveLength(1);
    }
  });

  it('none sets an index (they rely on the automatic index)', () => {
    for (const b of editorBlocks()) {
      expect(b.body, `${b.file}:${b.line}`).not.toMatch(/\bindex\s*=|premise-lsp-index|--index|\.cache\/premise-lsp\/(?!indexes)/);
    }
  });

  it('reads a block after its marker only (a marker names the block right after it)', () => {
    const blocks = fencedBlocks('<!-- test: a -->\n```lua\nx = 1\n```\n\ntext\n\n```lua\ny = 2\n```\n<!-- test: b -->\n\n  ```elisp\n  (z)\n  ```\n');
    expect(blocks.map((b) => [b.marker, b.lang, b.body])).toEqual([
      ['a', 'lua', 'x = 1\n'],
      [undefined, 'lua', 'y = 2\n'],
      ['b', 'elisp', '(z)\n'],
    ]);
  });
});
