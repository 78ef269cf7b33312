/**
 * What the parts of one Lean file's extraction share: the tokens, the records
 * so far, the warnings (capped) and the scope stack.
 */
import type { ExtractedDecl } from '../record.js';
import type { Tok } from './lex.js';
import { Scopes } from './scopes.js';

const MAX_WARNINGS = 50;

export class LeanFile {
  readonly decls: ExtractedDecl[] = [];
  readonly warnings: string[] = [];
  readonly scopes = new Scopes((msg) => this.warn(msg));
  private warnCount = 0;

  constructor(
    readonly toks: Tok[],
    readonly lineStarts: number[],
    readonly file: string,
    readonly module: string,
    /** The file is in Lean's module system (its header starts with `module`). */
    readonly moduleSystem = false,
  ) {}

  /** Where the first hand-written declaration of each name is in `decls`, and every name in it (caught up on lookup: `decls` only grows). */
  private readonly firstOwn = new Map<string, number>();
  private readonly declared = new Set<string>();
  private indexed = 0;

  private catchUp(): void {
    for (; this.indexed < this.decls.length; this.indexed++) {
      const d = this.decls[this.indexed]!;
      this.declared.add(d.name);
      if (d.origin === undefined && !this.firstOwn.has(d.name)) this.firstOwn.set(d.name, this.indexed);
    }
  }

  /** The first hand-written declaration (in file order) named one of `names`. */
  firstOwnNamed(names: string[]): ExtractedDecl | undefined {
    this.catchUp();
    let first = Infinity;
    for (const n of names) first = Math.min(first, this.firstOwn.get(n) ?? Infinity);
    return first < Infinity ? this.decls[first] : undefined;
  }

  /** Is `name` declared so far? */
  hasDecl(name: string): boolean {
    this.catchUp();
    return this.declared.has(name);
  }

  warn(msg: string, tok?: Tok): void {
    this.warnCount++;
    if (this.warnCount <= MAX_WARNINGS) this.warnings.push(tok ? `${this.file}:${tok.line + 1}: ${msg}` : `${this.file}: ${msg}`);
  }

  finish(): void {
    if (this.warnCount > MAX_WARNINGS) this.warnings.push(`${this.file}: ${this.warnCount - MAX_WARNINGS} more warnings`);
    // scopes still open at the end of the file are closed implicitly (legal Lean)
  }
}
