import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractRecords } from '../../indexes/src/extract/extract.js';
import { statementQueries, withoutContext } from '../../server/src/cli/rerank-data-cmd.js';

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

describe('statement queries', () => {
  it('are theorems with a goal whose proofs use indexed premises, never an alias (it restates its target) nor a held-out name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'statement-queries-'));
    const file = join(dir, 'records.jsonl');
    const source = [
      'theorem left_distrib (a b c : R) : a * (b + c) = a * b + a * c := sorry',
      'alias mul_add := left_distrib',
      'theorem two_mul (a : R) : 2 * a = a + a := by rw [left_distrib]',
      'theorem held (a : R) : a = a := by rw [left_distrib]',
    ].join('\n');
    writeFileSync(file, extractRecords(source, { lang: 'lean', rel: 'A.lean', module: 'A' }).map((r) => JSON.stringify(r)).join('\n') + '\n');
    const { queries, skippedHoldout } = statementQueries(file, new Set(['held']), () => true, undefined);
    expect(queries.map((q) => q.name)).toEqual(['two_mul']);
    expect(skippedHoldout).toBe(1);
  });
});
