/** Aliases take their target's statement once names are resolved (indexes/src/extract/alias-types.ts). */
import { describe, expect, it } from 'vitest';
import { extractRecords } from '../../indexes/src/extract/extract.js';
import { extractBatch } from '../../indexes/src/extract/file.js';
import { formalTerms } from '../../indexes/src/extract/formal-terms.js';
import { resolveRefs } from '../../indexes/src/extract/resolve.js';
import type { PremiseRecord } from '../../indexes/src/extract/record.js';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { buildIndex } from '../../indexes/src/build.js';
import { PremiseTable } from '../../indexes/src/store/premises.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SOURCE = [
  'theorem left_distrib [Mul R] [Add R] (a b c : R) : a * (b + c) = a * b + a * c := sorry',
  'alias mul_add := left_distrib',
  'alias mul_add\' := mul_add',
  'def double (n : Nat) : Nat := n + n',
  'alias twice := double',
  'theorem dvd_iff (h : 0 < n) : a ∣ b ↔ a ≤ b → c := sorry',
  'alias ⟨le_of_dvd, dvd_of_le⟩ := dvd_iff',
  'alias ⟨_, of_le⟩ := dvd_iff',
  'theorem forall_iff : ∀ x : Nat, p x ↔ q x := sorry',
  'alias ⟨forall_mp, _⟩ := forall_iff',
  'alias from_core := Nat.succ_le_iff',
  'alias loop_a := loop_b',
  'alias loop_b := loop_a',
].join('\n');

const byName = (rs: PremiseRecord[], name: string) => rs.find((r) => r.name === name)!;

describe('alias records', () => {
  const rs = extractRecords(SOURCE, { lang: 'lean', rel: 'A.lean', module: 'A' });

  it("take their target's kind, binders and conclusion, through chains; the statement stays as written", () => {
    expect(byName(rs, 'mul_add')).toMatchObject({ kind: 'theorem', args: ['[Mul R]', '[Add R]', '(a b c : R)'], goal: 'a * (b + c) = a * b + a * c', statement: 'alias mul_add := left_distrib' });
    expect(byName(rs, "mul_add'").goal).toBe('a * (b + c) = a * b + a * c');
    expect(byName(rs, 'twice')).toMatchObject({ kind: 'def', args: ['(n : Nat)'], goal: 'Nat' });
  });

  it('take one direction of an iff each, a hypothesis side in parentheses when it would capture the rest', () => {
    expect(byName(rs, 'le_of_dvd')).toMatchObject({ args: ['(h : 0 < n)'], goal: 'a ∣ b → a ≤ b → c', statement: 'alias ⟨le_of_dvd, dvd_of_le⟩ := dvd_iff' });
    expect(byName(rs, 'dvd_of_le').goal).toBe('(a ≤ b → c) → a ∣ b');
    expect(byName(rs, 'of_le').goal).toBe('(a ≤ b → c) → a ∣ b');
  });

  it('stay as they are when the target is not in the set, is an iff under a binder, or the chain is a loop', () => {
    expect(byName(rs, 'forall_mp').goal).toBe('');
    expect(byName(rs, 'from_core')).toMatchObject({ goal: '', args: [] });
    expect(byName(rs, 'loop_a').goal).toBe('');
  });

  it("are searched by their target's terms on the build's worker path too", () => {
    const dir = mkdtempSync(join(tmpdir(), 'alias-'));
    writeFileSync(join(dir, 'A.lean'), SOURCE);
    const [file] = extractBatch([{ path: join(dir, 'A.lean'), rel: 'A.lean', module: 'A', lang: 'lean', root: dir }]);
    const out = resolveRefs(file!.decls);
    const mulAdd = byName(out, 'mul_add') as PremiseRecord & { formalTerms?: { table: { terms: readonly string[]; ids: Uint32Array }; start: number; end: number } };
    const run = mulAdd.formalTerms!;
    const made = Array.from(run.table.ids.subarray(run.start, run.end), (id) => run.table.terms[id]);
    expect(made).toEqual(formalTerms(mulAdd));
    expect(made).toContain('*');
  });

  it('take a target from an index the build resolves against (Lean core built as its own entry)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'alias-external-'));
    const core = join(dir, 'core');
    const lib = join(dir, 'lib');
    mkdirSync(core);
    mkdirSync(lib);
    writeFileSync(join(core, 'Prelude.lean'), 'theorem congrArg (f : α → β) (h : a₁ = a₂) : f a₁ = f a₂ := sorry\n');
    writeFileSync(join(lib, 'Logic.lean'), 'alias congr_arg := congrArg\nalias congr_nowhere := nowhere\n');
    await buildIndex({ sources: [core], out: join(dir, 'core-idx') });
    await buildIndex({ sources: [lib], out: join(dir, 'lib-idx'), resolveAgainst: [join(dir, 'core-idx')] });
    const table = PremiseTable.open(join(dir, 'lib-idx', 'premises.bin'));
    const info = (name: string) => table.get(table.id(name)!);
    expect(info('congr_arg')).toMatchObject({ args: ['(f : α → β)', '(h : a₁ = a₂)'], goal: 'f a₁ = f a₂', statement: 'alias congr_arg := congrArg' });
    expect(info('congr_nowhere').goal).toBe('');
    table.close();
  });
});
