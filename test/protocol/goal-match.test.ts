/**
 * The goal match in the language server (issue 26), over the sample index and
 * the fake Lean server: a declaration the document makes above the cursor
 * (nearby), or another open document makes (live index), whose conclusion is the
 * goal at the cursor comes first, above the sample's popular `mul_comm`; one that
 * states what a library lemma states (its twin: the sample's `mul_comm`) comes within
 * the top 3, next to it (issue 31).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexes/src/build.js';
import { loadEncoder } from '../../models/src/encoder.js';
import { TINY_ENCODER } from '../unit/engine-helpers.js';
import { Editor, FAKE_LEAN, fixture, posOf, requireBuild, ROOT, SERVE } from './harness.js';

const index = join(mkdtempSync(join(tmpdir(), 'premise-lsp-goal-match-')), 'idx');
const editors: Editor[] = [];
afterEach(() => {
  for (const e of editors.splice(0)) e.kill();
});

beforeAll(async () => {
  const encoder = await loadEncoder(TINY_ENCODER);
  try {
    await buildIndex({ sources: [join(ROOT, 'test', 'fixtures', 'sample')], out: index, encoder, encoderDir: TINY_ENCODER });
  } finally {
    await encoder.dispose();
  }
}, 60_000);

async function start() {
  requireBuild();
  const e = new Editor(process.execPath, [SERVE, 'serve', '--stdio', '--index', index, '--restart-delay-ms', '50', '--', process.execPath, FAKE_LEAN]);
  editors.push(e);
  await e.initialize({ 'premise-lsp': { liveIndex: true } });
  return e;
}

type Hit = { name: string };
const search = async (e: Editor, args: object): Promise<string[]> => {
  const r = await e.request('workspace/executeCommand', { command: 'premise-lsp.search', arguments: [{ k: 10, ...args }] });
  if (r.error) throw new Error(`premise-lsp.search failed: ${r.error.message}`);
  return (r.result.results as Hit[]).map((h) => h.name);
};

/** Searches until `want` holds (documents are read after a pause in typing). */
async function until(e: Editor, args: object, want: (names: string[]) => boolean): Promise<string[]> {
  for (let i = 0; i < 100; i++) {
    const names = await search(e, args);
    if (want(names)) return names;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no answer for ${JSON.stringify(args)} that holds`);
}

const uriOf = (name: string) => fixture('Demo.lean').uri.replace('Demo.lean', name);

describe('the goal match in the language server', () => {
  it('a nearby declaration that states the goal at the cursor comes first', async () => {
    const e = await start();
    const uri = uriOf('GlorpNear.lean');
    // nearby helpers that share the goal's symbols, the later ones using the earlier (locality and popularity alike)
    const text = [
      '/-- x * y + 7 = 7 + y * x, multiplied out: x y 7 -/',
      'theorem near_mul_add (x y : Nat) : x * (y + 7) = x * y + 7 * x := by ring',
      'theorem near_glorp (a b : Nat) : a * b + 7 = 7 + b * a := by omega',
      'theorem near_add_mul (x y : Nat) : (x + 7) * y = x * y + 7 * y := by rw [near_mul_add]',
      'theorem near_use (x y : Nat) : (x + 7) * y + 7 = 7 + y * x + 7 * y := by rw [near_mul_add, near_add_mul]',
      'theorem main_glorp (x y : Nat) : x * y + 7 = 7 + y * x := by',
      '  -- goal: x y : ℕ\\n⊢ x * y + 7 = 7 + y * x',
      '  simp',
    ].join('\n');
    e.open(uri, text);
    const at = { uri, position: posOf(text, 'simp') };
    const names = await until(e, at, (n) => n.includes('near_glorp'));
    expect(names[0]).toBe('near_glorp');
    expect(names).not.toContain('main_glorp'); // the theorem being proved
    expect(names).toContain('Sample.mul_comm');
    expect(await e.shutdown()).toBe(0);
  });

  it('a live-indexed declaration of another document comes first for a goal it states', async () => {
    const e = await start();
    e.open(uriOf('GlorpLive.lean'), 'theorem live_glorp (x y : Nat) : x * y + 7 = 7 + y * x := by omega\n');
    const names = await until(e, { query: 'a b : ℕ\n⊢ a * b + 7 = 7 + b * a' }, (n) => n.includes('live_glorp'));
    expect(names[0]).toBe('live_glorp');
    expect(names).toContain('Sample.mul_comm');
    expect(await e.shutdown()).toBe(0);
  });

  it("a nearby declaration that states the goal as a library lemma does comes within the top 3 (issue 31)", async () => {
    const e = await start();
    const uri = uriOf('TwinNear.lean');
    const text = [
      'theorem near_mul_comm {M : Type} [Sample.CommMonoid\' M] (x y : M) : x * y = y * x := Sample.mul_comm x y',
      'theorem main_comm {M : Type} [Sample.CommMonoid\' M] (a b : M) : a * b = b * a := by',
      '  -- goal: a b : M\\n⊢ a * b = b * a',
      '  simp',
    ].join('\n');
    e.open(uri, text);
    const at = { uri, position: posOf(text, 'simp') };
    // (the locality bonus alone already puts a nearby twin above the library's; the live one below has none)
    const names = await until(e, at, (n) => n.includes('near_mul_comm'));
    expect(names.slice(0, 3)).toContain('near_mul_comm');
    expect(names.slice(0, 3)).toContain("Sample.CommMonoid'.mul_comm'");
    expect(await e.shutdown()).toBe(0);
  });

  it('a live-indexed declaration that states the goal as a library lemma does comes within the top 3 (issue 31)', async () => {
    const e = await start();
    e.open(uriOf('TwinLive.lean'), "theorem live_mul_comm {M : Type} [Sample.CommMonoid' M] (x y : M) : x * y = y * x := Sample.mul_comm x y\n");
    const names = await until(e, { query: 'a b : M\n⊢ a * b = b * a' }, (n) => n.includes('live_mul_comm'));
    expect(names.slice(0, 3)).toContain('live_mul_comm');
    expect(names.slice(0, 3)).toContain("Sample.CommMonoid'.mul_comm'");
    expect(await e.shutdown()).toBe(0);
  });
});
