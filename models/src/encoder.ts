/**
 * Sentence encoder over an ONNX model directory (Hugging Face layout + premise_lsp.json).
 *
 * Uses the graph's `sentence_embedding` output when it has one ([B, D]); otherwise pools
 * `last_hidden_state` ([B, T, D]) by masked mean or CLS. Vectors are L2-normalised.
 * A directory whose config.json names the project's bag-of-tokens architecture runs
 * without onnxruntime (`bag-session.ts`); any other model loads onnxruntime-node on demand.
 */
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { SerialQueue, runSortedBatches } from './batching.js';
import { InferenceError, ModelError, ModelFormatError } from './errors.js';
import { modelId } from './fingerprint.js';
import { BAG_MODEL_TYPE, loadBagSession } from './bag-session.js';
import { assertDir, readConfig, readSettings, resolveModelFile, type ModelSettings, type Pooling } from './model-dir.js';
import { createSession, type ModelSession, type SessionOptions } from './onnx-session.js';
import { clsPool, l2Normalize, meanPool, rows } from './pooling.js';
import { loadTokenizer, type TextTokenizer, type EncodedText } from './tokenizer.js';

export type EmbedRole = 'query' | 'document';

export interface Encoder {
  readonly dim: number;
  /** e.g. directory basename + content hash; changes when weights, vocabulary or settings change. */
  readonly id: string;
  /** L2-normalised embeddings, one per text. Batches internally, truncates to maxLength. */
  embed(texts: string[], role?: EmbedRole): Promise<Float32Array[]>;
  dispose(): Promise<void>;
}

export interface EncoderOptions extends SessionOptions {
  /** Texts per ONNX run (default 32). */
  batchSize?: number;
  /** Overrides premise_lsp.json max_length (still capped by the tokenizer and 512). */
  maxLength?: number;
  /** ONNX file relative to the directory; overrides premise_lsp.json model_file. */
  modelFile?: string;
}

export const DEFAULT_BATCH_SIZE = 32;
/** Characters tokenised between two turns of the event loop (about 50 ms of work). */
const TOKENIZE_SLICE_CHARS = 128 * 1024;
const OUTPUT_PREFERENCE = ['sentence_embedding', 'last_hidden_state', 'token_embeddings'];

/** Which output to read: settings.output, else the first preferred name present, else the first. */
export function chooseOutput(outputNames: readonly string[], wanted: string | undefined, file: string): string {
  if (wanted !== undefined) {
    if (!outputNames.includes(wanted)) {
      throw new ModelFormatError(
        `ONNX model ${file} has no output "${wanted}" (outputs: ${outputNames.join(', ')})`,
        file,
      );
    }
    return wanted;
  }
  const found = OUTPUT_PREFERENCE.find((n) => outputNames.includes(n)) ?? outputNames[0];
  if (found === undefined) throw new ModelFormatError(`ONNX model ${file} has no outputs`, file);
  return found;
}

export class OnnxEncoder implements Encoder {
  private readonly queue = new SerialQueue();
  private disposed = false;
  /** Embeddings under way: dispose lets them finish before the session goes. */
  private readonly inflight = new Set<Promise<unknown>>();

  constructor(
    readonly id: string,
    readonly dim: number,
    readonly tokenizer: TextTokenizer,
    private readonly session: ModelSession,
    readonly output: string,
    readonly pooling: Pooling,
    private readonly settings: ModelSettings,
    readonly batchSize: number,
  ) {}

  get modelFile(): string {
    return this.session.file;
  }

  get maxLength(): number {
    return this.tokenizer.maxLength;
  }

  /** The text actually tokenised for `text` in `role` (prefix applied). */
  prepare(text: string, role: EmbedRole = 'document'): string {
    const prefix = role === 'query' ? this.settings.query_prefix : this.settings.document_prefix;
    return (prefix ?? '') + text;
  }

  async embed(texts: string[], role: EmbedRole = 'document'): Promise<Float32Array[]> {
    if (this.disposed) throw new ModelError(`encoder ${this.id} has been disposed`, this.session.file);
    if (texts.length === 0) return [];
    const work = this.embedNow(texts, role);
    this.inflight.add(work);
    void work.catch(() => undefined).finally(() => this.inflight.delete(work));
    return work;
  }

  /**
   * One ONNX run per turn of the queue: a caller's short request waits for one batch
   * of another's long one, not for all of it (a server's callers share the encoder).
   */
  private async embedNow(texts: string[], role: EmbedRole): Promise<Float32Array[]> {
    const encoded = await this.encodeAll(texts, role);
    return runSortedBatches(encoded, (e) => e.ids.length, this.batchSize, (batch) => this.queue.run(() => this.runBatch(batch)));
  }

  /**
   * The texts tokenised, giving the event loop a turn every TOKENIZE_SLICE_CHARS
   * characters: tokenising runs on this thread at about 0.4 µs per character, so a
   * server's other callers would otherwise wait for all of a request's texts.
   */
  private async encodeAll(texts: string[], role: EmbedRole): Promise<EncodedText[]> {
    const out: EncodedText[] = [];
    let chars = 0;
    for (const t of texts) {
      out.push(this.tokenizer.encode(this.prepare(t, role)));
      chars += t.length;
      if (chars >= TOKENIZE_SLICE_CHARS) {
        chars = 0;
        await nextTurn();
      }
    }
    return out;
  }

  /** Un-normalised vectors for already-encoded rows (one ONNX run). */
  async embedEncoded(batch: EncodedText[]): Promise<Float32Array[]> {
    const tb = this.tokenizer.pad(batch);
    const out = (await this.session.run(tb, [this.output]))[this.output];
    const file = this.session.file;
    if (!out || out.type !== 'float32') {
      throw new InferenceError(`ONNX model ${file}: output "${this.output}" is not a float32 tensor`, file);
    }
    const data = out.data as Float32Array;
    const d = out.dims;
    if (d.length === 2 && d[0] === tb.batchSize) return rows(data, tb.batchSize, d[1]!);
    if (d.length === 3 && d[0] === tb.batchSize && d[1] === tb.seqLength) {
      if (this.pooling === 'cls') return clsPool(data, tb.batchSize, tb.seqLength, d[2]!);
      if (this.pooling === 'mean') return meanPool(data, tb.attention_mask, tb.batchSize, tb.seqLength, d[2]!);
      throw new InferenceError(
        `ONNX model ${file}: output "${this.output}" is [batch, seq, dim] but pooling is "none"; set "pooling" in premise_lsp.json`,
        file,
      );
    }
    throw new InferenceError(
      `ONNX model ${file}: output "${this.output}" has unexpected shape [${d.join(', ')}] for a batch of ${tb.batchSize}×${tb.seqLength}`,
      file,
    );
  }

  private async runBatch(batch: EncodedText[]): Promise<Float32Array[]> {
    const vecs = await this.embedEncoded(batch);
    for (const v of vecs) {
      if (v.length !== this.dim) {
        throw new InferenceError(`ONNX model ${this.session.file}: got ${v.length}-d vector, expected ${this.dim}`, this.session.file);
      }
      l2Normalize(v);
    }
    return vecs;
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await Promise.allSettled([...this.inflight]);
    await this.queue.run(() => this.session.release());
  }
}

export async function loadEncoder(dir: string, opts: EncoderOptions = {}): Promise<Encoder> {
  return loadOnnxEncoder(dir, opts);
}

/** Like loadEncoder, typed as the concrete class (tokenizer, pooling, maxLength exposed). */
export async function loadOnnxEncoder(dir: string, opts: EncoderOptions = {}): Promise<OnnxEncoder> {
  await assertDir(dir);
  const settings = await readSettings(dir);
  const modelFile = await resolveModelFile(dir, opts.modelFile ?? settings.model_file);
  const tokenizer = await loadTokenizer(dir, { maxLength: opts.maxLength ?? settings.max_length });
  const batchSize = Math.max(1, Math.floor(opts.batchSize ?? DEFAULT_BATCH_SIZE));
  // the project's bag-of-tokens encoder runs in plain TypeScript; any other graph in onnxruntime
  const plain = (await readConfig(dir)).model_type === BAG_MODEL_TYPE;
  const session = plain ? loadBagSession(modelFile) : await createSession(modelFile, opts);
  try {
    const output = chooseOutput(session.outputNames, settings.output, modelFile);
    const shape = session.outputShape(output);
    const pooling: Pooling =
      settings.pooling ?? (shape && shape.length === 2 ? 'none' : 'mean');
    if (shape && shape.length === 3 && pooling === 'none') {
      throw new ModelFormatError(
        `ONNX model ${modelFile}: output "${output}" is [batch, seq, dim] but pooling is "none"; set "pooling" in ${join(dir, 'premise_lsp.json')}`,
        modelFile,
      );
    }
    let dim = shape && typeof shape[shape.length - 1] === 'number' ? (shape[shape.length - 1] as number) : 0;
    const probeEncoder = (d: number) =>
      new OnnxEncoder('', d, tokenizer, session, output, pooling, settings, batchSize);
    if (!(dim > 0)) {
      // symbolic last dimension: find it by running one short text
      const [v] = await probeEncoder(0).embedEncoded([tokenizer.encode('a')]);
      dim = v!.length;
    }
    const id = await modelId(dir, [modelFile, join(dir, 'tokenizer.json')], {
      pooling,
      output,
      query_prefix: settings.query_prefix ?? '',
      document_prefix: settings.document_prefix ?? '',
      max_length: tokenizer.maxLength,
    });
    return new OnnxEncoder(id, dim, tokenizer, session, output, pooling, settings, batchSize);
  } catch (e) {
    await session.release().catch(() => undefined);
    throw e;
  }
}
