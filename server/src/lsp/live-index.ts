/**
 * Keeps the engine's overlay in step with the documents being edited: a pause
 * after an open or a change re-extracts the document's declarations, upserts
 * the new and changed ones and removes the ones it no longer declares. So a
 * lemma just written is offered at once, before any index rebuild, and a
 * renamed one is no longer offered under its old name. Closing a document
 * falls back to its file on disk: what the file declares, nothing when there
 * is no file (a never-saved buffer's lemmas are no longer offered); the
 * overlay keeps only where the file differs from the loaded index, so it does
 * not grow with every document opened. Runs on the server's
 * thread; extractors never throw, and a failure is logged, never fatal.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { extractRecords } from '../../../indexes/src/extract/extract.js';
import { sourceOf } from '../../../indexes/src/extract/walk.js';
import type { PremiseSearch } from '../engine/types.js';
import { LIVE_INDEX_MAX_CHARS, sameDeclaration, syncDeclarations } from '../indexing/file-overlay.js';
import type { FeatureContext } from './features/context.js';

/** Typing pause before a document is re-read. */
export const LIVE_INDEX_DELAY_MS = 300;
export { LIVE_INDEX_MAX_CHARS };

const same = sameDeclaration;

export class LiveIndex {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** What each document declares, by URI, with the line each declaration starts on. */
  private readonly declared = new Map<string, Map<string, number>>();
  private engine: PremiseSearch | undefined;
  /** Refreshes run one at a time, in order. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: FeatureContext,
    private readonly delayMs = LIVE_INDEX_DELAY_MS,
  ) {}

  private subscribed = false;

  /** A document was opened or changed. */
  touched(uri: string): void {
    if (!this.ctx.config().liveIndex) return;
    if (!this.subscribed) {
      this.subscribed = true;
      // the automatic index's hybrid engine replaces its sparse one: read the open documents into it
      this.ctx.engines.onUpgrade(() => {
        for (const p of this.ctx.docs.reopenParams()) this.touched(p.textDocument.uri);
      });
    }
    clearTimeout(this.timers.get(uri));
    const timer = setTimeout(() => {
      this.timers.delete(uri);
      this.queue = this.queue.then(() => this.refresh(uri));
    }, this.delayMs);
    timer.unref?.();
    this.timers.set(uri, timer);
  }

  /** A document was closed: its declarations become its file's on disk (none when there is no file). */
  closed(uri: string): void {
    clearTimeout(this.timers.get(uri));
    this.timers.delete(uri);
    // after any refresh already queued (which finds the document closed and does nothing)
    this.queue = this.queue.then(() => this.fallBackToDisk(uri));
  }

  /** Names the document declares below `line` (not yet in scope there, so never suggested) and above it (nearby). */
  around(uri: string, line: number): { after: string[]; before: string[] } {
    const all = [...(this.declared.get(uri) ?? [])];
    return { after: all.filter(([, start]) => start > line).map(([n]) => n), before: all.filter(([, start]) => start < line).map(([n]) => n) };
  }

  /** The open document (its URI) that declares `name`, if one does: a live premise's source is that document. */
  documentOf(name: string): string | undefined {
    for (const [uri, names] of this.declared) if (names.has(name)) return uri;
    return undefined;
  }

  /** Wait for pending refreshes (tests, shutdown). */
  async settled(): Promise<void> {
    await this.queue;
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  private async fallBackToDisk(uri: string): Promise<void> {
    // opened again since: its own refresh takes it from what the overlay has
    if (this.ctx.docs.get(uri)) return;
    const names = this.declared.get(uri);
    const engine = this.ctx.engines.now();
    // nothing of it in the overlay, or the overlay is a newer engine's, which never read it
    if (!names || !engine || engine !== this.engine) {
      this.declared.delete(uri);
      return;
    }
    try {
      const path = fileURLToPath(uri);
      const src = sourceOf(path);
      const text = src ? await readFile(path, 'utf8').catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? '' : Promise.reject(e))) : '';
      if (this.ctx.docs.get(uri)) return;
      this.declared.delete(uri);
      const records = src && text.length <= LIVE_INDEX_MAX_CHARS ? extractRecords(text, src) : [];
      const onDisk = new Set(records.map((r) => r.name));
      // the overlay drops what the document or its file declares: the loaded index's versions are found again…
      await engine.restore([...new Set([...names.keys(), ...onDisk])]);
      // …and only where the file on disk says otherwise does the overlay keep anything
      // (the index's version of a name the document declared stays unless the index has it from this very file, which no longer declares it)
      const gone = [...names.keys()].filter((n) => !onDisk.has(n) && src && engine.lookup(n)?.file === src.rel);
      if (gone.length) engine.remove(gone);
      const changed = records.filter((r) => !same(r, engine.lookup(r.name)));
      if (changed.length) await engine.upsert(changed);
      this.ctx.log.info(`live index: ${uri} closed: its declarations are the file's on disk (${changed.length} differ from the index, ${gone.length} removed)`);
    } catch (e) {
      this.ctx.log.error(`live index: could not fall back to the file of ${uri}: ${(e as Error).message}`);
    }
  }

  private async refresh(uri: string): Promise<void> {
    const engine = this.ctx.engines.now();
    const doc = this.ctx.docs.get(uri);
    if (!engine || !doc) return;
    if (engine !== this.engine) {
      // a new index was loaded: its overlay is empty, so every open document is read again
      this.engine = engine;
      this.declared.clear();
    }
    let path: string;
    try {
      path = fileURLToPath(uri);
    } catch {
      return; // untitled: or other non-file documents
    }
    const src = sourceOf(path);
    if (!src) return;
    try {
      const text = doc.getText();
      const r = await syncDeclarations(engine, src, text, this.declared.get(uri)?.keys() ?? []);
      if (r.tooLarge && this.declared.get(uri)?.size !== 0) this.ctx.log.info(`live index: ${uri} is over ${LIVE_INDEX_MAX_CHARS} characters: not read`);
      this.declared.set(uri, r.declared);
      if (r.removed || r.changed) this.ctx.log.info(`live index: ${uri}: ${r.changed} declarations updated, ${r.removed} removed`);
    } catch (e) {
      this.ctx.log.error(`live index: could not read ${uri}: ${(e as Error).message}`);
    }
  }
}
