/**
 * A small feed-forward ONNX graph (Gemm, Relu, Add, Identity, Squeeze over [N, C]
 * rows) evaluated in plain TypeScript, with no onnxruntime: the shipped feature
 * reranker (`models/reranker`, a linear scorer plus an MLP) runs here. A graph with
 * any other operator is refused with an error naming it.
 */
import { InferenceError, ModelFormatError } from './errors.js';
import { parseOnnx } from './onnx-graph.js';

/** A [rows × cols] matrix, row-major. */
interface Mat {
  rows: number;
  cols: number;
  data: Float32Array;
}

type Step = (env: Map<string, Mat>, n: number) => void;

export interface Mlp {
  readonly file: string;
  readonly input: string;
  readonly output: string;
  /** Scores for `n` rows of `width` features each (row-major); one number per row. */
  run(x: Float32Array, n: number): Float32Array;
}

export function loadMlp(file: string): Mlp {
  const g = parseOnnx(file);
  const fail = (why: string) => new ModelFormatError(`ONNX model ${file}: ${why}`, file);
  if (g.inputs.length !== 1 || g.outputs.length !== 1) {
    throw fail(`expected one input and one output (has inputs [${g.inputs.join(', ')}], outputs [${g.outputs.join(', ')}])`);
  }
  const weights = new Map<string, Mat>();
  for (const [name, t] of g.initializers) {
    const [rows, cols] = t.dims.length === 2 ? t.dims : [1, t.dims.reduce((a, d) => a * d, 1)];
    weights.set(name, { rows: rows!, cols: cols!, data: t.data });
  }
  const get = (env: Map<string, Mat>, name: string | undefined): Mat => {
    const m = name === undefined ? undefined : (env.get(name) ?? weights.get(name));
    if (!m) throw new InferenceError(`inference failed for ${file}: value ${name} is undefined`, file);
    return m;
  };
  const steps: Step[] = [];
  let width = 0;
  for (const node of g.nodes) {
    const [a, b, c] = node.inputs;
    const out = node.outputs[0]!;
    switch (node.opType) {
      case 'Gemm': {
        const transB = node.attrs.get('transB') === 1;
        const alpha = (node.attrs.get('alpha') as number | undefined) ?? 1;
        const beta = (node.attrs.get('beta') as number | undefined) ?? 1;
        if (node.attrs.get('transA') === 1) throw fail('Gemm with transA is not supported');
        const w = weights.get(b!);
        if (!w) throw fail(`Gemm weight ${b} is not a constant`);
        const [inDim, outDim] = transB ? [w.cols, w.rows] : [w.rows, w.cols];
        if (a === g.inputs[0]) width = inDim;
        steps.push((env) => {
          const x = get(env, a);
          if (x.cols !== inDim) throw new InferenceError(`inference failed for ${file}: ${x.cols} features, expected ${inDim}`, file);
          const bias = c === undefined ? undefined : get(env, c);
          const y = new Float32Array(x.rows * outDim);
          for (let i = 0; i < x.rows; i++) {
            for (let o = 0; o < outDim; o++) {
              let s = 0;
              for (let k = 0; k < inDim; k++) s += x.data[i * inDim + k]! * w.data[transB ? o * inDim + k : k * outDim + o]!;
              const bv = bias ? bias.data[bias.data.length === 1 ? 0 : o]! : 0;
              y[i * outDim + o] = alpha * s + beta * bv;
            }
          }
          env.set(out, { rows: x.rows, cols: outDim, data: y });
        });
        break;
      }
      case 'Relu':
        steps.push((env) => {
          const x = get(env, a);
          env.set(out, { ...x, data: x.data.map((v) => (v > 0 ? v : 0)) });
        });
        break;
      case 'Add':
        steps.push((env) => {
          const x = get(env, a);
          const y = get(env, b);
          if (x.data.length !== y.data.length) throw new InferenceError(`inference failed for ${file}: Add of [${x.rows}, ${x.cols}] and [${y.rows}, ${y.cols}]`, file);
          env.set(out, { ...x, data: x.data.map((v, i) => v + y.data[i]!) });
        });
        break;
      case 'Identity':
        steps.push((env) => env.set(out, get(env, a)));
        break;
      case 'Squeeze':
        // [N, 1] → [N]: the same numbers, one per row
        steps.push((env) => {
          const x = get(env, a);
          if (x.cols !== 1) throw new InferenceError(`inference failed for ${file}: Squeeze of [${x.rows}, ${x.cols}]`, file);
          env.set(out, x);
        });
        break;
      case 'Constant':
        // only the axes of a Squeeze, which the [N, 1] → [N] step above does not need
        if (!g.nodes.some((m) => m.opType === 'Squeeze' && m.inputs[1] === out)) throw fail('a Constant outside a Squeeze is not supported');
        break;
      default:
        throw fail(`operator ${node.opType} is not supported without onnxruntime (supported: Gemm, Relu, Add, Identity, Squeeze)`);
    }
  }
  const input = g.inputs[0]!;
  const output = g.outputs[0]!;
  return {
    file,
    input,
    output,
    run(x, n) {
      if (x.length !== n * width) throw new InferenceError(`inference failed for ${file}: ${x.length} values for ${n} rows of ${width}`, file);
      const env = new Map<string, Mat>([[input, { rows: n, cols: width, data: x }]]);
      for (const step of steps) step(env, n);
      const y = get(env, output);
      if (y.data.length !== n) throw new InferenceError(`reranker model ${file} gave ${y.data.length} scores for ${n} candidates`, file);
      return Float32Array.from(y.data);
    },
  };
}
