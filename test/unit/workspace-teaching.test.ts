/**
 * Your own proofs teach the ranking: a workspace index built against its
 * dependencies keeps the references into them (external-refs.json), and the
 * engine counts those, and the live overlay's, as uses (the popularity prior)
 * and follows them in graph votes.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexes/src/build.js';
import type { PremiseRecord } from '../../indexes/src/extract/record.js';
import { openEngine } from '../../server/src/engine/open.js';
import { lakeFixture } from './lake-project.js';

const DEP = [
  'namespace DepLib',
  '',
  'def twist (a b : Nat) : Nat := a + b',
  '',
  'theorem twist_swap (a b : Nat) : twist a b = twist b a := Nat.add_comm a b',
  '',
  'theorem twist_comm (a b : Nat) : twist a b = twist b a := Nat.add_comm a b',
  '',
  'end DepLib',
  '',
].join('\n');

const WS = [
  'namespace Proj',
  'open DepLib',
  '',
  'theorem grumbo_twist (x y : Nat) (h : x = y) : twist x y = twist y x := twist_comm x y',
  '',
  'theorem use_two (x y : Nat) : twist (x + 1) y = twist y (x + 1) := by rw [DepLib.twist_comm]',
  '',
  'end Proj',
  '',
].join('\n');

function fixture() {
  const f = lakeFixture();
  f.write('.lake/packages/deplib/DepLib/Twist.lean', DEP);
  f.write('Proj/Twist.lean', WS);
  const tmp = mkdtempSync(join(tmpdir(), 'premise-lsp-teach-'));
  return { f, dep: join(tmp, 'dep'), ws: join(tmp, 'ws'), plainWs: join(tmp, 'ws-plain') };
}

const hit = (hits: { name: string; parts: { prior?: number; graph?: number } }[], name: string) => hits.find((h) => h.name === name);

describe('workspace proofs teach the ranking', () => {
  const { f, dep, ws, plainWs } = fixture();
  const built = (async () => {
    await buildIndex({ sources: [f.depDir], out: dep });
    await buildIndex({ sources: [f.root], out: ws, packages: false, resolveAgainst: [dep] });
    await buildIndex({ sources: [f.root], out: plainWs, packages: false });
  })();

  it('a dependency lemma used by workspace proofs gains the prior, and outranks its twin', async () => {
    await built;
    expect(existsSync(join(ws, 'external-refs.json'))).toBe(true);
    expect(existsSync(join(plainWs, 'external-refs.json'))).toBe(false);
    const query = 'twist a b = twist b a';
    const taught = await (await openEngine([dep, ws], { defaultReranker: false })).search(query, { k: 5, mode: 'hybrid' });
    expect(hit(taught, 'DepLib.twist_comm')?.parts.prior).toBeCloseTo(Math.log1p(2));
    expect(taught.map((h) => h.name).indexOf('DepLib.twist_comm')).toBeLessThan(taught.map((h) => h.name).indexOf('DepLib.twist_swap'));
    // built without the dependencies, the workspace's references are lost: no prior, the twin first
    const plain = await (await openEngine([dep, plainWs], { defaultReranker: false })).search(query, { k: 5, mode: 'hybrid' });
    expect(hit(plain, 'DepLib.twist_comm')?.parts.prior).toBe(0);
    expect(plain.map((h) => h.name).indexOf('DepLib.twist_comm')).toBeGreaterThan(plain.map((h) => h.name).indexOf('DepLib.twist_swap'));
  });

  it('workspace theorems near the query vote for the dependency lemmas their proofs use', async () => {
    await built;
    const engine = await openEngine([dep, ws], { defaultReranker: false });
    // nothing in DepLib mentions h : x = y ∧ grumbo; the workspace theorem does, and its proof uses twist_comm
    const hits = await engine.search('grumbo twist', { k: 10, mode: 'hybrid' });
    expect(hit(hits, 'DepLib.twist_comm')?.parts.graph).toBeGreaterThan(0);
    const plain = await (await openEngine([dep, plainWs], { defaultReranker: false })).search('grumbo twist', { k: 10, mode: 'hybrid' });
    expect(hit(plain, 'DepLib.twist_comm')?.parts.graph ?? 0).toBe(0);
  });

  it('live-edited proofs count too, and a replaced proof stops counting what it used', async () => {
    await built;
    const engine = await openEngine([dep, ws], { defaultReranker: false });
    const prior = async () => hit(await engine.search('twist a b = twist b a', { k: 5, mode: 'bm25' }), 'DepLib.twist_comm')?.parts.prior;
    expect(await prior()).toBeCloseTo(Math.log1p(2));
    const rec = (name: string, refs: string[]): PremiseRecord => ({
      name,
      kind: 'theorem',
      lang: 'lean',
      module: 'Proj.Twist',
      file: 'Proj/Twist.lean',
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
      args: [],
      goal: 'True',
      statement: `theorem ${name} : True`,
      refs,
    });
    await engine.upsert([rec('Proj.fresh', ['DepLib.twist_comm'])]);
    expect(await prior()).toBeCloseTo(Math.log1p(3));
    // the edited grumbo_twist no longer uses twist_comm
    await engine.upsert([rec('Proj.grumbo_twist', [])]);
    expect(await prior()).toBeCloseTo(Math.log1p(2));
    engine.remove(['Proj.fresh']);
    expect(await prior()).toBeCloseTo(Math.log1p(1));
  });
});
