/** Text queries in Lean notation or LaTeX: translation and routing rules (issue 9, MathlibQR's lean/latex styles). */
import { describe, expect, it } from 'vitest';
import { Engine } from '../../server/src/engine/engine.js';
import { Segment } from '../../server/src/engine/segment.js';
import { liftParents, parentName } from '../../server/src/engine/structure-lift.js';
import { toInfos } from '../../indexes/src/graph.js';
import type { DeclKind } from '../../indexes/src/extract/record.js';
import { rec } from './engine-helpers.js';

describe('a constructor or field stands for its structure', () => {
  it('names the parent of constructors and fields only', () => {
    expect(parentName('Flow.mk', 'constructor')).toBe('Flow');
    expect(parentName('Equiv.left_inv', 'field')).toBe('Equiv');
    expect(parentName('Flow.continuous', 'theorem')).toBeUndefined();
    expect(parentName('mk', 'constructor')).toBeUndefined();
  });

  it('lifts the parent just above its best member, and only structures', () => {
    const e = (name: string, kind: DeclKind, score: number) => ({ name, score, info: { name, kind } });
    const list = [e('Flow.mk', 'constructor', 3), e('Flow.ext', 'theorem', 2), e('Flow', 'structure', 1), e('Foo.mk', 'constructor', 0.5), e('Foo', 'def', 0)];
    const byName = new Map(list.map((c) => [c.name, c]));
    expect(liftParents(list, 10, (n) => byName.get(n))).toBe(true);
    expect(byName.get('Flow')!.score).toBeGreaterThan(3);
    expect(byName.get('Flow')!.score).toBeLessThan(3.001);
    expect(byName.get('Foo')!.score).toBe(0); // a def is not a structure
  });

  it('puts the structure first for a query listing its fields', async () => {
    const records = [
      { ...rec('Flow', ['(τ α : Type*)'], 'Type*'), kind: 'structure' as const, statement: 'structure Flow (τ α : Type*)' },
      {
        ...rec('Flow.mk', ['(toFun : τ → α → α)', '(map_zero\' : ∀ x, toFun 0 x = x)', '(map_add\' : ∀ t₁ t₂ x, toFun (t₁ + t₂) x = toFun t₁ (toFun t₂ x))'], 'Flow τ α'),
        kind: 'constructor' as const,
        statement: 'mk ::',
      },
      rec('Function.iterate_zero', ['(f : α → α)'], 'f^[0] = id'),
    ];
    const engine = new Engine([Segment.fromInfos(toInfos(records))]);
    const q = '`toFun : τ → α → α` with `toFun 0 x = x` and `toFun (s + t) x = toFun s (toFun t x)`';
    const names = async (informal: boolean) => (await engine.search(q, { mode: 'hybrid', k: 3, informal })).map((h) => h.name);
    expect((await names(true))[0]).toBe('Flow');
    expect((await names(false))[0]).toBe('Flow.mk');
  });
});
