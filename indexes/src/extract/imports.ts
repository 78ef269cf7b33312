/**
 * What a source file imports, read from its header, and where an added import
 * goes: Lean's `import` lines (`public`/`meta` prefixes and `all` allowed, after
 * an optional `module`/`prelude`), Isabelle's `theory … imports … begin`. Module
 * names are the index's (`walk.ts`): Lean's dotted names as written, Isabelle
 * theories by base name (`"HOL-Library.Multiset"` → `Multiset`). Never throws.
 */
import type { Lang } from './record.js';
import { lexIsabelle, tokenBody, type Token } from './isabelle/lexer.js';

export interface HeaderImports {
  /** The modules the header imports, in order. */
  imports: string[];
  /** Lean `prelude`: `Init` is not imported implicitly. */
  prelude: boolean;
  /** The insertion that imports one more module: text at an offset of the source (none for a theory without a header). */
  add(module: string): { offset: number; text: string } | undefined;
}

/** Lean header words that may stand before `import` on its line. */
const LEAN_IMPORT_PREFIX = new Set(['public', 'meta', 'private']);

/** Lean: skips whitespace and comments (nested `/- -/`) from `i`. */
function skipLean(text: string, i: number): number {
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (text.startsWith('--', i)) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl + 1;
    } else if (text.startsWith('/-', i)) {
      let depth = 1;
      i += 2;
      while (i < text.length && depth > 0) {
        if (text.startsWith('/-', i)) (depth++, (i += 2));
        else if (text.startsWith('-/', i)) (depth--, (i += 2));
        else i++;
      }
    } else return i;
  }
}

/** Lean: the word at `i` (a name, `«…»` parts kept), and where it ends. */
function leanWord(text: string, i: number): { word: string; end: number } {
  let j = i;
  while (j < text.length) {
    if (text[j] === '«') {
      const close = text.indexOf('»', j);
      j = close < 0 ? text.length : close + 1;
    } else if (/[^\s()\[\]{},:;]/u.test(text[j]!) && !text.startsWith('--', j) && !text.startsWith('/-', j)) j++;
    else break;
  }
  return { word: text.slice(i, j), end: j };
}

function leanHeader(text: string): HeaderImports {
  const imports: string[] = [];
  let prelude = false;
  let i = skipLean(text, 0);
  const first = i;
  let lastEnd = -1; // end of the last import's module name
  let afterPrelude = -1;
  for (let guard = 0; guard < 100_000 && i < text.length; guard++) {
    const w = leanWord(text, i);
    if (w.word === 'module' || w.word === 'prelude') {
      if (w.word === 'prelude') prelude = true;
      afterPrelude = w.end;
      i = skipLean(text, w.end);
      continue;
    }
    let j = i;
    let word = w;
    while (LEAN_IMPORT_PREFIX.has(word.word)) {
      j = skipLean(text, word.end);
      word = leanWord(text, j);
    }
    if (word.word !== 'import') break;
    j = skipLean(text, word.end);
    let name = leanWord(text, j);
    if (name.word === 'all') name = leanWord(text, (j = skipLean(text, name.end)));
    if (!name.word) break;
    imports.push(name.word.replace(/[«»]/g, ''));
    lastEnd = name.end;
    i = skipLean(text, name.end);
  }
  const add = (module: string) => {
    if (lastEnd >= 0) {
      // after the line of the last import
      const nl = text.indexOf('\n', lastEnd);
      return nl < 0 ? { offset: text.length, text: `\nimport ${module}` } : { offset: nl + 1, text: `import ${module}\n` };
    }
    if (afterPrelude >= 0) {
      const nl = text.indexOf('\n', afterPrelude);
      return nl < 0 ? { offset: text.length, text: `\nimport ${module}` } : { offset: nl + 1, text: `import ${module}\n` };
    }
    // no header: before the first command, after the leading comments
    const lineStart = text.lastIndexOf('\n', first - 1) + 1;
    return { offset: lineStart, text: `import ${module}\n` };
  };
  return { imports, prelude, add };
}

/** Isabelle tokens up to the header's `begin` (a prefix of the text is lexed when it holds the whole header). */
function isabelleHeaderTokens(text: string): Token[] {
  const re = /\bbegin\b/g;
  for (let m = re.exec(text), tries = 0; m && tries < 8; m = re.exec(text), tries++) {
    const toks = lexIsabelle(text.slice(0, m.index + 5)).tokens;
    if (toks.some((t) => t.kind === 'ident' && t.text === 'begin')) return toks;
  }
  return lexIsabelle(text).tokens;
}

const QUOTE_NEEDED = /[^A-Za-z0-9_'.]/;

function isabelleHeader(text: string): HeaderImports {
  const toks = isabelleHeaderTokens(text);
  const imports: string[] = [];
  let i = toks.findIndex((t) => t.kind === 'ident' && t.text === 'theory');
  let nameEnd = -1;
  let lastEnd = -1;
  let inImports = false;
  if (i >= 0) {
    nameEnd = toks[i + 1]?.end ?? toks[i]!.end;
    for (i += 2; i < toks.length; i++) {
      const t = toks[i]!;
      if (t.kind === 'ident' && (t.text === 'begin' || t.text === 'keywords' || t.text === 'abbrevs')) break;
      if (t.kind === 'ident' && t.text === 'imports') {
        inImports = true;
        lastEnd = t.end;
        continue;
      }
      if (inImports && (t.kind === 'ident' || t.kind === 'str')) {
        const raw = t.kind === 'str' ? tokenBody(t) : t.text;
        const base = raw.split('/').pop()!;
        const dot = base.lastIndexOf('.');
        imports.push(dot >= 0 && !raw.includes('/') ? base.slice(dot + 1) : base);
        lastEnd = t.end;
      }
    }
  }
  const add = (module: string) => {
    const name = QUOTE_NEEDED.test(module) ? `"${module}"` : module;
    if (lastEnd >= 0) return { offset: lastEnd, text: ` ${name}` };
    if (nameEnd >= 0) return { offset: nameEnd, text: ` imports ${name}` };
    return undefined;
  };
  return { imports, prelude: false, add };
}

export function headerImports(text: string, lang: Lang): HeaderImports {
  try {
    return lang === 'lean' ? leanHeader(text) : isabelleHeader(text);
  } catch {
    return { imports: [], prelude: false, add: (m) => (lang === 'lean' ? { offset: 0, text: `import ${m}\n` } : undefined) };
  }
}
