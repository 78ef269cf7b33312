/**
 * Editor snippets of the documentation, read verbatim: a fenced block that
 * follows a marker line `<!-- test: NAME -->` in README.md, docs/*.md or
 * clients/**\/README.md. The client tests run the text of the block as it is
 * (no copy in a test), on a "global install" made here: a temporary npm prefix
 * whose `lib/node_modules/premise-lsp` is this checkout and whose
 * `bin/premise-lsp` is dist/cli.js, as `npm install -g` lays them out, with
 * `lake` on the same PATH being the fake Lean of test/doubles.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './util.js';

export interface Snippet {
  file: string; // relative to the repository root
  name: string;
  lang: string;
  body: string;
  line: number; // 1-based line of the marker
}

const MARKER = /^<!-- test: ([\w.-]+) -->\s*$/;

/** The documentation files that may hold editor snippets. */
export function docFiles(): string[] {
  const files = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  for (const d of readdirSync(join(ROOT, 'clients'), { withFileTypes: true })) {
    if (d.isDirectory()) files.push(...readdirSync(join(ROOT, 'clients', d.name)).filter((f) => f === 'README.md').map((f) => `clients/${d.name}/${f}`));
  }
  files.push('clients/README.md');
  return files;
}

/** Every fenced block of `text`: its language, body, and the marker before it (if any). */
export function fencedBlocks(text: string): { lang: string; body: string; marker?: string; line: number }[] {
  const lines = text.split('\n');
  const out: { lang: string; body: string; marker?: string; line: number }[] = [];
  let marker: { name: string; line: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const m = MARKER.exec(lines[i].trim());
    if (m) {
      marker = { name: m[1], line: i + 1 };
      continue;
    }
    const fence = /^(\s*)```(\w*)\s*$/.exec(lines[i]);
    if (fence) {
      const indent = fence[1].length;
      const body: string[] = [];
      let j = i + 1;
      for (; j < lines.length && !/^\s*```\s*$/.test(lines[j]); j++) body.push(lines[j].slice(Math.min(indent, lines[j].search(/\S|$/))));
      out.push({ lang: fence[2], body: body.join('\n') + '\n', marker: marker?.name, line: marker?.line ?? i + 1 });
      marker = undefined;
      i = j;
      continue;
    }
    if (lines[i].trim() !== '') marker = undefined; // a marker names the block right after it
  }
  return out;
}

/** The snippet named `name` in `file` (relative to the repository root), verbatim. */
export function snippet(file: string, name: string): Snippet {
  const blocks = fencedBlocks(readFileSync(join(ROOT, file), 'utf8')).filter((b) => b.marker === name);
  if (blocks.length !== 1) throw new Error(`${file}: expected one fenced block after <!-- test: ${name} -->, found ${blocks.length}`);
  const [b] = blocks;
  return { file, name, lang: b.lang, body: b.body, line: b.line };
}

/**
 * A global install of this checkout in a temp prefix (npm's layout:
 * PREFIX/bin/premise-lsp → dist/cli.js, PREFIX/lib/node_modules/premise-lsp →
 * the checkout), `lake` on PATH as the fake Lean, a fresh automatic-index
 * cache and no elan toolchain. The environment an editor under test gets.
 */
export function globalInstall(): { prefix: string; env: Record<string, string> } {
  const prefix = mkdtempSync(join(tmpdir(), 'premise-lsp-prefix-'));
  mkdirSync(join(prefix, 'bin'));
  mkdirSync(join(prefix, 'lib', 'node_modules'), { recursive: true });
  symlinkSync(ROOT, join(prefix, 'lib', 'node_modules', 'premise-lsp'));
  symlinkSync('../lib/node_modules/premise-lsp/dist/cli.js', join(prefix, 'bin', 'premise-lsp')); // as npm links it
  const lake = join(prefix, 'bin', 'lake');
  // `lake --version` answers as Lake does (premise-lsp doctor asks it); any other use is `lake serve`: the fake Lean
  writeFileSync(lake, `#!/bin/sh\nif [ "$1" = --version ]; then echo 'Lake version 5.0.0-fake (Lean version 4.0.0-fake)'; exit 0; fi\nexec "${process.execPath}" "${join(ROOT, 'test/doubles/fake-lean.mjs')}"\n`);
  chmodSync(lake, 0o755);
  const node = join(prefix, 'bin', 'node'); // dist/cli.js's `#!/usr/bin/env node`: this node
  symlinkSync(process.execPath, node);
  return {
    prefix,
    env: {
      PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}`,
      PREMISE_LSP_CACHE: join(prefix, 'cache'),
      ELAN_HOME: join(prefix, 'no-elan'),
    },
  };
}
