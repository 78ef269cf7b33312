import { describe, expect, it } from 'vitest';
import { newPremiseRecord } from '../../server/src/http/new-premises.js';
import { withNotation } from '../../server/src/engine/notation.js';

describe('withNotation', () => {
  it('writes pp.notation-false operators as the symbols the index uses', () => {
    expect(withNotation('x y : Nat\n⊢ Eq (HAdd.hAdd x y) (HAdd.hAdd y x)')).toBe('x y : Nat\n⊢ = (+ x y) (+ y x)');
    expect(withNotation('⊢ LE.le (Neg.neg a) b ∧ Not (Membership.mem s x)')).toBe('⊢ ≤ (- a) b ∧ ¬ (∈ s x)');
    // parts of longer names stay
    expect(withNotation('Nat.Eq.refl MyEq EqSomething')).toBe('Nat.Eq.refl MyEq EqSomething');
  });
});

describe('newPremiseRecord', () => {
  it('splits a printed signature into hypotheses and conclusion, keeping the docstring', () => {
    const r = newPremiseRecord('Foo.add_le', '/-- Adding keeps order. -/\ntheorem Foo.add_le {a b : Nat} (h : LE.le a b) : LE.le (HAdd.hAdd a 1) (HAdd.hAdd b 1)');
    expect(r).toMatchObject({ name: 'Foo.add_le', kind: 'theorem', lang: 'lean', doc: 'Adding keeps order.' });
    expect(r.args).toEqual(['{a b : Nat}', '(h : ≤ a b)']);
    expect(r.goal).toBe('≤ (+ a 1) (+ b 1)');
  });

  it('keeps whatever it cannot read as the statement', () => {
    const r = newPremiseRecord('weird', '@@@ not lean');
    expect(r).toMatchObject({ name: 'weird', args: [], statement: '@@@ not lean' });
  });
});
