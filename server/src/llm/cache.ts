/**
 * The on-disk cache of LLM-written informal statements: one JSON line per
 * answer, `{"key", "text"}`, appended as each answer arrives, so an interrupted
 * index run loses nothing it paid for (a cut-off last line is skipped on load).
 * Keys hash what the answer depends on: the prompt version, the model, and the
 * declaration's name, statement and docstring.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** `$PREMISE_LSP_CACHE/informal`, else `$XDG_CACHE_HOME/premise-lsp/informal`, else `~/.cache/premise-lsp/informal`. */
export function informalCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PREMISE_LSP_CACHE) return join(resolve(env.PREMISE_LSP_CACHE), 'informal');
  if (env.XDG_CACHE_HOME) return join(resolve(env.XDG_CACHE_HOME), 'premise-lsp', 'informal');
  return join(homedir(), '.cache', 'premise-lsp', 'informal');
}

export function contentKey(parts: readonly string[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\u0000');
  return h.digest('hex');
}

export class InformalCache {
  private readonly file: string;
  private readonly entries = new Map<string, string>();
  /** The file ends in a cut-off line (an interrupted run): close it before appending. */
  private openLine = false;
  /** Why the cache could not be read or written (the first error), if so: answers are then kept for this run only. */
  writeError: string | undefined;

  constructor(readonly dir: string) {
    this.file = join(dir, 'informal.jsonl');
    if (!existsSync(this.file)) return;
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (e) {
      // an unreadable cache (a directory in its place, no permission) is no cache: the build goes on without
      this.writeError = `${this.file}: ${(e as Error).message}`;
      return;
    }
    this.openLine = text.length > 0 && !text.endsWith('\n');
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const e = JSON.parse(line) as { key?: unknown; text?: unknown };
        if (typeof e.key === 'string' && typeof e.text === 'string') this.entries.set(e.key, e.text);
      } catch {
        /* a line cut off by an interrupted run */
      }
    }
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): string | undefined {
    return this.entries.get(key);
  }

  set(key: string, text: string): void {
    if (this.entries.get(key) === text) return;
    this.entries.set(key, text);
    if (this.writeError) return;
    try {
      mkdirSync(this.dir, { recursive: true });
      appendFileSync(this.file, (this.openLine ? '\n' : '') + JSON.stringify({ key, text }) + '\n');
      this.openLine = false;
    } catch (e) {
      // an unwritable cache must not cost the answer already paid for
      this.writeError = (e as Error).message;
    }
  }
}
