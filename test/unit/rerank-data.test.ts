import { describe, expect, it } from 'vitest';
import { withoutContext } from '../../server/src/cli/rerank-data-cmd.js';

describe('rerank-data file context', () => {
  it('searches a stable share of training queries without their file context, never validation queries', () => {
    const names = Array.from({ length: 400 }, (_, i) => `Foo.lemma_${i}`);
    const share = (pct: number) => names.filter((name) => withoutContext({ name, split: 'train' }, pct)).length / names.length;
    expect(share(0)).toBe(0);
    expect(share(100)).toBe(1);
    expect(share(50)).toBeGreaterThan(0.4);
    expect(share(50)).toBeLessThan(0.6);
    expect(names.map((name) => withoutContext({ name, split: 'train' }, 50))).toEqual(names.map((name) => withoutContext({ name, split: 'train' }, 50)));
    expect(names.some((name) => withoutContext({ name, split: 'val' }, 100))).toBe(false);
  });
});
