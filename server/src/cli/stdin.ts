/** Standard input as text, read only as far as a limit: `yes | premise-lsp query -` must not buffer all of an endless stream. */
import { readSync } from 'node:fs';

/** At most `maxChars` UTF-16 units of stdin (UTF-8): reading stops once enough bytes for them have come, or at end of input. */
export function readStdinText(maxChars: number, fd = 0): string {
  const limit = maxChars * 4 + 4; // a character is at most 4 bytes
  const buf = Buffer.alloc(limit);
  let got = 0;
  while (got < limit) {
    let n: number;
    try {
      n = readSync(fd, buf, got, limit - got, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') continue; // a non-blocking descriptor: try again
      if (code === 'EOF') break;
      throw e;
    }
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got).toString('utf8').slice(0, maxChars);
}
