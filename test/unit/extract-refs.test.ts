/** References read from Lean proofs (indexes/src/extract/lean/refs.ts): type ascriptions are references, binders are not. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractLean } from '../../indexes/src/extract/lean/extractor.js';

const text = readFileSync(new URL('../fixtures/lean/Ascription.lean', import.meta.url), 'utf8');
const decls = extractLean(text, 'Test/Ascription.lean', 'Test.Ascription').decls;
const refs = (name: string) => decls.find((d) => d.name === name)!.refs;

describe('type ascriptions', () => {
  it('keep a lone qualified name ascribed a type: `(Nat.succ_le_iff : a < b)`, `(LinearMap.id : B →ₗ[R] B)`', () => {
    expect(refs('Asc.lt_by_succ')).toContain('Nat.succ_le_iff');
    expect(refs('Asc.id_comp_asc')).toEqual(expect.arrayContaining(['LinearMap.id', 'LinearMap.id_comp']));
  });

  it('keep a plain name ascribed in term position: `exact (le_refl : …)`', () => {
    expect(refs('Asc.plain_asc')).toContain('le_refl');
  });

  it('still read binders as binders: `fun (k : ℕ)`, `∀ (m : ℕ)`, `obtain ⟨w, hw⟩ :`', () => {
    const r = refs('Asc.binders_stay');
    for (const bound of ['k', 'm', 'n', 'w', 'hw', 'key']) expect(r).not.toContain(bound);
    expect(r).toContain('Nat.zero_add');
  });
});
