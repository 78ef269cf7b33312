/**
 * Split a token stream into theory-level commands. A command runs from its keyword
 * to the next theory-level keyword, so a lemma's command includes its whole proof.
 * Document commands (`text ‹…›`, `section ‹…›` …) are dropped with their argument
 * without ending the command around them. Also reads the theory header.
 */
import { isText, tokenBody, type Token } from './lexer.js';
import {
  CONTEXT_OPENERS,
  DOC_COMMANDS,
  LOOSE_COMMANDS,
  PROOF_KEYWORDS,
  THEORY_COMMANDS,
} from './keywords.js';

export interface Command {
  kw: string;
  /** Token index range [start, end) into `tokens`; tokens[start] is the keyword. */
  start: number;
  end: number;
  /** Named contexts (locale/context/class) open around the command, outermost first. */
  contexts: string[];
  /** Type constructor of the innermost enclosing `instantiation T :: c`. */
  instType?: string;
}

export interface TheoryHeader {
  name?: string;
  imports: string[];
  /** Theory-level commands declared in `keywords`. */
  commands: string[];
}

export interface SplitResult {
  /** Tokens with document commands removed. */
  tokens: Token[];
  commands: Command[];
  header: TheoryHeader;
}

function atLineStart(src: string, pos: number): boolean {
  for (let p = pos - 1; p >= 0; p--) {
    const c = src.charCodeAt(p);
    if (c === 10 || c === 13) return true;
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

/** Theory header from the raw tokens (before splitting, so custom keywords are known). */
export function readHeader(toks: Token[]): TheoryHeader {
  const header: TheoryHeader = { imports: [], commands: [] };
  const limit = Math.min(toks.length, 5000);
  let i = 0;
  while (i < limit && !(toks[i]!.kind === 'ident' && toks[i]!.text === 'theory')) i++;
  if (i >= limit) return header;
  const nameTok = toks[i + 1];
  if (nameTok && (nameTok.kind === 'ident' || nameTok.kind === 'str')) {
    header.name = nameTok.kind === 'str' ? tokenBody(nameTok) : nameTok.text;
  }
  let mode: 'none' | 'imports' | 'keywords' = 'none';
  for (let j = i + 2; j < limit; j++) {
    const t = toks[j]!;
    if (t.kind === 'ident' && t.text === 'begin') break;
    if (t.kind === 'ident' && (t.text === 'imports' || t.text === 'keywords')) {
      mode = t.text;
      continue;
    }
    if (mode === 'imports' && (t.kind === 'ident' || t.kind === 'str')) {
      const raw = t.kind === 'str' ? tokenBody(t) : t.text;
      const base = raw.split('/').pop()!;
      const dot = base.lastIndexOf('.');
      header.imports.push(dot >= 0 && raw.indexOf('/') < 0 ? base.slice(dot + 1) : base);
    } else if (mode === 'keywords' && t.kind === 'str') {
      // "foo" "bar" :: thy_decl — the kind applies to the preceding group of names
      let k = j;
      const names: string[] = [];
      while (k < limit && toks[k]!.kind === 'str') names.push(tokenBody(toks[k++]!));
      if (toks[k]?.text === '::' && toks[k + 1]?.kind === 'ident' && toks[k + 1]!.text.startsWith('thy_')) {
        header.commands.push(...names);
      }
      j = k - 1;
    }
  }
  return header;
}

/** Named contexts (locales, classes, `context`s) kept per command; real theories nest a few. */
const MAX_NAMED_CONTEXTS = 64;

export function splitCommands(src: string, raw: Token[]): SplitResult {
  const header = readHeader(raw);
  const custom = new Set(header.commands);
  const tokens: Token[] = [];
  const commands: Command[] = [];
  let cur: Command | undefined;
  const close = () => {
    if (cur) {
      cur.end = tokens.length;
      commands.push(cur);
      cur = undefined;
    }
  };
  for (let i = 0; i < raw.length; i++) {
    const t = raw[i]!;
    if (t.kind === 'ident') {
      const w = t.text;
      if (!DOC_COMMANDS.has(w) && !THEORY_COMMANDS.has(w) && !custom.has(w)) {
        tokens.push(t);
        continue;
      }
      const prev = raw[i - 1];
      const lineStart =
        atLineStart(src, t.start) || (prev?.kind === 'ident' && (prev.text === 'private' || prev.text === 'qualified'));
      if (DOC_COMMANDS.has(w) && (!LOOSE_COMMANDS.has(w) || lineStart)) {
        let j = i + 1;
        if (raw[j]?.kind === 'sym' && raw[j]!.text === '%' && raw[j + 1]?.kind === 'ident') j += 2;
        if (isText(raw[j])) {
          i = j;
          continue;
        }
      }
      const isCmd =
        (THEORY_COMMANDS.has(w) && (!LOOSE_COMMANDS.has(w) || lineStart)) || (custom.has(w) && lineStart);
      if (isCmd) {
        close();
        cur = { kw: w, start: tokens.length, end: tokens.length, contexts: [] };
      }
    }
    tokens.push(t);
  }
  close();

  // context nesting: `… begin` opens, `end` closes. Each level keeps the named
  // contexts in force and the innermost instantiation type, shared by the commands
  // at that level (never rebuilt per command: a hostile file nests thousands deep)
  const stack: string[] = [];
  const named: string[][] = [[]];
  const inst: Array<string | undefined> = [undefined];
  for (const c of commands) {
    c.contexts = named[named.length - 1]!;
    const instType = inst[inst.length - 1];
    if (instType !== undefined) c.instType = instType;
    if (c.kw === 'end') {
      if (stack.length) {
        stack.pop();
        named.pop();
        inst.pop();
      }
      continue;
    }
    if (c.kw !== 'theory' && !CONTEXT_OPENERS.has(c.kw)) continue;
    let hasBegin = false;
    for (let k = c.start + 1; k < c.end; k++) {
      const t = tokens[k]!;
      if (t.kind === 'ident' && t.text === 'begin') {
        hasBegin = true;
        break;
      }
    }
    if (!hasBegin) continue;
    const nameTok = tokens[c.start + 1];
    const isNamed = c.kw === 'locale' || c.kw === 'context' || c.kw === 'class';
    const name = isNamed && nameTok?.kind === 'ident' && !PROOF_KEYWORDS.has(nameTok.text) ? nameTok.text : '';
    stack.push(name);
    const outer = named[named.length - 1]!;
    // past MAX_NAMED_CONTEXTS names, deeper names are not kept (they would make every command's list as long as the file)
    named.push(name && outer.length < MAX_NAMED_CONTEXTS ? [...outer, name] : outer);
    let ty: string | undefined;
    if (c.kw === 'instantiation' && nameTok && (nameTok.kind === 'ident' || nameTok.kind === 'str')) {
      ty = (nameTok.kind === 'str' ? tokenBody(nameTok) : nameTok.text).split('.').pop();
    }
    inst.push(ty ?? inst[inst.length - 1]);
  }
  return { tokens, commands, header };
}
