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
  ) {}

  warn(msg: string, tok?: Tok): void {
    this.warnCount++;
    if (this.warnCount <= MAX_WARNINGS) this.warnings.push(tok ? `${this.file}:${tok.line + 1}: ${msg}` : `${this.file}: ${msg}`);
  }

  finish(): void {
    if (this.warnCount > MAX_WARNINGS) this.warnings.push(`${this.file}: ${this.warnCount - MAX_WARNINGS} more warnings`);
    // scopes still open at the end of the file are closed implicitly (legal Lean)
  }
}
