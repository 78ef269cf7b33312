/** Premise embedding with the fine-grained similarity's two parts. */
import type { Encoder } from '../../models/src/encoder.js';
import type { OnProgress } from './progress.js';
import { denseArgsText, denseGoalText } from './premise-text.js';
import type { PremiseInfo } from './store/premises.js';

/** Fine-grained premise vectors ½(f̂(Γp) + f̂(Gp)), row-major. */
export async function embedPremises(
  infos: Pick<PremiseInfo, 'name' | 'args' | 'goal' | 'statement' | 'doc'>[],
  encoder: Encoder,
  onProgress?: OnProgress,
): Promise<Float32Array> {
  const dim = encoder.dim;
  const out = new Float32Array(infos.length * dim);
  const batch = 512;
  for (let i = 0; i < infos.length; i += batch) {
    const slice = infos.slice(i, i + batch);
    const texts = [...slice.map(denseArgsText), ...slice.map(denseGoalText)];
    const vecs = await encoder.embed(texts, 'document');
    slice.forEach((_, j) => {
      const a = vecs[j]!;
      const g = vecs[slice.length + j]!;
      for (let d = 0; d < dim; d++) out[(i + j) * dim + d] = 0.5 * (a[d]! + g[d]!);
    });
    onProgress?.({ phase: 'embed', done: Math.min(i + batch, infos.length), total: infos.length });
  }
  return out;
}
