/** Held-out statements read from an index are the records' statement queries (server/src/eval/statements.ts). */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexes/src/build.js';
import { extractSource } from '../../indexes/src/extract/extract.js';
import { resolveRefs } from '../../indexes/src/extract/resolve.js';
import { heldOutStatements, recordQueries } from '../../server/src/eval/statements.js';
import { HoldOutRule, isValidationFile } from '../../server/src/eval/holdout.js';

const root = mkdtempSync(join(tmpdir(), 'premise-statements-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// a file name in the validation split (stable hash 0 mod 20) and one outside it
const names = Array.from({ length: 200 }, (_, i) => `M${i}.lean`);
const VAL = names.find((f) => isValidationFile(f))!;
const TRAIN = names.find((f) => !isValidationFile(f))!;

const SOURCES: Record<string, string> = {
  [TRAIN]: 'theorem left_distrib (a b c : R) : a * (b + c) = a * b + a * c := sorry\ntheorem add_comm (a b : R) : a + b = b + a := sorry\n',
  [VAL]: [
    'alias mul_add := left_distrib',
    'theorem two_mul (a : R) : 2 * a = a + a := by rw [left_distrib, add_comm]',
    'theorem held (a : R) : a = a := by rw [left_distrib]',
    'theorem no_premises (a : R) : a = a := rfl',
  ].join('\n'),
};

describe('held-out statements', () => {
  it("are the validation files' theorems with premises, never an alias or a held-out name, as their records give them", async () => {
    const src = join(root, 'src');
    mkdirSync(src, { recursive: true });
    for (const [f, text] of Object.entries(SOURCES)) writeFileSync(join(src, f), text);
    const out = join(root, 'idx');
    await buildIndex({ sources: [src], out });
    const holdout = new Set(['held']);
    const qs = heldOutStatements(out, holdout);
    expect(qs.map((q) => q.id)).toEqual(['two_mul']);
    expect(qs[0]).toMatchObject({ text: 'a : R\n⊢ 2 * a = a + a', theorem: 'two_mul' });
    expect(qs[0]!.gold.flat().sort()).toEqual(['add_comm', 'left_distrib']);
    // the same as from the extracted records
    const records = resolveRefs(Object.entries(SOURCES).flatMap(([f, text]) => extractSource(text, { lang: 'lean', rel: f, module: f.replace('.lean', '') }).decls));
    const all = new Set(records.map((r) => r.name));
    const fromRecords = recordQueries(records, holdout, (n) => all.has(n), new HoldOutRule()).queries.filter((q) => q.split === 'val');
    expect(fromRecords.map((q) => [q.name, q.text, [...q.gold].sort()])).toEqual(qs.map((q) => [q.id, q.text, q.gold.flat().sort()]));
  });
});
