/** Creating an onnxruntime-node session for a model file and feeding it tokenised batches. */
import { availableParallelism } from 'node:os';
import type * as ort from 'onnxruntime-node';
import { InferenceError, ModelFormatError, errorMessage } from './errors.js';
import { loadOrt } from './onnx-runtime.js';
import type { TokenBatch } from './tokenizer.js';

export interface SessionOptions {
  /** intra-op threads (default: min(4, available cores)). */
  threads?: number;
}

const TOKEN_INPUTS = ['input_ids', 'attention_mask', 'token_type_ids'] as const;
type TokenInput = (typeof TOKEN_INPUTS)[number];

/** An output tensor as the encoders read it (what onnxruntime's Tensor offers). */
export interface OutputTensor {
  readonly type: string;
  readonly data: unknown;
  readonly dims: readonly number[];
}

export interface ModelSession {
  readonly file: string;
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  /** Declared shape of an output (numbers or symbolic names), if the graph states one. */
  outputShape(name: string): ReadonlyArray<number | string> | undefined;
  /** Run a batch, feeding exactly the token inputs the graph declares. */
  run(batch: TokenBatch, outputs: string[]): Promise<Record<string, OutputTensor>>;
  release(): Promise<void>;
}

export function defaultThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

function tensorMeta(meta: readonly ort.InferenceSession.ValueMetadata[] | undefined, name: string) {
  const m = meta?.find((x) => x.name === name);
  return m && m.isTensor ? m : undefined;
}

export async function createSession(file: string, opts: SessionOptions = {}): Promise<ModelSession> {
  const ort = await loadOrt(file);
  let session: ort.InferenceSession;
  try {
    session = await ort.InferenceSession.create(file, {
      intraOpNumThreads: opts.threads ?? defaultThreads(),
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
      logSeverityLevel: 3,
    });
  } catch (e) {
    throw new ModelFormatError(`cannot load ONNX model ${file}: ${errorMessage(e)}`, file, { cause: e });
  }
  const inputNames = [...session.inputNames];
  const unknown = inputNames.filter((n) => !(TOKEN_INPUTS as readonly string[]).includes(n));
  if (unknown.length > 0 || !inputNames.includes('input_ids')) {
    await session.release().catch(() => undefined);
    throw new ModelFormatError(
      `ONNX model ${file} declares inputs [${inputNames.join(', ')}]; supported are ${TOKEN_INPUTS.join(', ')} (input_ids required)`,
      file,
    );
  }
  const int32 = new Set(
    inputNames.filter((n) => tensorMeta(session.inputMetadata, n)?.type === 'int32'),
  );

  return {
    file,
    inputNames,
    outputNames: [...session.outputNames],
    outputShape: (name) => tensorMeta(session.outputMetadata, name)?.shape,
    async run(batch, outputs) {
      const dims = [batch.batchSize, batch.seqLength];
      const feeds: Record<string, ort.Tensor> = {};
      for (const name of inputNames) {
        const data = batch[name as TokenInput];
        feeds[name] = int32.has(name)
          ? new ort.Tensor('int32', Int32Array.from(data, (x) => Number(x)), dims)
          : new ort.Tensor('int64', data, dims);
      }
      try {
        return await session.run(feeds, outputs);
      } catch (e) {
        throw new InferenceError(`inference failed for ${file}: ${errorMessage(e)}`, file, { cause: e });
      }
    },
    release: () => session.release(),
  };
}
