/** Pooling and normalisation of ONNX outputs (plain loops over Float32Array, row-major). */

/** Masked mean over the sequence axis of a [B, T, D] tensor. */
export function meanPool(hidden: Float32Array, mask: BigInt64Array, b: number, t: number, d: number): Float32Array[] {
  const out: Float32Array[] = [];
  for (let i = 0; i < b; i++) {
    const v = new Float32Array(d);
    let count = 0;
    for (let j = 0; j < t; j++) {
      if (mask[i * t + j] === 0n) continue;
      count++;
      const base = (i * t + j) * d;
      for (let k = 0; k < d; k++) v[k]! += hidden[base + k]!;
    }
    const inv = 1 / Math.max(count, 1e-9);
    for (let k = 0; k < d; k++) v[k]! *= inv;
    out.push(v);
  }
  return out;
}

/** First position (CLS) of each row of a [B, T, D] tensor. */
export function clsPool(hidden: Float32Array, b: number, t: number, d: number): Float32Array[] {
  const out: Float32Array[] = [];
  for (let i = 0; i < b; i++) out.push(hidden.slice(i * t * d, i * t * d + d));
  return out;
}

/** Rows of a [B, D] tensor (copies). */
export function rows(data: Float32Array, b: number, d: number): Float32Array[] {
  const out: Float32Array[] = [];
  for (let i = 0; i < b; i++) out.push(data.slice(i * d, (i + 1) * d));
  return out;
}

/** L2-normalise in place (a zero vector stays zero) and return it. */
export function l2Normalize(v: Float32Array): Float32Array {
  let s = 0;
  for (let k = 0; k < v.length; k++) s += v[k]! * v[k]!;
  const n = Math.sqrt(s);
  if (n > 0) for (let k = 0; k < v.length; k++) v[k]! /= n;
  return v;
}
