/**
 * Lean 4 source extractor: one `ExtractedDecl` per declaration (plus generated
 * names: structure fields, constructors, `@[to_additive]`, `@[simps]`,
 * `@[reassoc]`, `@[ext]`), with the namespace/`open` scope for the resolver.
 *
 * Works on tokens from `lex.ts`; commands are split where `commands.ts` says and
 * dispatched here: scope commands to `scopes.ts`, declarations to `decl.ts`,
 * `export`/`alias` to `aliases.ts`, `attribute [to_additive]` to `generated.ts`.
 * Never throws: problems become warnings.
 */
import type { FileExtraction } from '../record.js';
import { T, lex, matchClose } from './lex.js';
import { MODIFIERS } from './struct.js';
import { commandStarts } from './commands.js';
import { findIn, type Prefix } from './scopes.js';
import { DECL_KW, decl } from './decl.js';
import { aliasCommand, exportCommand } from './aliases.js';
import { attributeCommand } from './generated.js';
import { LeanFile } from './state.js';
import { modifiers } from './header.js';

const PREFIXABLE = new Set(['open', 'set_option', 'variable', 'include', 'omit', 'attribute', 'unseal', 'seal']);

class Extractor {
  /** What `… in` put in force for the next command only. */
  private pending: Prefix | null = null;

  constructor(readonly f: LeanFile) {}

  run(): void {
    const toks = this.f.toks;
    const starts = commandStarts(toks);
    for (let c = 0; c < starts.length; c++) {
      const s = starts[c];
      const e = c + 1 < starts.length ? starts[c + 1] : toks.length;
      try {
        this.command(s, e);
      } catch (err) {
        this.pending = null;
        this.f.warn(`internal error: ${err instanceof Error ? err.message : String(err)}`, toks[s]);
      }
    }
  }

  /** One command; `open X in <command>` goes on with the command after `in` (a loop: chains can be long). */
  private command(s: number, e: number): void {
    for (let next = s; next >= 0; ) next = this.step(next, e);
  }

  /** The command in [s, e); where the command after its `in` starts, or -1. */
  private step(s: number, e: number): number {
    const f = this.f;
    const toks = f.toks;
    const pending = this.pending;
    this.pending = null;
    let j = s;
    while (j < e) {
      const t = toks[j];
      if (t.k === T.Doc || (t.k === T.Id && MODIFIERS.has(t.v))) j++;
      else if (t.k === T.Attr) j = matchClose(toks, j, e) + 1;
      else break;
    }
    if (j >= e || toks[j].k !== T.Id) return -1;
    const head = toks[j];
    const v = head.v;
    if (v === 'namespace') {
      const n = toks[j + 1];
      if (j + 1 < e && n.k === T.Id) f.scopes.push('ns', n.v);
      else f.warn('namespace without a name', head);
    } else if (v === 'section') {
      const n = toks[j + 1];
      const name = j + 1 < e && n.k === T.Id && !n.nl ? n.v : '';
      f.scopes.push('sec', name, modifiers(toks, s, j).attrs.some((a) => a.name === 'expose'));
    } else if (v === 'mutual') {
      f.scopes.push('mutual', '');
    } else if (v === 'end') {
      const n = toks[j + 1];
      f.scopes.end(j + 1 < e && n.k === T.Id && !n.nl ? n.v : '', head, (msg, tok) => f.warn(msg, tok));
    } else if (PREFIXABLE.has(v)) {
      return this.prefixable(j, e, pending);
    } else if (v === 'export') {
      exportCommand(f, s, j, e, pending);
    } else if (v === 'alias') {
      aliasCommand(f, s, j, e, pending);
    } else if (DECL_KW[v] !== undefined) {
      decl(f, s, j, e, pending);
    }
    return -1;
  }

  /** `open`, `variable`, `set_option`, … possibly with `in`: then where the command after it starts, else -1. */
  private prefixable(j: number, e: number, pending: Prefix | null): number {
    const f = this.f;
    const toks = f.toks;
    const kw = toks[j].v;
    const inIdx = findIn(toks, j + 1, e);
    const argEnd = inIdx < 0 ? e : inIdx;
    const target: Prefix =
      inIdx < 0
        ? f.scopes.top()
        : { opens: [...(pending?.opens ?? [])], vars: [...(pending?.vars ?? [])], includes: [...(pending?.includes ?? [])] };
    if (kw === 'attribute') attributeCommand(f, j + 1, argEnd);
    else f.scopes.scopeCommand(toks, kw, j + 1, argEnd, target, inIdx >= 0);
    if (inIdx < 0) return -1;
    this.pending = target;
    return inIdx + 1 < e ? inIdx + 1 : -1;
  }
}

export function extractLean(text: string, file: string, module: string): FileExtraction {
  let f: LeanFile | undefined;
  try {
    if (typeof text !== 'string') return { decls: [], warnings: [`${file}: input is not text`] };
    const { toks, lineStarts, warnings } = lex(text, file);
    // Lean's module system: the file's first command is `module`
    const first = toks.find((t) => t.k !== T.Doc);
    f = new LeanFile(toks, lineStarts, file, module, first?.k === T.Id && first.v === 'module');
    f.warnings.push(...warnings);
    new Extractor(f).run();
    f.finish();
    return { decls: f.decls, warnings: f.warnings };
  } catch (err) {
    const msg = `${file}: extraction failed: ${err instanceof Error ? err.message : String(err)}`;
    return { decls: f?.decls ?? [], warnings: [...(f?.warnings ?? []), msg] };
  }
}
