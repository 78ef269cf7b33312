/**
 * `export NS (a b)` names (Mathlib's `export MulZeroClass (zero_mul mul_zero)`): a proof that
 * writes `zero_mul` references `MulZeroClass.zero_mul`, within one index and from a workspace
 * indexed with `--resolve-against` the dependency index that exports it (its `exports.json`),
 * and so also after `--dense-from` and in the server's automatic workspace index, built the same way.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addDense, buildIndex } from '../../indexes/src/build.js';
import { fakeEncoder } from './engine-helpers.js';
import { readExports, readExternalRefs } from '../../indexes/src/external-refs.js';
import { PremiseTable } from '../../indexes/src/store/premises.js';

const root = mkdtempSync(join(tmpdir(), 'premise-exports-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const DEP = [
  'class MulZeroClass (M₀ : Type u) extends Mul M₀, Zero M₀ where',
  '  zero_mul : ∀ a : M₀, 0 * a = 0',
  '  mul_zero : ∀ a : M₀, a * 0 = 0',
  '',
  'export MulZeroClass (zero_mul mul_zero)',
  '',
  'theorem zero_mul_zero [MulZeroClass M₀] : (0 : M₀) * 0 = 0 := zero_mul 0',
  '',
].join('\n');

const WS = ['theorem my_lemma [MulZeroClass M₀] (a b : M₀) : 0 * a * b = 0 := by', '  rw [zero_mul, zero_mul]', '', 'theorem my_other [MulZeroClass M₀] (a : M₀) : a * 0 = 0 := mul_zero a', ''].join('\n');

function write(dir: string, file: string, text: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, file), text);
  return dir;
}

/** Each premise's references, by name. */
function refsByName(dir: string): Map<string, string[]> {
  const t = PremiseTable.open(join(dir, 'premises.bin'));
  try {
    return new Map(Array.from({ length: t.size }, (_, i) => [t.name(i), Array.from(t.refs(i), (j) => t.name(j))]));
  } finally {
    t.close();
  }
}

describe('export aliases', () => {
  it('resolve within an index: the proof references the exported declaration', async () => {
    const out = join(root, 'one');
    await buildIndex({ sources: [write(join(root, 'one-src'), 'Defs.lean', DEP + WS)], out });
    const refs = refsByName(out);
    expect(refs.get('my_lemma')).toEqual(['MulZeroClass.zero_mul']);
    expect(refs.get('my_other')).toEqual(['MulZeroClass.mul_zero']);
    expect(refs.get('zero_mul_zero')).toEqual(['MulZeroClass.zero_mul']);
    // the export names are no premises
    expect(refs.has('zero_mul')).toBe(false);
  });

  it('resolve across --resolve-against: the dependency index keeps its export names, the workspace its references into them', async () => {
    const dep = join(root, 'dep');
    await buildIndex({ sources: [write(join(root, 'dep-src'), 'Defs.lean', DEP)], out: dep });
    expect(Object.fromEntries(readExports(dep))).toEqual({ mul_zero: 'MulZeroClass.mul_zero', zero_mul: 'MulZeroClass.zero_mul' });
    const ws = join(root, 'ws');
    await buildIndex({ sources: [write(join(root, 'ws-src'), 'Mine.lean', WS)], out: ws, resolveAgainst: [dep] });
    const t = PremiseTable.open(join(ws, 'premises.bin'));
    const size = t.size;
    const id = (n: string) => t.id(n)!;
    const [lemma, other] = [id('my_lemma'), id('my_other')];
    t.close();
    const x = readExternalRefs(ws, size)!;
    expect(x.get(lemma)).toEqual(['MulZeroClass.zero_mul']);
    expect(x.get(other)).toEqual(['MulZeroClass.mul_zero']);
  });

  it('are kept by --dense-from and by a rebuild into the same directory', async () => {
    const dep = join(root, 'dep2');
    await buildIndex({ sources: [write(join(root, 'dep-src'), 'Defs.lean', DEP)], out: dep });
    const out = join(root, 'dep-dense');
    await addDense({ from: dep, out, encoder: fakeEncoder('fake') });
    expect(readExports(out).get('zero_mul')).toBe('MulZeroClass.zero_mul');
    // a rebuild whose sources export nothing leaves no stale exports.json behind
    await buildIndex({ sources: [write(join(root, 'dep-src2'), 'Plain.lean', 'theorem t : True := trivial\n')], out: dep });
    expect(existsSync(join(dep, 'exports.json'))).toBe(false);
  });
});
