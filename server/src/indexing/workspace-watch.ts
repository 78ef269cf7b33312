/**
 * Keeps a served project's own sources live in the engine without an editor
 * (`premise-lsp http --project`): a cheap scan of the workspace's `.lean`/`.thy`
 * files (their size and mtime, as the workspace entry's cache key reads them,
 * `workspaceFiles` in indexes/src/packages.ts; no `.lake/packages`) every
 * interval; a file that changed, appeared or went away is read again and its
 * declarations put into the engine's overlay (file-overlay.ts, as the language
 * server's live index does for open documents). The first scan reads every file
 * once, so that a declaration later deleted or renamed is removed. A file the index
 * build skips for its size (MAX_FILE_BYTES) is not read here either (test/unit/workspace-watch.test.ts).
 * Runs on the server's thread, one scan at a time; a failure is logged, never fatal.
 */
import { readFile, stat } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { extractRecords } from '../../../indexes/src/extract/extract.js';
import { MAX_FILE_BYTES } from '../../../indexes/src/extract/file.js';
import { discoverSourcesAsync, type SourceFile } from '../../../indexes/src/extract/walk.js';
import type { PremiseSearch } from '../engine/types.js';
import { LIVE_INDEX_MAX_CHARS, syncDeclarations } from './file-overlay.js';

/** Default time between two scans (ms). */
export const WATCH_INTERVAL_MS = 2_000;

interface Seen {
  stamp: string;
  declared: Iterable<string>;
}

export class WorkspaceWatcher {
  private readonly seen = new Map<string, Seen>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private scanning: Promise<void> = Promise.resolve();
  private scans = 0;

  constructor(
    private readonly engine: PremiseSearch,
    private readonly root: string,
    private readonly log: (line: string) => void,
    private readonly intervalMs = WATCH_INTERVAL_MS,
  ) {}

  /** Reads every file once (the baseline), then scans every interval. */
  start(): Promise<void> {
    this.scanning = this.scan(true);
    return this.scanning.then(() => this.schedule());
  }

  stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    return this.scanning;
  }

  /** Scans done since start (tests wait on it). */
  get scanCount(): number {
    return this.scans;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.scanning = this.scan(false).then(() => this.schedule());
    }, this.intervalMs);
    this.timer.unref?.();
  }

  private async scan(baseline: boolean): Promise<void> {
    try {
      const files = (await discoverSourcesAsync([this.root], { packages: false })).files;
      const now = new Set<string>();
      let changed = 0;
      let removed = 0;
      for (const f of files) {
        if (this.stopped) return;
        now.add(f.path);
        const st = await stat(f.path).catch(() => undefined);
        if (!st) continue;
        const stamp = `${st.size}:${st.mtimeMs}`;
        const before = this.seen.get(f.path);
        if (before?.stamp === stamp) continue;
        if (!st.isFile() || st.size > MAX_FILE_BYTES) {
          // as the index build does: not read (a 300 MB file was read whole), nothing of it served
          const names = [...(before?.declared ?? [])];
          if (names.length) this.engine.remove(names);
          removed += names.length;
          this.seen.set(f.path, { stamp, declared: [] });
          this.log(`workspace: ${f.path} skipped, ${st.isFile() ? `larger than ${MAX_FILE_BYTES / 2 ** 20} MiB (as the index build skips it)` : 'not a regular file'}`);
          continue;
        }
        // the baseline only learns what each file declares: the index was built from these very files
        const r = await this.read(f, before?.declared ?? [], baseline);
        if (!r) continue;
        this.seen.set(f.path, { stamp, declared: r.declared });
        changed += r.changed;
        removed += r.removed;
        await nextTurn();
      }
      for (const [path, s] of this.seen) {
        if (now.has(path)) continue;
        const names = [...s.declared];
        if (names.length) this.engine.remove(names);
        removed += names.length;
        this.seen.delete(path);
      }
      if (changed || removed) this.log(`workspace: ${changed} declarations updated, ${removed} removed`);
    } catch (e) {
      this.log(`workspace: scan failed: ${(e as Error).message}`);
    } finally {
      this.scans++;
    }
  }

  private async read(f: SourceFile, previous: Iterable<string>, baseline: boolean) {
    try {
      const text = await readFile(f.path, 'utf8');
      if (baseline) {
        const r = { declared: [] as string[], changed: 0, removed: 0 };
        if (text.length <= LIVE_INDEX_MAX_CHARS) r.declared = extractRecords(text, f).map((d) => d.name);
        return r;
      }
      const r = await syncDeclarations(this.engine, f, text, previous);
      return { declared: [...r.declared.keys()], changed: r.changed, removed: r.removed };
    } catch (e) {
      this.log(`workspace: could not read ${f.path}: ${(e as Error).message}`);
      return undefined;
    }
  }
}
