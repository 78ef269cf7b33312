/** Pattern search (engine/pattern.ts on the slot matcher): parsing, matching, and the engine's ordering. */
import { describe, expect, it } from 'vitest';
import { looksLikePattern, parsePattern, PatternError, statementType } from '../../server/src/engine/pattern.js';
import { patternMatches, patternTarget, readTermPattern } from '../../server/src/engine/slot.js';

const m = (p: string, t: string, whole = false) => patternMatches(readTermPattern(p), patternTarget(t), whole);

describe('pattern matcher', () => {
  it('matches holes against tokens, groups and applications, bracketed as the precedences allow', () => {
    expect(m('_ * (_ ^ _)', 'x * y ^ 2 = z')).toBe(true);
    expect(m('_ * (_ ^ _)', 'x * (y ^ 2) = z')).toBe(true);
    expect(m('_ * (_ ^ _)', '(x * y) ^ 2 = z')).toBe(false);
    expect(m('List.replicate (_ + _) _', 'List.replicate (m + n) a = List.replicate m a ++ List.replicate n a')).toBe(true);
    expect(m('List.replicate (_ + _) _', 'List.replicate m a ++ List.replicate n a')).toBe(false);
  });

  it('lets a hole beside an operator take a run of tighter-binding tokens', () => {
    expect(m('_ ≤ _', '|a + b| ≤ |a| + |b|', true)).toBe(true);
    expect(m('_ < _ → _', 'a + 1 < b → c', true)).toBe(true);
    expect(m('_ * _', 'a + b', true)).toBe(false);
    expect(m('_ + _', 'a * b + c', true)).toBe(true);
    expect(m('_ * _', 'a * b + c', true)).toBe(false);
  });

  it("reads a big operator's binder notation as the function applied to its body", () => {
    expect(m('tsum _ = _ * tsum _', "∑' x, a * f x = a * ∑' x, f x", true)).toBe(true);
    expect(m('tsum _ < tsum _', "∑' (n : ℕ), f n < ∑' n, g n", true)).toBe(true);
    expect(m('tsum _ = _ * tsum _', "∑' x, f x * a = (∑' x, f x) * a", true)).toBe(false);
  });

  it('binds a repeated variable to the same text each time', () => {
    expect(m('?a * ?b = ?b * ?a', 'a * b = b * a')).toBe(true);
    expect(m('?a * ?b = ?b * ?a', 'a * b = a * b')).toBe(false);
    expect(m('Real.sqrt ?a * Real.sqrt ?a', '√x * √x = x')).toBe(true);
    expect(m('Real.sqrt ?a * Real.sqrt ?a', 'Real.sqrt x * Real.sqrt y = x')).toBe(false);
  });

  it('reads a statement as one type: binders, then the conclusion', () => {
    const st = statementType({ args: ['{α β : Type*}', '(f : α → β)', '(l : List α)'], goal: 'List β', statement: '' });
    expect(m('(?a -> ?b) -> List ?a -> List ?b', st.type)).toBe(true);
    expect(m('(?a -> ?b) -> List ?b -> List ?a', st.type)).toBe(false);
    const lt = statementType({ args: ['(h : f ≤ g)', '(hi : f i < g i)'], goal: "∑' n, f n < ∑' n, g n", statement: '' });
    expect(lt.concl).toMatch(/tsum/);
    expect(lt.hyps).toEqual(['f ≤ g', 'f i < g i']);
  });
});

describe('pattern parser', () => {
  it('reads constants, name fragments, terms, conclusions and combinations', () => {
    const p = parsePattern('Real.sqrt, "sqrt_mul", _ * _, ⊢ _ < _ → tsum _ < tsum _');
    expect(p.parts.map((x) => x.kind)).toEqual(['const', 'name', 'term', 'concl']);
    expect(p.parts[1]).toMatchObject({ fragment: 'sqrt_mul' });
    const concl = p.parts[3] as Extract<(typeof p.parts)[number], { kind: 'concl' }>;
    expect(concl.hyps).toHaveLength(1);
    expect(parsePattern('|- tsum _ = _').parts[0]!.kind).toBe('concl');
    // brackets around a conclusion with hypotheses, as Loogle's documentation writes it
    expect(parsePattern('⊢ (_ < _ → tsum _ < tsum _)').parts[0]).toMatchObject({ kind: 'concl', hyps: [expect.anything()] });
    // a comma after a binder is not a separator
    expect(parsePattern('∀ x, _ ≤ x').parts).toHaveLength(1);
  });

  it('refuses empty parts, unbalanced brackets and unclosed quotes with a message', () => {
    expect(() => parsePattern('Real.sqrt, ')).toThrow(PatternError);
    expect(() => parsePattern('(_ * _')).toThrow(/unbalanced/);
    expect(() => parsePattern('"sqrt')).toThrow(/closing/);
    expect(() => parsePattern('  ')).toThrow(/empty/);
  });

  it('recognises a query written as a pattern, and leaves states, statements, names and English alone', () => {
    for (const q of ['"differ"', '_ * (_ ^ _)', '|- tsum _ = _ * tsum _', '⊢ tsum _ = _', 'Real.sqrt, _ * _', '?a * ?b = ?b * ?a']) expect(looksLikePattern(q), q).toBe(true);
    // a printed goal's metavariables and `fun _ =>` are no holes
    for (const q of ['Real.sqrt', 'a + b = b + a', 'l : List α\n⊢ l = l', 'triangle inequality', '⊢ a ≤ a', 'theorem foo (a : ℕ) : a = a', '⊢ f ?m.5 = 0', '⊢ (fun _ => 0) = f'])
      expect(looksLikePattern(q), q).toBe(false);
  });
});
