/**
 * Opens an index directory as a ready Engine: reads and checks the index files,
 * loads the encoder the index was built with (or the one given), and checks the
 * two agree.
 */
import { existsSync } from 'node:fs';
import { loadEncoder, type Encoder } from '../../../models/src/encoder.js';
import { readIndexDir } from '../../../indexes/src/store/index-dir.js';
import { Engine, type EngineOptions } from './engine.js';
import { Segment } from './segment.js';
import { loadCrossEncoder } from '../../../models/src/cross-encoder.js';
import { CrossEncoderReranker } from './rerank-cross.js';

export interface OpenOptions extends Omit<EngineOptions, 'encoder'> {
  /** Encoder directory overriding the one recorded in the index manifest. */
  encoderDir?: string;
  /** Skip loading the encoder (BM25 only). */
  sparseOnly?: boolean;
  /** A cross-encoder directory to rerank with. */
  rerankerDir?: string;
}

export async function openEngine(indexDir: string, opts: OpenOptions = {}): Promise<Engine> {
  const parts = readIndexDir(indexDir);
  let encoder: Encoder | undefined;
  const rec = parts.manifest.encoder;
  if (rec && !opts.sparseOnly) {
    const dir = opts.encoderDir ?? rec.dir;
    if (!existsSync(dir)) throw new Error(`the index was built with the encoder in ${dir}, which does not exist; pass --encoder <dir>`);
    encoder = await loadEncoder(dir);
    if (encoder.dim !== rec.dim) {
      throw new Error(`encoder ${dir} has dimension ${encoder.dim} but the index was built with ${rec.dim}; rebuild the index`);
    }
  }
  let reranker = opts.reranker;
  if (!reranker && opts.rerankerDir) reranker = new CrossEncoderReranker(await loadCrossEncoder(opts.rerankerDir));
  return new Engine([Segment.fromIndex(parts)], { ...opts, encoder, reranker });
}
