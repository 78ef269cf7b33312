/**
 * Text from the disk or an index (a recorded root, a directory's name, a statement) as the
 * human-readable output of a command prints it: every control, format and line-separator
 * character escaped (`\x1b`, `\u{202e}`), so that none reaches the terminal raw (an `ESC ] 0 ;`
 * title or an `ESC [ 2 J` clear; issue 36 item 7). `--json` output is exact and never goes
 * through here. Test: test/cli/terminal-escapes.test.ts.
 */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (ch) => {
    const c = ch.codePointAt(0)!;
    return c < 0x100 ? `\\x${c.toString(16).padStart(2, '0')}` : `\\u{${c.toString(16)}}`;
  });
}
