import { describe, expect, it } from 'vitest';
import { mergeCompletions, prefixScore } from '../../server/src/lsp/features/completion.js';
import { mergeHover } from '../../server/src/lsp/features/hover.js';
import { isabelleInsertion, isEquational, leanInsertion, mainConclusion, separatorBefore } from '../../server/src/lsp/features/tactics.js';
import { stripHtml } from '../../server/src/lsp/goals/html.js';
import { goalsOf } from '../../server/src/lsp/goals/lean.js';
import { FixtureEngine } from '../../server/src/engine/fixture-engine.js';
import type { PremiseInfo } from '../../server/src/engine/types.js';

const info = (name: string, goal: string, args: string[] = []): PremiseInfo => ({
  name, goal, args, kind: 'theorem', lang: 'lean', module: 'M', file: 'M.lean',
  range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, statement: `theorem ${name} : ${goal}`, uses: 0,
});

describe('tactic forms', () => {
  it('recognises equations and iffs at top level only', () => {
    expect(isEquational('n + m = m + n')).toBe(true);
    expect(isEquational('a ↔ b')).toBe(true);
    expect(isEquational('a ≤ b')).toBe(false);
    expect(isEquational('a ≠ b')).toBe(false);
    expect(isEquational('f (x = y)')).toBe(false);
    expect(isEquational('a >= b')).toBe(false);
  });
  it('chooses rw/simp/apply/exact for Lean', () => {
    expect(leanInsertion(info('A', 'a = b'), undefined, 'x : T\n⊢ f a = c').text).toBe('rw [A]');
    expect(leanInsertion(info('A', 'a = b'), undefined, 'x : T\n⊢ f a ≤ c').text).toBe('simp [A]');
    expect(leanInsertion(info('B', 'm ≤ n', ['(h : m < n + 1)']), undefined, undefined).text).toBe('apply B');
    expect(leanInsertion(info('C', 'True'), undefined, undefined).text).toBe('exact C');
    expect(leanInsertion(info('C', 'True'), { kind: 'list', tactic: 'rw' }, undefined).text).toBe('C');
  });
  it('chooses simp add/rule/using for Isabelle', () => {
    expect(isabelleInsertion({ ...info('T.a', 'x + 0 = x'), lang: 'isabelle' }, undefined).text).toBe('by (simp add: T.a)');
    expect(isabelleInsertion({ ...info('T.b', 'P ∧ Q', ['P', 'Q']), lang: 'isabelle' }, undefined).text).toBe('by (rule T.b)');
    expect(isabelleInsertion({ ...info('T.c', 'P'), lang: 'isabelle' }, undefined).text).toBe('using T.c by simp');
  });
  it('separates from the text before', () => {
    expect(separatorBefore('  rw [', { kind: 'list', tactic: 'rw' })).toBe('');
    expect(separatorBefore('  rw [foo', { kind: 'list', tactic: 'rw' })).toBe(', ');
    expect(separatorBefore('  by (simp add: foo', { kind: 'list', tactic: 'simp add:' })).toBe(' ');
    expect(separatorBefore('  exact', undefined)).toBe(' ');
    expect(separatorBefore('  ', undefined)).toBe('');
  });
  it('reads the main conclusion of a state', () => {
    expect(mainConclusion('a b : ℕ\nh : a < b\n⊢ a ≤ b')).toBe('a ≤ b');
    expect(mainConclusion('proof (prove)\ngoal (1 subgoal):\n 1. A ⟹ B ⟹ A ∧ B')).toBe('A ∧ B');
  });
});

describe('merging', () => {
  const ours = [{ label: 'Nat.mul_comm', sortText: 'b0001', data: { 'premise-lsp': 'Nat.mul_comm' } }];
  it('keeps plain arrays plain and lists lists', () => {
    expect(Array.isArray(mergeCompletions([{ label: 'simp' }], ours, ''))).toBe(true);
    const l = mergeCompletions({ isIncomplete: true, items: [{ label: 'x', sortText: '1' }] }, ours, '') as any;
    expect(l.isIncomplete).toBe(true);
    expect(l.items.map((i: any) => i.sortText)).toEqual(['a1', 'b0001']);
    expect((mergeCompletions(null, ours, '') as any).items).toHaveLength(1);
  });
  it('moves premises ahead when they match the prefix better', () => {
    const l = mergeCompletions({ isIncomplete: false, items: [{ label: 'Nat.succ' }] }, ours, 'Nat.mu') as any;
    expect(l.items[1].sortText).toBe('00001');
    expect(prefixScore('Nat.mul_comm', 'mul')).toBe(2);
    expect(prefixScore('Nat.mul_comm', 'MUL')).toBe(1);
  });
  it('appends hover content in every upstream shape', () => {
    const mine = { contents: { kind: 'markdown' as const, value: 'P' } };
    expect(mergeHover(null, mine)).toBe(mine);
    expect((mergeHover({ contents: 'plain' }, mine) as any).contents.value).toBe('plain\n\n---\n\nP');
    expect((mergeHover({ contents: [{ language: 'isabelle', value: 'c' }] }, mine) as any).contents.value).toBe('```isabelle\nc\n```\n\n---\n\nP');
    expect(mergeHover({ contents: 'x' }, null)).toEqual({ contents: 'x' });
  });
  it('treats an empty upstream hover as none (Isabelle answers `{contents: []}` where there is nothing)', () => {
    const mine = { contents: { kind: 'markdown' as const, value: 'P' } };
    expect(mergeHover({ contents: [] }, mine)).toBe(mine);
    expect(mergeHover({ contents: '' }, mine)).toBe(mine);
    expect(mergeHover({ contents: { kind: 'markdown', value: '' } }, mine)).toBe(mine);
    expect(mergeHover({ contents: [] }, null)).toEqual({ contents: [] });
  });
});

describe('goal text', () => {
  it('strips Isabelle HTML', () => {
    expect(stripHtml('<pre>goal (1 subgoal):<br/> 1. x &lt; y &#x27F9; P &amp; Q</pre>')).toBe('goal (1 subgoal):\n 1. x < y ⟹ P & Q');
  });
  it('keeps a lone `<` in garbage output as text, however many there are', () => {
    expect(stripHtml('<pre>a < b <span>c</span></pre>')).toBe('a < b c');
    // a tag ran from each `<` to the next `>`, rescanning the rest: minutes for this
    const junk = '<'.repeat(1_000_000);
    expect(stripHtml(junk + '<b>x</b>')).toBe(junk + 'x');
  });
  it('reads plainGoal replies', () => {
    expect(goalsOf({ goals: ['a\n⊢ b'], rendered: '' })).toEqual(['a\n⊢ b']);
    expect(goalsOf({ goals: [], rendered: 'no goals' })).toBeUndefined();
    expect(goalsOf(null)).toBeUndefined();
  });
  it('reads a conv-mode goal (`| e`, no `⊢`) as the goal, leaving ordinary goals alone', () => {
    // conv mode: plainGoal renders the focused expression as `| e` (shape of lean4 tests/lean/interactive/plainGoal.lean)
    expect(goalsOf({ rendered: '', goals: ['| True = True'] })).toEqual(['⊢ True = True']);
    expect(goalsOf({ rendered: '', goals: ['x : Nat\n| x + 0'] })).toEqual(['x : Nat\n⊢ x + 0']);
    expect(goalsOf({ rendered: '', goals: ['h : a | b\n⊢ b | a'] })).toEqual(['h : a | b\n⊢ b | a']);
  });
});

describe('fixture engine', () => {
  it('ranks by token overlap with the main goal first', async () => {
    const e = new FixtureEngine([
      { name: 'Nat.add_comm', statement: 'n + m = m + n', goal: 'n + m = m + n' },
      { name: 'Nat.mul_comm', statement: 'n * m = m * n', goal: 'n * m = m * n' },
    ]);
    expect((await e.search('⊢ n * m = m * n\n\n⊢ n + m = m + n'))[0].name).toBe('Nat.mul_comm');
    expect(e.lookup('Nat.add_comm')?.kind).toBe('theorem');
    e.remove(['Nat.add_comm']);
    expect(e.size).toBe(1);
  });
});
