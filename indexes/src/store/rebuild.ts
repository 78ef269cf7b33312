/**
 * The command that rebuilds an index directory from the sources its manifest
 * recorded, for the errors that tell the user to rebuild (another format version,
 * an encoder this installation lacks).
 */

/** Where the index lives and what it was built from. */
export interface IndexOrigin {
  dir: string;
  sources: readonly string[];
}

/** A path as a shell word: bare when safe, else single-quoted. */
export const shellQuote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** `premise-lsp index <sources> --out <dir>` (`<sources>` when none were recorded). */
export function rebuildCommand(index: IndexOrigin): string {
  const sources = index.sources.length ? index.sources.map(shellQuote).join(' ') : '<sources>';
  return `premise-lsp index ${sources} --out ${shellQuote(index.dir)}`;
}
