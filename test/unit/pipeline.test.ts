/**
 * The search pipeline's stage lists (server/src/engine/pipeline/): docs/ranking.md's
 * diagram names every generator and reorderer, in the order they run; the rankers read
 * one feature vector, the same from a candidate's parts and from a hit's.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GENERATORS } from '../../server/src/engine/pipeline/generators/index.js';
import { REORDERERS } from '../../server/src/engine/pipeline/reorderers/index.js';
import { fusionFeatures } from '../../server/src/engine/pipeline/features.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('the search pipeline', () => {
  it("docs/ranking.md's diagram names every stage, in the order the lists run them", () => {
    const doc = readFileSync(join(ROOT, 'docs', 'ranking.md'), 'utf8');
    const diagram = doc.slice(doc.indexOf('## The pipeline'), doc.indexOf('## The signals'));
    const stages = [...diagram.matchAll(/^\s*[├└]─ (\S+(?: \S+)?)\s{2,}/gm)].map((m) => m[1]);
    expect(stages).toEqual([...GENERATORS, ...REORDERERS].map((s) => s.name));
  });

  it('gives the rankers every fused part, the uses and the entry', () => {
    const parts = { dense: 0.5, sparse: 3, informal: 1, name: 0.2, graph: 0.7, own: 0.1, local: 1, prior: 2, slot: 1, goal: 2 };
    expect(fusionFeatures(parts, 12, 1)).toEqual({ dense: 0.5, sparse: 3, informal: 1, name: 0.2, graph: 0.7, own: 0.1, local: 1, uses: 12, entry: 1 });
    expect(fusionFeatures({}, 0)).toEqual({ uses: 0, entry: 0 });
  });
});
