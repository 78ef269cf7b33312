/**
 * The project's bag-of-tokens encoder (`models/default`, MODEL_CARD.md) run in plain
 * TypeScript, with no onnxruntime: its ONNX graph is read for the weights and checked
 * to be exactly that architecture,
 *   w_t = softmax_t(s[id_t]),  pooled = Σ_t w_t · E[id_t],  f(x) = W · pooled + b,
 * and then computed here as a `ModelSession`, so the encoder around it (tokenizer,
 * batching, normalisation, content id) is the one every ONNX model gets.
 */
import { InferenceError, ModelFormatError } from './errors.js';
import { parseOnnx, type OnnxGraph, type OnnxTensor } from './onnx-graph.js';
import type { ModelSession, OutputTensor } from './onnx-session.js';
import type { TokenBatch } from './tokenizer.js';

/** `config.json`'s model_type for this architecture (written by models/train). */
export const BAG_MODEL_TYPE = 'premise-lsp-bag-encoder';

/** The exported graph's operators, in order (models/train/model.py's BagEncoder, torch.onnx). */
const BAG_OPS = [
  'Cast', 'Gather', 'Gather', 'Constant', 'Squeeze', 'Constant', 'Sub', 'Constant', 'Mul', 'Add',
  'Softmax', 'Constant', 'Unsqueeze', 'Mul', 'Constant', 'ReduceSum', 'Gemm',
];
const OUTPUT = 'sentence_embedding';

interface BagWeights {
  emb: Float32Array;
  score: Float32Array;
  proj: Float32Array;
  bias: Float32Array;
  vocab: number;
  dim: number;
  out: number;
}

function bagWeights(g: OnnxGraph): BagWeights {
  const fail = (why: string) =>
    new ModelFormatError(`ONNX model ${g.file} is not a ${BAG_MODEL_TYPE} graph (${why})`, g.file);
  const ops = g.nodes.map((n) => n.opType);
  if (ops.join(' ') !== BAG_OPS.join(' ')) throw fail(`operators ${ops.join(', ')}`);
  if (g.inputs.join() !== 'input_ids,attention_mask' || g.outputs.join() !== OUTPUT) {
    throw fail(`inputs [${g.inputs.join(', ')}], outputs [${g.outputs.join(', ')}]`);
  }
  const gathers = g.nodes.filter((n) => n.opType === 'Gather');
  const gemm = g.nodes[g.nodes.length - 1]!;
  const softmax = g.nodes.find((n) => n.opType === 'Softmax')!;
  if (!gathers.every((n) => n.inputs[1] === 'input_ids')) throw fail('a Gather is not over input_ids');
  if (gemm.attrs.get('transB') !== 1 || (gemm.attrs.get('alpha') ?? 1) !== 1 || (gemm.attrs.get('beta') ?? 1) !== 1) {
    throw fail('the projection is not W·x + b');
  }
  if (softmax.attrs.get('axis') !== -1 && softmax.attrs.get('axis') !== 1) throw fail('the softmax is not over tokens');
  const init = (name: string | undefined): OnnxTensor => {
    const t = name === undefined ? undefined : g.initializers.get(name);
    if (!t) throw fail(`weight ${name} missing`);
    return t;
  };
  // the embedding table is the Gather whose result is weighted; the score table is [V, 1]
  const tables = gathers.map((n) => init(n.inputs[0]));
  const score = tables.find((t) => t.dims.length === 2 && t.dims[1] === 1);
  const emb = tables.find((t) => t !== score);
  const proj = init(gemm.inputs[1]);
  const bias = init(gemm.inputs[2]);
  if (!score || !emb || emb.dims.length !== 2 || emb.dims[0] !== score.dims[0]) throw fail('token tables of unexpected shape');
  const [vocab, dim] = emb.dims as [number, number];
  if (proj.dims.length !== 2 || proj.dims[1] !== dim || bias.dims.join() !== String(proj.dims[0])) {
    throw fail(`projection [${proj.dims.join(', ')}] + [${bias.dims.join(', ')}] does not fit ${dim}-d tokens`);
  }
  return { emb: emb.data, score: score.data, proj: proj.data, bias: bias.data, vocab, dim, out: proj.dims[0]! };
}

/** One text's vector (un-normalised), from its token ids. */
function embedIds(w: BagWeights, ids: number[], file: string): Float32Array {
  const { dim, out } = w;
  const pooled = new Float64Array(dim);
  if (ids.length) {
    let max = -Infinity;
    for (const id of ids) {
      if (!(id >= 0 && id < w.vocab)) throw new InferenceError(`inference failed for ${file}: token id ${id} is outside the vocabulary of ${w.vocab}`, file);
      max = Math.max(max, w.score[id]!);
    }
    let total = 0;
    for (const id of ids) {
      const a = Math.exp(w.score[id]! - max);
      total += a;
      const row = id * dim;
      for (let j = 0; j < dim; j++) pooled[j]! += a * w.emb[row + j]!;
    }
    for (let j = 0; j < dim; j++) pooled[j] = pooled[j]! / total;
  }
  const v = new Float32Array(out);
  for (let o = 0; o < out; o++) {
    let s = w.bias[o]!;
    const row = o * dim;
    for (let j = 0; j < dim; j++) s += w.proj[row + j]! * pooled[j]!;
    v[o] = s;
  }
  return v;
}

/** A session over a bag-of-tokens ONNX file; a ModelFormatError when the graph is another one. */
export function loadBagSession(file: string): ModelSession {
  const w = bagWeights(parseOnnx(file));
  return {
    file,
    inputNames: ['input_ids', 'attention_mask'],
    outputNames: [OUTPUT],
    outputShape: (name) => (name === OUTPUT ? ['batch', w.out] : undefined),
    async run(batch: TokenBatch): Promise<Record<string, OutputTensor>> {
      const { batchSize: b, seqLength: t } = batch;
      const data = new Float32Array(b * w.out);
      for (let i = 0; i < b; i++) {
        const ids: number[] = [];
        for (let j = 0; j < t; j++) if (batch.attention_mask[i * t + j] !== 0n) ids.push(Number(batch.input_ids[i * t + j]));
        data.set(embedIds(w, ids, file), i * w.out);
      }
      return { [OUTPUT]: { type: 'float32', data, dims: [b, w.out] } };
    },
    release: async () => undefined,
  };
}

