import { describe, expect, it } from 'vitest';
import { codeBefore } from '../../server/src/lsp/text/syntax.js';

/** The region at the `|` of `marked`. */
const region = (marked: string, flavor: 'lean' | 'isabelle' = 'lean') => {
  const at = marked.indexOf('|');
  return codeBefore(marked.replace('|', ''), at, 0, flavor).region;
};

describe('Lean regions', () => {
  it('line comments run to the end of their line, the end included', () => {
    expect(region('x -- note |')).toBe('comment');
    expect(region('x -- note|\ny')).toBe('comment');
    expect(region('x -- note\n|y')).toBe('code');
  });

  it('block comments nest; doc comments are comments; a closed one ends', () => {
    expect(region('/- a /- b -/ still |-/')).toBe('comment');
    expect(region('/- a /- b -/ c -/ |')).toBe('code');
    expect(region('/-- doc |-/ theorem')).toBe('comment');
    expect(region('/-! module doc |')).toBe('comment');
    expect(region('/- never closed\n\n|')).toBe('comment');
    // `--` inside a block comment does not end it at the line's end
    expect(region('/- a -- b\n|c -/')).toBe('comment');
  });

  it('strings with escapes, raw strings, character literals; a prime in a name is not a quote', () => {
    expect(region('"a \\" |b"')).toBe('string');
    expect(region('"a" |')).toBe('code');
    expect(region('r#"a "quoted" |"#')).toBe('string');
    expect(region('r#"a"# |')).toBe('code');
    expect(region(`'"' |`)).toBe('code');
    expect(region(`h' "|`)).toBe('string');
    expect(region(`exact h' |`)).toBe('code');
    // a `"` in a comment opens nothing, `--` in a string is not a comment
    expect(region('-- "\n|')).toBe('code');
    expect(region('"--" |')).toBe('code');
  });

  it('blanks comments and strings in the code before, keeping its length and line breaks', () => {
    const text = 'a -- b (\nc "d[" e';
    const { code } = codeBefore(text, text.length, 0, 'lean');
    expect(code.length).toBe(text.length);
    expect(code.replace(/\u00a0/g, '_')).toBe('a ______\nc ____ e');
    expect(codeBefore(text, text.length, 9, 'lean').code.replace(/\u00a0/g, '_')).toBe('c ____ e');
  });

  it('is linear: a long file of comments is read in one pass', () => {
    const text = '/- x -/ "y" -- z\n'.repeat(50_000) + 'rw [';
    expect(codeBefore(text, text.length, text.length - 600, 'lean').region).toBe('code');
  });
});

describe('Isabelle regions', () => {
  it('nested comments, strings, cartouches in either spelling', () => {
    expect(region('(* a (* b *) |*)', 'isabelle')).toBe('comment');
    expect(region('(* a (* b *) *) |', 'isabelle')).toBe('code');
    expect(region('lemma "x = |y"', 'isabelle')).toBe('string');
    expect(region('text ‹a ‹b› |›', 'isabelle')).toBe('string');
    expect(region('text \\<open>a ‹b› |\\<close>', 'isabelle')).toBe('string');
    expect(region('text \\<open>a\\<close> |', 'isabelle')).toBe('code');
    expect(region('{* old |*}', 'isabelle')).toBe('string');
    // Lean's `--` is nothing in Isabelle
    expect(region('-- |', 'isabelle')).toBe('code');
  });
});
