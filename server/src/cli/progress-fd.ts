/**
 * The indexer's machine-readable progress channel (`premise-lsp index
 * --progress-fd N`): one JSON object per line on file descriptor N, for the
 * language server that runs the indexer as a child process. Events:
 *   {"event":"progress","phase":"extract"|"embed"|"ann"|"write","done":n,"total":n}
 *   {"event":"done","files":n,"declarations":n,"dense":bool,"seconds":s,"peakRssBytes":n}
 * Failures are the exit code and stderr; the channel never blocks the build.
 */
import { closeSync, writeSync } from 'node:fs';
import type { Progress } from '../../../indexes/src/build.js';
import { UsageError } from './args.js';

export type IndexEvent =
  | ({ event: 'progress' } & Progress)
  | { event: 'done'; files: number; declarations: number; dense: boolean; seconds: number; peakRssBytes: number };

export interface EventChannel {
  send(e: IndexEvent): void;
  close(): void;
}

export function eventChannel(fdOption: string | undefined): EventChannel | undefined {
  if (fdOption === undefined) return undefined;
  const fd = Number(fdOption);
  if (!Number.isInteger(fd) || fd < 3) throw new UsageError(`--progress-fd takes a file descriptor ≥ 3, got ${JSON.stringify(fdOption)}`);
  let open = true;
  let lastPhase = '';
  let lastAt = 0;
  return {
    send(e) {
      if (!open) return;
      // phase changes and the end always; counts at most every 200 ms
      if (e.event === 'progress') {
        const now = Date.now();
        if (e.phase === lastPhase && e.done < e.total && now - lastAt < 200) return;
        lastPhase = e.phase;
        lastAt = now;
      }
      try {
        writeSync(fd, JSON.stringify(e) + '\n');
      } catch {
        open = false; // the reader went away: keep building
      }
    },
    close() {
      if (!open) return;
      open = false;
      try {
        closeSync(fd);
      } catch {
        /* already closed */
      }
    },
  };
}
