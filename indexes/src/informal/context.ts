/**
 * The prose around a declaration: the title of its module docstring
 * (`/-! # Title … -/`) and the latest section heading above it (`## …` inside a
 * module doc), or, in an Isabelle theory, the latest `chapter`/`section`/
 * `subsection` title and the `text ‹…›` block just before the fact. Stored in the
 * record's `context` and read by the informal side of the index.
 */
import type { ExtractedDecl } from '../extract/record.js';

/** A heading and the line it applies from. */
interface Heading {
  line: number;
  title?: string;
  section?: string;
  text?: string;
}

const MAX_CONTEXT = 400;

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

function lineOf(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const clean = (s: string) => s.replace(/[`*_#]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 160);

function leanHeadings(text: string): Heading[] {
  const starts = lineStarts(text);
  const out: Heading[] = [];
  for (const m of text.matchAll(/\/-!([\s\S]*?)(?:-\/|$)/g)) {
    const body = m[1]!;
    const line = lineOf(starts, m.index!);
    const h1 = /^\s*#\s+(.+)$/m.exec(body);
    const h2 = [...body.matchAll(/^\s*##+\s+(.+)$/gm)].pop();
    // a module doc without a `#` title: its first sentence stands for one
    const first = !h1 && !h2 ? /^\s*([^\n]+)/.exec(body)?.[1] : undefined;
    out.push({ line, title: h1 ? clean(h1[1]!) : undefined, section: h2 ? clean(h2[1]!) : first ? clean(first) : undefined });
  }
  return out;
}

function isabelleHeadings(text: string): Heading[] {
  const starts = lineStarts(text);
  const out: Heading[] = [];
  const re = /^\s*(chapter|section|subsection|subsubsection|text)\s*(?:‹([\s\S]*?)›|\\<open>([\s\S]*?)\\<close>|"([^"]*)"|\{\*([\s\S]*?)\*\})/gm;
  for (const m of text.matchAll(re)) {
    const body = clean(m[2] ?? m[3] ?? m[4] ?? m[5] ?? '');
    if (!body) continue;
    const line = lineOf(starts, m.index!);
    if (m[1] === 'chapter') out.push({ line, title: body });
    else if (m[1] === 'text') out.push({ line, text: body });
    else out.push({ line, section: body });
  }
  return out;
}

/** Sets `context` on each declaration from the headings above it. */
export function addContext(decls: ExtractedDecl[], text: string, lang: 'lean' | 'isabelle'): void {
  if (!decls.length) return;
  const hs = lang === 'lean' ? leanHeadings(text) : isabelleHeadings(text);
  if (!hs.length) return;
  for (const d of decls) {
    let title: string | undefined;
    let section: string | undefined;
    let prose: string | undefined;
    for (const h of hs) {
      if (h.line > d.range.start.line) break;
      if (h.title) title = h.title;
      if (h.section) section = h.section;
      // a `text` block speaks for the facts right after it
      prose = h.text && d.range.start.line - h.line <= 12 ? h.text : h.text ? undefined : prose;
    }
    const ctx = [title, section, prose].filter(Boolean).join('. ').slice(0, MAX_CONTEXT);
    if (ctx) d.context = ctx;
  }
}
