/** The AFP held-out lemmas are read from an Isabelle index's own records (server/src/eval/isabelle-lemmas.ts). */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexes/src/build.js';
import { heldOutLemmas, isabelleGoal } from '../../server/src/eval/isabelle-lemmas.js';
import { afpHalf, isValidationFile } from '../../server/src/eval/holdout.js';

const root = mkdtempSync(join(tmpdir(), 'premise-afp-lemmas-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// a theory path held out (the one hold-out rule, the path taken inside thys/) and one that is not
const heldOut = (path: string) => isValidationFile(path);
const paths = Array.from({ length: 400 }, (_, i) => `S${i}/T${i}.thy`);
const HELD = paths.find(heldOut)!;
const KEPT = paths.find((p) => !heldOut(p))!;
const theory = (path: string, imports: string, body: string) => `theory ${path.split('/')[1]!.replace('.thy', '')}\n  imports ${imports}\nbegin\n\n${body}\nend\n`;

describe('AFP held-out lemmas', () => {
  it("are the held-out theories' lemmas that name a fact, their statements printed as a goal, ordered by the hash of the name, halved by theory file", async () => {
    const held = HELD.split('/')[1]!.replace('.thy', '');
    const kept = KEPT.split('/')[1]!.replace('.thy', '');
    const thys = join(root, 'afp', 'thys');
    mkdirSync(join(thys, HELD.split('/')[0]!), { recursive: true });
    mkdirSync(join(thys, KEPT.split('/')[0]!), { recursive: true });
    writeFileSync(join(thys, KEPT), theory(KEPT, 'Main', 'definition double :: "nat ⇒ nat" where "double n = n + n"\n\nlemma double_0: "double 0 = 0"\n  by (simp add: double_def)\n'));
    writeFileSync(
      join(thys, HELD),
      theory(
        HELD,
        `"../${KEPT.replace('.thy', '')}"`,
        [
          `lemma double_mono: "m ≤ n ⟹ double m ≤ double n"`,
          `  by (simp add: double_def)`,
          ``,
          `lemma double_twice [simp]:`,
          `  assumes "0 < n"`,
          `  shows "double n = 2 * n"`,
          `  using assms by (simp add: double_def double_0)`,
          ``,
          ...Array.from({ length: 6 }, (_, i) => `lemma double_mono${i}: "m ≤ n ⟹ double m ≤ double n"\n  by (simp add: double_def)\n`),
          `lemma no_facts: "x = x"`,
          `  by simp`,
          ``,
          `definition quad :: "nat ⇒ nat" where "quad n = double (double n)"`,
          ``,
        ].join('\n'),
      ),
    );
    // the AFP root and its thys/ hold out the same lemmas
    for (const src of [join(root, 'afp'), thys]) {
      const out = join(root, `idx-${src === thys ? 'thys' : 'root'}`);
      await buildIndex({ sources: [src], out });
      const qs = heldOutLemmas(out);
      const names = [`${held}.double_mono`, `${held}.double_twice`, ...Array.from({ length: 6 }, (_, i) => `${held}.double_mono${i}`)];
      const hash = (n: string) => createHash('sha1').update(n).digest('hex');
      expect(qs.map((q) => q.id)).toEqual(names.sort((a, b) => (hash(a) < hash(b) ? -1 : 1)));
      const twice = qs.find((q) => q.id === `${held}.double_twice`)!;
      expect(twice).toMatchObject({ theorem: twice.id, text: 'goal (1 subgoal):\n 1. ⟦0 < n⟧ ⟹ double n = 2 * n', style: afpHalf(`${HELD}`) });
      // dev and test never share a theory: every lemma of the file is in its half
      expect(qs.map((q) => q.style)).toEqual(qs.map(() => afpHalf(HELD)));
      // `double_def` names the definition
      expect(twice.gold).toEqual([[`${kept}.double`], [`${kept}.double_0`]]);
      expect(heldOutLemmas(out, 1)).toEqual(qs.slice(0, 1));
      expect(afpHalf(`thys/${HELD}`)).toBe(afpHalf(HELD));
    }
  });

  it('prints a statement without premises as the bare goal', () => {
    expect(isabelleGoal([], 'x = x')).toBe('goal (1 subgoal):\n 1. x = x');
    expect(isabelleGoal(['A', 'B'], 'C')).toBe('goal (1 subgoal):\n 1. ⟦A; B⟧ ⟹ C');
  });
});
