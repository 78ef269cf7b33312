/**
 * One source file's declarations put into an engine's overlay: what the text
 * declares now is upserted where it differs from what the engine has, and what
 * it declared before and no longer does is removed. The one way a changed file
 * reaches a running engine, shared by the language server's live index
 * (lsp/live-index.ts, open documents) and the HTTP server's workspace watcher
 * (workspace-watch.ts, files on disk). Extractors never throw.
 */
import { extractRecords } from '../../../indexes/src/extract/extract.js';
import type { PremiseRecord } from '../../../indexes/src/extract/record.js';
import type { SourceFile } from '../../../indexes/src/extract/walk.js';
import type { PremiseInfo, PremiseSearch } from '../engine/types.js';

/**
 * Larger texts are not read (and declare nothing): reading runs on the
 * server's thread, seconds per pause for megabytes, and no real source comes
 * near (Mathlib's largest file is 0.3 MB, the AFP's 0.5 MB).
 */
export const LIVE_INDEX_MAX_CHARS = 1024 * 1024;

/** Whether a record states what the engine already has under its name. */
export const sameDeclaration = (r: PremiseRecord, p: PremiseInfo | undefined) =>
  !!p && p.kind === r.kind && p.statement === r.statement && p.goal === r.goal && p.args.join('\n') === r.args.join('\n') && (p.doc ?? '') === (r.doc ?? '');

export interface Synced {
  /** What the text declares now: name → the line its declaration starts on. */
  declared: Map<string, number>;
  /** Declarations upserted (new or changed) and names removed. */
  changed: number;
  removed: number;
  /** The text was over LIVE_INDEX_MAX_CHARS and was not read. */
  tooLarge: boolean;
}

/** Brings `engine`'s overlay in line with `text`, the file `src`, which declared `previous` when last read. */
export async function syncDeclarations(engine: PremiseSearch, src: Pick<SourceFile, 'lang' | 'rel' | 'module'>, text: string, previous: Iterable<string>): Promise<Synced> {
  const tooLarge = text.length > LIVE_INDEX_MAX_CHARS;
  const records = tooLarge ? [] : extractRecords(text, src);
  const declared = new Map(records.map((r) => [r.name, r.range.start.line]));
  const gone = [...previous].filter((n) => !declared.has(n));
  if (gone.length) engine.remove(gone);
  const changed = records.filter((r) => !sameDeclaration(r, engine.lookup(r.name)));
  if (changed.length) await engine.upsert(changed);
  return { declared, changed: changed.length, removed: gone.length, tooLarge };
}
