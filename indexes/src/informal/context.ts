/**
 * The prose around a declaration: the title of its module docstring
 * (`/-! # Title … -/`) and the latest section heading above it (`## …` inside a
 * module doc), or, in an Isabelle theory, the latest `chapter`/`section`/
 * `subsection` title and the `text ‹…›` block just before the fact. Stored in the
 * record's `context` and read by the informal side of the index.
 */
import type { ExtractedDecl } from '../extract/record.js';
import { lineStarts, offsetToPos } from '../extract/positions.js';
import { isabelleToUnicode } from '../extract/symbols.js';

/** A heading and the line it applies from. */
interface Heading {
  line: number;
  title?: string;
  section?: string;
  text?: string;
  /** Isabelle: heading depth (chapter 0 … paragraph 4); a `text` block's last line and the line of the first fact after it. */
  level?: number;
  endLine?: number;
  nextFact?: number;
}

const MAX_CONTEXT = 400;
/** Lines after its end that a `text` block still speaks for. */
const TEXT_REACH = 12;

const clean = (s: string) => s.replace(/[`*_#]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 160);

function leanHeadings(text: string): Heading[] {
  const starts = lineStarts(text);
  const out: Heading[] = [];
  for (const m of text.matchAll(/\/-!([\s\S]*?)(?:-\/|$)/g)) {
    const body = m[1]!;
    const line = offsetToPos(starts, m.index!).line;
    const h1 = /^\s*#\s+(.+)$/m.exec(body);
    const h2 = [...body.matchAll(/^\s*##+\s+(.+)$/gm)].pop();
    // a module doc without a `#` title: its first sentence stands for one
    const first = !h1 && !h2 ? /^\s*([^\n]+)/.exec(body)?.[1] : undefined;
    out.push({ line, title: h1 ? clean(h1[1]!) : undefined, section: h2 ? clean(h2[1]!) : first ? clean(first) : undefined });
  }
  return out;
}

/** Isabelle heading commands by depth; a heading clears the deeper ones. */
const ISA_LEVEL: Record<string, number> = { chapter: 0, section: 1, subsection: 2, subsubsection: 3, paragraph: 4 };
const ISA_CMD = /^[ \t]*(chapter|section|subsection|subsubsection|paragraph|text)(?![\w'])[ \t]*(?:\(\s*in\s+[^)]*\)\s*)?/gm;

/** End (exclusive) of the document text opening at `p` (`‹…›` nested, `{*…*}`, `"…"`), or -1. */
function bodyEnd(text: string, p: number): number {
  if (text[p] === '‹') {
    let depth = 0;
    for (let i = p; i < text.length; i++) {
      const c = text[i];
      if (c === '‹') depth++;
      else if (c === '›' && --depth === 0) return i + 1;
    }
    return -1;
  }
  if (text.startsWith('{*', p)) {
    const e = text.indexOf('*}', p + 2);
    return e < 0 ? -1 : e + 2;
  }
  if (text[p] === '"') {
    for (let i = p + 1; i < text.length; i++) {
      if (text[i] === '\\') i++;
      else if (text[i] === '"') return i + 1;
    }
  }
  return -1;
}

/** Document text as plain words: antiquotations `@{term "x"}` → `x`, cartouches and control symbols dropped. */
export function isabelleProse(body: string): string {
  let s = body;
  for (let k = 0; k < 3 && s.includes('@{'); k++) {
    s = s.replace(/@\{[\w.]+\s*(?:\[[^\]]*\]\s*)?([^{}]*)\}/g, (_m, arg: string) => arg.replace(/^\s*(?:"|‹)?|(?:"|›)?\s*$/g, ''));
  }
  return clean(s.replace(/\\<\^[A-Za-z]+>|[‹›"]/g, ' ').replace(/\\<([A-Za-z]+)>/g, ' $1 '));
}

function isabelleHeadings(raw: string): Heading[] {
  // symbols to Unicode first (line breaks kept): `\<open>…\<close>` become `‹…›`
  const text = isabelleToUnicode(raw);
  const starts = lineStarts(text);
  const out: Heading[] = [];
  let after = 0;
  for (const m of text.matchAll(ISA_CMD)) {
    if (m.index! < after) continue; // a line inside the previous block's text
    const open = m.index! + m[0].length;
    const end = bodyEnd(text, open);
    if (end < 0) continue;
    after = end;
    const body = isabelleProse(text.slice(text[open] === '{' ? open + 2 : open + 1, end - (text[end - 1] === '}' ? 2 : 1)));
    if (!body) continue;
    const line = offsetToPos(starts, m.index!).line;
    const endLine = offsetToPos(starts, end - 1).line;
    if (m[1] === 'text') out.push({ line, endLine, text: body });
    else out.push({ line, level: ISA_LEVEL[m[1]!]!, section: body });
  }
  return out;
}

function isabelleContext(d: ExtractedDecl, hs: Heading[]): string {
  const path: string[] = [];
  let prose: string | undefined;
  for (const h of hs) {
    if (h.line > d.range.start.line) break;
    if (h.level !== undefined) {
      path.length = h.level;
      path[h.level] = h.section!;
      prose = undefined; // a text block before a heading introduced the previous part
    } else if (h.text) {
      // a `text` block speaks for the fact right after it however long it is, and
      // for the facts that follow when they start near the block
      const line = d.range.start.line;
      const first = line === h.nextFact && line - h.endLine! <= TEXT_REACH;
      prose = first || line - h.line <= TEXT_REACH ? h.text : undefined;
    }
  }
  return [...path.filter(Boolean), prose].filter(Boolean).join('. ');
}

function leanContext(d: ExtractedDecl, hs: Heading[]): string {
  let title: string | undefined;
  let section: string | undefined;
  for (const h of hs) {
    if (h.line > d.range.start.line) break;
    if (h.title) title = h.title;
    if (h.section) section = h.section;
  }
  return [title, section].filter(Boolean).join('. ');
}

/** Sets `context` on each declaration from the headings above it. */
export function addContext(decls: ExtractedDecl[], text: string, lang: 'lean' | 'isabelle'): void {
  if (!decls.length) return;
  const hs = lang === 'lean' ? leanHeadings(text) : isabelleHeadings(text);
  if (!hs.length) return;
  if (lang === 'isabelle') {
    const starts = [...new Set(decls.map((d) => d.range.start.line))].sort((a, b) => a - b);
    for (const h of hs) if (h.endLine !== undefined) h.nextFact = starts.find((l) => l > h.endLine!);
  }
  for (const d of decls) {
    const ctx = (lang === 'lean' ? leanContext(d, hs) : isabelleContext(d, hs)).slice(0, MAX_CONTEXT);
    if (ctx) d.context = ctx;
  }
}
