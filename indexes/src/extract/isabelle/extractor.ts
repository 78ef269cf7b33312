/**
 * Isabelle `.thy` extractor: lex → split into commands → parse declarations →
 * premise records. Names are `Theory.fact`; all text is in Unicode form.
 * Never throws: problems become warnings.
 */
import type { ExtractedDecl, FileExtraction, Pos } from '../record.js';
import { lexIsabelle } from './lexer.js';
import { splitCommands } from './commands.js';
import { parseCommand, type Draft } from './specs.js';
import { isabelleToUnicode } from '../symbols.js';
import { lineStarts, offsetToPos } from '../positions.js';

const MAX_WARNINGS = 50;

/** Offset → 0-based line/character (UTF-16 units, as LSP). */
function positioner(src: string): (offset: number) => Pos {
  const starts = lineStarts(src);
  return (offset: number) => offsetToPos(starts, offset);
}

function basename(file: string): string {
  const b = file.split(/[\\/]/).pop() ?? file;
  return b.replace(/\.thy$/, '');
}

/**
 * Record names (Unicode, without the theory prefix), one per draft or undefined to drop.
 * Facts, constants and types live in separate Isabelle name spaces; when they clash the
 * fact keeps `foo` and the constant takes its defining fact's name (`foo_def`,
 * `foo.simps`). Clashes within one space keep the first.
 */
function assignNames(
  drafts: Draft[],
  contexts: string[][],
  warn: (msg: string, tok: number) => void,
): Array<string | undefined> {
  const taken = new Set<string>();
  const out: Array<string | undefined> = new Array(drafts.length);
  const order: Array<'fact' | 'const' | 'type'> = ['fact', 'const', 'type'];
  for (const space of order) {
    drafts.forEach((d, k) => {
      if ((d.space ?? 'fact') !== space) return;
      const base = isabelleToUnicode(d.short);
      const candidates = [base];
      // the names Isabelle itself qualifies with: inductive rules `pred.rule`, locale facts `loc.fact`
      const qualifier = d.origin ?? d.locale ?? contexts[k]![contexts[k]!.length - 1];
      if (qualifier) candidates.push(`${isabelleToUnicode(qualifier)}.${base}`);
      if (space === 'const') candidates.push(d.kind === 'fun' ? `${base}.simps` : `${base}_def`);
      const name = candidates.find((c) => !taken.has(c));
      if (name === undefined) {
        warn(`duplicate name ${base} (kept the first)`, d.startTok);
        return;
      }
      taken.add(name);
      out[k] = name;
    });
  }
  return out;
}

export function extractIsabelle(text: string, file: string, theory: string): FileExtraction {
  const warnings: string[] = [];
  let dropped = 0;
  const warn = (msg: string) => {
    if (warnings.length < MAX_WARNINGS) warnings.push(`${file}: ${msg}`);
    else dropped++;
  };
  const decls: ExtractedDecl[] = [];
  try {
    const src = typeof text === 'string' ? text : String(text ?? '');
    const pos = positioner(src);
    const lexed = lexIsabelle(src);
    for (const w of lexed.warnings) {
      const m = /offset (\d+)/.exec(w);
      warn(m ? w.replace(/offset \d+/, `line ${pos(Number(m[1])).line + 1}`) : w);
    }
    const { tokens, commands, header } = splitCommands(src, lexed.tokens);
    const module = header.name || theory || basename(file);
    if (!header.name) warn('no `theory … begin` header');
    else if (theory && header.name !== theory) warn(`theory header names ${header.name}, expected ${theory}`);
    const last = commands[commands.length - 1];
    if (header.name && (!last || last.kw !== 'end')) warn('theory is not closed by `end` (truncated?)');

    const lineOf = (tokIndex: number) => pos(tokens[tokIndex]?.start ?? 0).line + 1;
    // scopes like the Lean extractor's: full prefixes, innermost first; imports as opens
    const scopes = new Map<string, ExtractedDecl['scope']>();
    const scopeFor = (mod: string, ctx: string[], opens: string[]): ExtractedDecl['scope'] => {
      const key = ctx.join('\u0000');
      let sc = scopes.get(key);
      if (!sc) {
        const namespaces = [...new Set(ctx.map((c) => `${mod}.${isabelleToUnicode(c)}`))].reverse();
        namespaces.push(mod);
        sc = { namespaces, opens };
        scopes.set(key, sc);
      }
      return sc;
    };
    const drafts: Array<{ d: Draft; contexts: string[] }> = [];
    for (const cmd of commands) {
      try {
        const ds = parseCommand({ src, toks: tokens, warn: (m, t) => warn(`line ${lineOf(t)}: ${m}`) }, cmd);
        for (const d of ds) drafts.push({ d, contexts: cmd.contexts });
      } catch (e) {
        warn(`line ${lineOf(cmd.start)}: could not parse \`${cmd.kw}\` (${(e as Error)?.message ?? e})`);
      }
    }
    const names = assignNames(
      drafts.map((x) => x.d),
      drafts.map((x) => x.contexts),
      (m, t) => warn(`line ${lineOf(t)}: ${m}`));
    drafts.forEach(({ d, contexts }, k) => {
      const short = names[k];
      if (short === undefined) return;
      const first = tokens[d.startTok]!;
      const lastTok = tokens[Math.max(d.startTok, d.endTok - 1)]!;
      const stmtLast = tokens[Math.max(d.startTok, d.stmtEndTok - 1)]!;
      const scope = scopeFor(module, d.locale ? [...contexts, d.locale] : contexts, header.imports);
      const decl: ExtractedDecl = {
        name: `${module}.${short}`,
        kind: d.kind,
        lang: 'isabelle',
        module,
        file,
        range: { start: pos(first.start), end: pos(lastTok.end) },
        args: d.args,
        goal: d.goal,
        statement: isabelleToUnicode(src.slice(first.start, stmtLast.end)).trim(),
        refs: d.refs.map(isabelleToUnicode),
        scope,
      };
      if (d.attrs.length) decl.attrs = d.attrs;
      if (d.origin) decl.origin = `${module}.${isabelleToUnicode(d.origin)}`;
      decls.push(decl);
    });
  } catch (e) {
    warn(`extractor failure: ${(e as Error)?.message ?? e}`);
  }
  if (dropped) warnings.push(`${file}: … ${dropped} more warnings`);
  return { decls, warnings };
}
