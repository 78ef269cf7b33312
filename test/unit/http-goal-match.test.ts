/**
 * Issue 26's request over the LeanHammer API, against the sample index: a new
 * premise that states the goal exactly comes first, with and without a docstring
 * in `decl`, with `ℕ` or `Nat`. Issue 31: one that states what a popular library
 * lemma states (its twin) still comes within the top 3, next to that lemma.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexes/src/build.js';
import { loadEncoder } from '../../models/src/encoder.js';
import { openEngine } from '../../server/src/engine/open.js';
import { LeanHammerApi } from '../../server/src/http/leanhammer.js';
import { TINY_ENCODER } from './engine-helpers.js';

const SAMPLE = join(fileURLToPath(new URL('.', import.meta.url)), '..', 'fixtures', 'sample');
const idx = join(mkdtempSync(join(tmpdir(), 'premise-lsp-goal-match-')), 'idx');

beforeAll(async () => {
  const encoder = await loadEncoder(TINY_ENCODER);
  try {
    await buildIndex({ sources: [SAMPLE], out: idx, encoder, encoderDir: TINY_ENCODER });
  } finally {
    await encoder.dispose();
  }
}, 60_000);

const request = (nat: string, doc: boolean, goalNat = 'ℕ') => ({
  state: `x y : ${goalNat}\n⊢ x * y + 7 = 7 + y * x`,
  new_premises: [{ name: 'my_glorp_lemma', decl: `${doc ? '/-- Glorp: a product plus seven, turned around. -/\n' : ''}theorem my_glorp_lemma (x y : ${nat}) : x * y + 7 = 7 + y * x` }],
  k: 40,
});

async function ranked(goalMatch: boolean, body: object): Promise<string[]> {
  const engine = await openEngine(idx, { goalMatch, defaultReranker: false });
  try {
    const api = new LeanHammerApi(engine, { maxNewPremises: 16 });
    const r = await api.handle('POST', '/retrieve', JSON.stringify(body));
    expect(r.status).toBe(200);
    return (r.body as { name: string }[]).map((h) => h.name);
  } finally {
    await engine.dispose();
  }
}

describe('POST /retrieve with a new premise that states the goal', () => {
  it('returns it first, with and without a docstring, with ℕ or Nat', async () => {
    const variants = [request('ℕ', false), request('ℕ', true), request('Nat', false), request('Nat', true), request('Nat', true, 'Nat')];
    for (const body of variants) expect((await ranked(true, body))[0]).toBe('my_glorp_lemma');
    // the problem it solves: without the goal match, popular lemmas sharing the goal's symbols come first
    const before = await Promise.all(variants.map((b) => ranked(false, b)));
    expect(before.some((names) => names[0] !== 'my_glorp_lemma')).toBe(true);
  });
});

describe("POST /retrieve with a new premise that states the goal as a library lemma does (issue 31)", () => {
  it('returns it within the top 3, next to its library twin', async () => {
    // the sample's `Sample.mul_comm` and the field `CommMonoid'.mul_comm'` state it too, with uses and votes
    const twin = { state: 'a b : M\n⊢ a * b = b * a', new_premises: [{ name: 'my_mul_comm', decl: 'theorem my_mul_comm (x y : M) : x * y = y * x' }], k: 20 };
    const names = await ranked(true, twin);
    expect(names.slice(0, 3)).toContain('my_mul_comm');
    expect(names.slice(0, 3)).toContain("Sample.CommMonoid'.mul_comm'");
    // the issue's own request
    const nat = { state: 'a b : ℕ\n⊢ a + b = b + a', new_premises: [{ name: 'my_add_comm', decl: 'theorem my_add_comm (a b : ℕ) : a + b = b + a' }], k: 20 };
    expect((await ranked(true, nat)).slice(0, 3)).toContain('my_add_comm');
  });
});
