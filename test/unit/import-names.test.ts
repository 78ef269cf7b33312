/**
 * Import edits write only names that are imports (issue 31 items 8 and 9): a
 * module or theory name read from the disk or an index that is not a Lean
 * identifier path or a quotable Isabelle theory name is never written into the
 * user's file (`module-names.ts`, through `headerImports(…).add`, the one
 * producer of import edits), and the walk skips such files, counted; an added
 * import never lands inside a comment.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { headerImports } from '../../indexes/src/extract/imports.js';
import { importSyntax, isabelleTheorySyntax, leanModuleSyntax } from '../../indexes/src/extract/module-names.js';
import { discoverSources } from '../../indexes/src/extract/walk.js';

/** The crafted names of the hostile sweep. */
const EVIL_LEAN = 'Evil.A\n#eval IO.println "PWNED"\n--';
const EVIL_THY = 'Evil" begin ML ‹writeln "PWNED"› (*';

const apply = (text: string, ins: { offset: number; text: string } | undefined) => (ins ? text.slice(0, ins.offset) + ins.text + text.slice(ins.offset) : text);

describe('names that cannot be imported are never written', () => {
  it('a Lean module name holding a newline and code: no insertion', () => {
    expect(headerImports('import Mathlib.Order.Basic\n\ntheorem x : True := trivial\n', 'lean').add(EVIL_LEAN)).toBeUndefined();
    expect(headerImports('theorem x : True := trivial\n', 'lean').add(EVIL_LEAN)).toBeUndefined();
    expect(headerImports('prelude\n', 'lean').add(EVIL_LEAN)).toBeUndefined();
  });

  it('an Isabelle theory name holding a quote and code: no insertion', () => {
    expect(headerImports('theory Use\n  imports Main\nbegin\nend\n', 'isabelle').add(EVIL_THY)).toBeUndefined();
    expect(headerImports('theory Use\nbegin\nend\n', 'isabelle').add(EVIL_THY)).toBeUndefined();
  });

  it('Lean: identifiers as they are, other components «quoted», unquotable ones refused', () => {
    expect(leanModuleSyntax('Mathlib.Order.Basic')).toBe('Mathlib.Order.Basic');
    expect(leanModuleSyntax('Foo.α₁.x!')).toBe('Foo.α₁.x!');
    expect(leanModuleSyntax('Foo.2d')).toBe('Foo.«2d»');
    expect(leanModuleSyntax('Foo.my file')).toBe('Foo.«my file»');
    expect(leanModuleSyntax('Foo.end')).toBe('Foo.«end»');
    for (const bad of [EVIL_LEAN, 'A.«B»', 'A.B»\nimport C', 'A..B', '', 'A.B\r', 'A\u202eB', 'A\u2028B', 'A\tB']) expect(leanModuleSyntax(bad), JSON.stringify(bad)).toBeUndefined();
    expect(apply('import A\n', headerImports('import A\n', 'lean').add('Foo.2d'))).toBe('import A\nimport Foo.«2d»\n');
  });

  it('Isabelle: plain names bare, others in quotes, nothing with a quote, backslash, cartouche or white space', () => {
    expect(isabelleTheorySyntax('Main')).toBe('Main');
    expect(isabelleTheorySyntax('HOL-Library.Multiset')).toBe('"HOL-Library.Multiset"');
    for (const bad of [EVIL_THY, 'A"B', 'A\\<B>', 'A‹B›', 'A B', 'A\nB', '']) expect(isabelleTheorySyntax(bad), JSON.stringify(bad)).toBeUndefined();
    expect(importSyntax('Main', 'isabelle')).toBe('Main');
    const thy = 'theory Use\n  imports Main\nbegin\nend\n';
    expect(apply(thy, headerImports(thy, 'isabelle').add('HOL-Library.Multiset'))).toBe('theory Use\n  imports Main "HOL-Library.Multiset"\nbegin\nend\n');
  });
});

describe('an added Lean import never lands in a comment', () => {
  it('after a last import line that opens a block comment: after the line the comment ends on', () => {
    const text = 'import Imp.A /- a comment\n  that goes on -/\n\ntheorem x : True := trivial\n';
    expect(apply(text, headerImports(text, 'lean').add('Imp.C'))).toBe('import Imp.A /- a comment\n  that goes on -/\nimport Imp.C\n\ntheorem x : True := trivial\n');
  });

  it('nested comments, a command after the comment on its line, a line comment', () => {
    const nested = 'import Imp.A /- a /- b -/\n c -/ theorem x : True := trivial\n';
    expect(apply(nested, headerImports(nested, 'lean').add('Imp.C'))).toBe('import Imp.A /- a /- b -/\n c -/ \nimport Imp.C\ntheorem x : True := trivial\n');
    const line = 'import Imp.A -- /- not a block\ntheorem x : True := trivial\n';
    expect(apply(line, headerImports(line, 'lean').add('Imp.C'))).toBe('import Imp.A -- /- not a block\nimport Imp.C\ntheorem x : True := trivial\n');
  });

  it('a comment opened after the last import that never ends: no place, no insertion', () => {
    expect(headerImports('import Imp.A /- never closed\n\ntheorem x : True := trivial\n', 'lean').add('Imp.C')).toBeUndefined();
    expect(headerImports('module /- never closed\n', 'lean').add('Imp.C')).toBeUndefined();
    expect(headerImports('/- never closed\ntheorem x : True := trivial\n', 'lean').add('Imp.C')).toBeUndefined();
  });

  it('no header, a leading comment ending on the first command\'s line: the import on a line of its own before the command', () => {
    const text = '/- Copyright\n  notes -/ theorem x : True := trivial\n';
    expect(apply(text, headerImports(text, 'lean').add('Imp.C'))).toBe('/- Copyright\n  notes -/ \nimport Imp.C\ntheorem x : True := trivial\n');
    const plain = '/- Copyright -/\ntheorem x : True := trivial\n';
    expect(apply(plain, headerImports(plain, 'lean').add('Imp.C'))).toBe('/- Copyright -/\nimport Imp.C\ntheorem x : True := trivial\n');
  });
});

describe('Lean doc comments in the header (issue 36 item 6)', () => {
  it('`/--/` and `/-!/` open a doc comment that the `/` does not close: the import goes before it, never inside', () => {
    const doc = '/--/ a doc\n comment -/\ntheorem x : True := trivial\n';
    expect(apply(doc, headerImports(doc, 'lean').add('Imp.C'))).toBe('import Imp.C\n/--/ a doc\n comment -/\ntheorem x : True := trivial\n');
    const mod = '/-!/ # Title -/\ntheorem x : True := trivial\n';
    expect(apply(mod, headerImports(mod, 'lean').add('Imp.C'))).toBe('import Imp.C\n/-!/ # Title -/\ntheorem x : True := trivial\n');
    const after = 'import Imp.A /--/ doc\n -/\ntheorem x : True := trivial\n';
    expect(apply(after, headerImports(after, 'lean').add('Imp.C'))).toBe('import Imp.A \nimport Imp.C\n/--/ doc\n -/\ntheorem x : True := trivial\n');
  });

  it('a doc comment is no header comment: an import after it would not parse, so it goes before', () => {
    const text = '/- Copyright -/\n/-! # Module doc -/\ntheorem x : True := trivial\n';
    expect(apply(text, headerImports(text, 'lean').add('Imp.C'))).toBe('/- Copyright -/\nimport Imp.C\n/-! # Module doc -/\ntheorem x : True := trivial\n');
    const imported = 'import Imp.A\n/-- doc -/\ntheorem x : True := trivial\n';
    expect(apply(imported, headerImports(imported, 'lean').add('Imp.C'))).toBe('import Imp.A\nimport Imp.C\n/-- doc -/\ntheorem x : True := trivial\n');
  });
});

describe('keywords written as names are quoted (issue 36 item 6)', () => {
  it('Lean command keywords as module components: «quoted»', () => {
    for (const k of ['macro', 'syntax', 'run_cmd', 'macro_rules', 'elab', 'notation', 'infix', 'attribute', 'deriving', 'mutual', 'noncomputable', 'partial', 'unsafe', 'protected', 'scoped', 'local', 'omit', 'include', 'export'])
      expect(leanModuleSyntax(`Foo.${k}`), k).toBe(`Foo.«${k}»`);
    expect(leanModuleSyntax('Foo.macroBar')).toBe('Foo.macroBar');
  });

  it('Isabelle header keywords as theory names: "quoted"', () => {
    for (const k of ['begin', 'imports', 'keywords', 'abbrevs', 'theory', 'end']) expect(isabelleTheorySyntax(k), k).toBe(`"${k}"`);
    expect(isabelleTheorySyntax('Beginning')).toBe('Beginning');
    const thy = 'theory Use\n  imports Main\nbegin\nend\n';
    expect(apply(thy, headerImports(thy, 'isabelle').add('begin'))).toBe('theory Use\n  imports Main "begin"\nbegin\nend\n');
  });
});

describe('the walk refuses files whose module name no import can write', () => {
  it('skips them with the reason, counted; keeps the others', () => {
    const dir = mkdtempSync(join(tmpdir(), 'premise-lsp-names-'));
    mkdirSync(join(dir, 'Evil'));
    writeFileSync(join(dir, 'Evil', 'A\n#eval IO.println "PWNED"\n--.lean'), 'theorem pwn : True := trivial\n');
    writeFileSync(join(dir, 'Evil', 'Fine.lean'), 'theorem fine : True := trivial\n');
    writeFileSync(join(dir, `${EVIL_THY}.thy`), 'theory X imports Main begin end\n');
    const found = discoverSources([dir]);
    expect(found.files.map((f) => f.module)).toEqual(['Evil.Fine']);
    expect(found.skipped).toHaveLength(2);
    expect(found.skipped.join('\n')).toMatch(/cannot be written in an import/);
    expect(found.skipped.every((s) => !s.includes('\n'))).toBe(true);
  });
});
