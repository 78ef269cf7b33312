/** Cross-encoder (re-ranker): one logit per (query, document) pair, token_type_ids 0/1. */
import { SerialQueue, runSortedBatches } from './batching.js';
import { InferenceError, ModelError, ModelFormatError } from './errors.js';
import { assertDir, readSettings, resolveModelFile } from './model-dir.js';
import { createSession, type ModelSession, type SessionOptions } from './onnx-session.js';
import { loadTokenizer, type EncodedText, type TextTokenizer } from './tokenizer.js';

export interface CrossEncoder {
  /** Raw logits (higher = more relevant), in the order of `docs`. */
  score(query: string, docs: string[]): Promise<Float32Array>;
  dispose(): Promise<void>;
}

export interface CrossEncoderOptions extends SessionOptions {
  /** Pairs per ONNX run (default 16). */
  batchSize?: number;
  maxLength?: number;
  modelFile?: string;
}

export const DEFAULT_CROSS_BATCH_SIZE = 16;

export class OnnxCrossEncoder implements CrossEncoder {
  private readonly queue = new SerialQueue();
  private disposed = false;

  constructor(
    readonly tokenizer: TextTokenizer,
    private readonly session: ModelSession,
    readonly output: string,
    readonly batchSize: number,
  ) {}

  async score(query: string, docs: string[]): Promise<Float32Array> {
    if (this.disposed) throw new ModelError(`cross-encoder ${this.session.file} has been disposed`, this.session.file);
    if (docs.length === 0) return new Float32Array(0);
    const encoded = docs.map((d) => this.tokenizer.encode(query, d));
    const scores = await this.queue.run(() =>
      runSortedBatches(encoded, (e) => e.ids.length, this.batchSize, (b) => this.runBatch(b)),
    );
    return Float32Array.from(scores);
  }

  private async runBatch(batch: EncodedText[]): Promise<number[]> {
    const tb = this.tokenizer.pad(batch);
    const out = (await this.session.run(tb, [this.output]))[this.output];
    const file = this.session.file;
    if (!out || out.type !== 'float32') {
      throw new InferenceError(`ONNX model ${file}: output "${this.output}" is not a float32 tensor`, file);
    }
    const data = out.data as Float32Array;
    const d = out.dims;
    const b = tb.batchSize;
    if (d[0] === b && (d.length === 1 || (d.length === 2 && d[1] === 1))) return Array.from(data);
    // [B, C] with C > 1 (a classifier head): use the last class's logit
    if (d.length === 2 && d[0] === b) {
      const c = d[1]!;
      return Array.from({ length: b }, (_, i) => data[i * c + c - 1]!);
    }
    throw new InferenceError(
      `ONNX model ${file}: output "${this.output}" has unexpected shape [${d.join(', ')}] for ${b} pairs`,
      file,
    );
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await this.queue.run(() => this.session.release());
  }
}

export async function loadCrossEncoder(dir: string, opts: CrossEncoderOptions = {}): Promise<CrossEncoder> {
  await assertDir(dir);
  const settings = await readSettings(dir);
  const modelFile = await resolveModelFile(dir, opts.modelFile ?? settings.model_file);
  const tokenizer = await loadTokenizer(dir, { maxLength: opts.maxLength ?? settings.max_length });
  const session = await createSession(modelFile, opts);
  const wanted = settings.output ?? (session.outputNames.includes('logits') ? 'logits' : session.outputNames[0]);
  if (wanted === undefined || !session.outputNames.includes(wanted)) {
    await session.release().catch(() => undefined);
    throw new ModelFormatError(
      `ONNX model ${modelFile} has no output "${wanted}" (outputs: ${session.outputNames.join(', ')})`,
      modelFile,
    );
  }
  const batchSize = Math.max(1, Math.floor(opts.batchSize ?? DEFAULT_CROSS_BATCH_SIZE));
  return new OnnxCrossEncoder(tokenizer, session, wanted, batchSize);
}
