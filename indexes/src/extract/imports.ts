/**
 * What a source file imports, read from its header, and where an added import
 * goes: Lean's `import` lines (`public`/`meta` prefixes and `all` allowed, after
 * an optional `module`/`prelude`), Isabelle's `theory … imports … begin`. Module
 * names are the index's (`walk.ts`): Lean's dotted names as written, Isabelle
 * theories by base name (`"HOL-Library.Multiset"` → `Multiset`). Never throws.
 */
import type { Lang } from './record.js';
import { lexIsabelle, tokenBody, type Token } from './isabelle/lexer.js';
import { importSyntax } from './module-names.js';

export interface HeaderImports {
  /** The modules the header imports, in order. */
  imports: string[];
  /** Lean `prelude`: `Init` is not imported implicitly. */
  prelude: boolean;
  /**
   * The insertion that imports one more module: text at an offset of the source.
   * None for a name that cannot be written as an import (`module-names.ts`), for a
   * theory without a header, and where the header leaves no place outside a comment.
   */
  add(module: string): { offset: number; text: string } | undefined;
}

/** Lean header words that may stand before `import` on its line. */
const LEAN_IMPORT_PREFIX = new Set(['public', 'meta', 'private']);

/**
 * Lean: does a doc comment (`/--`, `/-!`) open at `i`? It is a token, not white space: the
 * header ends before it (an import after it does not parse), and its text starts after the
 * three characters, so `/--/` opens one that the `/` does not close (issue 36 item 6).
 */
const docCommentAt = (text: string, i: number) => text.startsWith('/--', i) || text.startsWith('/-!', i);

/** Lean: skips whitespace and comments (nested `/- -/`) from `i`; stops at a doc comment. */
function skipLean(text: string, i: number): number {
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (text.startsWith('--', i)) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl + 1;
    } else if (text.startsWith('/-', i) && !docCommentAt(text, i)) {
      i = blockCommentEnd(text, i) ?? text.length;
    } else return i;
  }
}

/**
 * Past the Lean block comment (nested) opening at `at`; undefined when it never ends. As Lean
 * reads it, the comment's text starts after the opener and the character after it (`/-x`),
 * so `-/` cannot close it before its third character.
 */
function blockCommentEnd(text: string, at: number): number | undefined {
  let depth = 1;
  let i = at + 3;
  while (i < text.length && depth > 0) {
    if (text.startsWith('/-', i)) (depth++, (i += 2));
    else if (text.startsWith('-/', i)) (depth--, (i += 2));
    else i++;
  }
  return depth > 0 ? undefined : i;
}

/**
 * Lean: where a line goes after the header item ending at `end`: the start of the
 * next line, unless a block comment opens on this line (then after the line the
 * comment ends on) or a command follows on it (then on a line of its own before
 * it). Undefined when a comment opened there never ends: no place outside it.
 */
function afterLine(text: string, end: number, line: string): { offset: number; text: string } | undefined {
  let i = end;
  for (;;) {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\r')) i++;
    if (i >= text.length) return { offset: text.length, text: `\n${line}` };
    if (text[i] === '\n') return { offset: i + 1, text: `${line}\n` };
    if (text.startsWith('--', i)) {
      const nl = text.indexOf('\n', i);
      return nl < 0 ? { offset: text.length, text: `\n${line}` } : { offset: nl + 1, text: `${line}\n` };
    }
    if (text.startsWith('/-', i) && !docCommentAt(text, i)) {
      const after = blockCommentEnd(text, i);
      if (after === undefined) return undefined;
      i = after;
      continue;
    }
    return { offset: i, text: `\n${line}\n` };
  }
}

/** Lean: does a block comment opened before `end` stay open there? */
function inOpenComment(text: string, end: number): boolean {
  let depth = 0;
  for (let i = 0; i < end; ) {
    if (depth === 0 && text.startsWith('--', i)) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? end : nl + 1;
    } else if (text.startsWith('/-', i)) (depth++, (i += depth === 1 ? 3 : 2)); // an outermost opener takes the character after it
    else if (depth > 0 && text.startsWith('-/', i)) (depth--, (i += 2));
    else i++;
  }
  return depth > 0;
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
    const name = importSyntax(module, 'lean');
    if (name === undefined) return undefined;
    // after the line of the last import (or of `module`/`prelude`), past any comment that line opens
    const end = lastEnd >= 0 ? lastEnd : afterPrelude;
    if (end >= 0) return afterLine(text, end, `import ${name}`);
    // no header: before the first command, after the leading comments (on a line of its own when a comment ends on the command's line)
    if (inOpenComment(text, first)) return undefined;
    const lineStart = text.lastIndexOf('\n', first - 1) + 1;
    if (text.slice(lineStart, first).trim()) return { offset: first, text: `\nimport ${name}\n` };
    return { offset: lineStart, text: `import ${name}\n` };
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
    const name = importSyntax(module, 'isabelle');
    if (name === undefined) return undefined;
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
    return { imports: [], prelude: false, add: () => undefined };
  }
}
