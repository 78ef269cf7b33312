/**
 * Entry of an extraction worker thread (bundled as dist/extract-worker.js):
 * answers each batch of source files with their FileResults, in batch order.
 */
import { parentPort } from 'node:worker_threads';
import { CORPUS_IDENTIFIERS, rememberIdentifiers } from '../sparse/terms.js';
import { extractBatch, type FileResult } from './file.js';
import type { SourceFile } from './walk.js';

export interface BatchRequest {
  batch: number;
  files: SourceFile[];
}
export interface BatchReply {
  batch: number;
  results: FileResult[];
}

rememberIdentifiers(CORPUS_IDENTIFIERS);

parentPort?.on('message', (req: BatchRequest) => {
  const reply: BatchReply = { batch: req.batch, results: extractBatch(req.files) };
  parentPort!.postMessage(reply);
});
