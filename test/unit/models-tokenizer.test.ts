import { existsSync, mkdtempSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ModelFileMissingError, ModelFormatError } from '../../models/src/errors.js';
import { MAX_LENGTH_CAP, effectiveMaxLength, loadTokenizer } from '../../models/src/tokenizer.js';

const FIXTURE = resolve(__dirname, '../fixtures/tiny-encoder');
const SHARED = resolve(__dirname, '../../../shared/models/tokenizers');
const hasShared = existsSync(SHARED);
if (!hasShared) console.warn(`skipping real-tokenizer tests: ${SHARED} is absent`);

describe('tokenizer (tiny fixture)', () => {
  it('matches the ids computed by make_tiny.py', async () => {
    const tok = await loadTokenizer(FIXTURE);
    const expected = JSON.parse(readFileSync(join(FIXTURE, 'expected.json'), 'utf8'));
    expected.texts.forEach((t: string, i: number) => {
      expect(tok.encode(t).ids).toEqual(expected.input_ids[i]);
    });
  });

  it('keeps Lean and Isabelle Unicode out of [UNK]', async () => {
    const tok = await loadTokenizer(FIXTURE);
    const unk = tok.unkId!;
    expect(unk).toBeDefined();
    const lean = 'theorem foo (a b : ℕ) (h : ∀ x ∈ s, x ≤ a) : ∃ y, f y ≠ 0 → ∑ i, g i ≥ ∏ j, k j\n⊢ x⁻¹ * x = 1 ∧ a₁ ≤ aₙ';
    const isabelle = 'lemma "⟦ P; Q ⟧ ⟹ R" and "⋀x. f x ≡ λy. y" shows "A ⟶ B"';
    for (const text of [lean, isabelle]) {
      const { ids } = tok.encode(text);
      const pieces = tok.tokenize(text);
      expect(ids).not.toContain(unk);
      // round trip: the pieces, with "##" glued back, rebuild the text without whitespace
      expect(pieces.map((p) => p.replace(/^##/, '')).join('')).toBe(text.replace(/\s+/g, ''));
    }
    for (const sym of ['ℕ', '⊢', '∀', '⟹', '⟦', '⟧', '₁', '⁻¹', 'λ']) {
      expect(tok.tokenize(sym)).toEqual([sym]);
      expect(tok.tokenToId(sym)).toBeDefined();
    }
    expect(tok.tokenize('x⁻¹')).toEqual(['x', '##⁻¹']);
    // characters outside the vocabulary do become [UNK]
    expect(tok.encode('☃').ids).toContain(unk);
  });

  it('truncates single texts to maxLength, keeping [CLS] … [SEP]', async () => {
    const tok = await loadTokenizer(FIXTURE, { maxLength: 8 });
    expect(tok.maxLength).toBe(8);
    const { ids } = tok.encode('a b c d e f g h i j k l');
    expect(ids).toHaveLength(8);
    expect(ids[0]).toBe(tok.tokenToId('[CLS]'));
    expect(ids[7]).toBe(tok.tokenToId('[SEP]'));
    expect(tok.decode(ids)).toBe('a b c d e f');
  });

  it('encodes pairs with token_type_ids 0/1 and longest-first truncation', async () => {
    const tok = await loadTokenizer(FIXTURE, { maxLength: 10 });
    const cls = tok.tokenToId('[CLS]');
    const sep = tok.tokenToId('[SEP]');
    const short = tok.encode('a b', 'c d');
    expect(short.ids).toEqual([cls, tok.tokenToId('a'), tok.tokenToId('b'), sep, tok.tokenToId('c'), tok.tokenToId('d'), sep]);
    expect(short.typeIds).toEqual([0, 0, 0, 0, 1, 1, 1]);
    // budget 7 text tokens: query (2) kept, document cut to 5
    const long = tok.encode('a b', 'c d e f g h i j');
    expect(long.ids).toHaveLength(10);
    expect(long.typeIds).toEqual([0, 0, 0, 0, 1, 1, 1, 1, 1, 1]);
    // both long: split 4/3 (first sequence gets the odd token)
    const both = tok.encode('a b c d e f', 'g h i j k l');
    expect(both.typeIds.filter((t) => t === 0)).toHaveLength(1 + 4 + 1);
    expect(both.typeIds.filter((t) => t === 1)).toHaveLength(3 + 1);
  });

  it('pads a batch to its longest row as BigInt64Array', async () => {
    const tok = await loadTokenizer(FIXTURE);
    const b = tok.encodeBatch(['a', 'a b c'], ['x', 'y']);
    expect(b.batchSize).toBe(2);
    expect(b.seqLength).toBe(7);
    expect(b.input_ids).toBeInstanceOf(BigInt64Array);
    expect(Array.from(b.attention_mask)).toEqual([1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1].map(BigInt));
    expect(Array.from(b.token_type_ids.slice(0, 7))).toEqual([0, 0, 0, 1, 1, 0, 0].map(BigInt));
    expect(b.input_ids[5]).toBe(BigInt(tok.padId));
  });

  it('caps max length at 512 and honours model_max_length', () => {
    expect(effectiveMaxLength({})).toBe(MAX_LENGTH_CAP);
    expect(effectiveMaxLength({ model_max_length: 1e30 })).toBe(512);
    expect(effectiveMaxLength({ model_max_length: 128 })).toBe(128);
    expect(effectiveMaxLength({ model_max_length: 512 }, 256)).toBe(256);
  });

  it('names the file when tokenizer.json is missing or broken', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tok-'));
    await expect(loadTokenizer(dir)).rejects.toThrow(ModelFileMissingError);
    await expect(loadTokenizer(dir)).rejects.toThrow(join(dir, 'tokenizer.json'));
    writeFileSync(join(dir, 'tokenizer.json'), '{"model": ');
    await expect(loadTokenizer(dir)).rejects.toThrow(ModelFormatError);
    await expect(loadTokenizer(dir)).rejects.toThrow(/tokenizer\.json/);
    copyFileSync(join(FIXTURE, 'tokenizer.json'), join(dir, 'tokenizer.json'));
    writeFileSync(join(dir, 'tokenizer_config.json'), '[]');
    await expect(loadTokenizer(dir)).rejects.toThrow(/tokenizer_config\.json/);
  });
});

describe.skipIf(!hasShared)('real BERT tokenizers under ../shared/models/tokenizers', () => {
  for (const name of ['all-MiniLM-L6-v2', 'gte-small', 'ms-marco-MiniLM-L12-v2']) {
    it(`${name}: "hello world" → [101, 7592, 2088, 102]`, async () => {
      const tok = await loadTokenizer(join(SHARED, name));
      expect(tok.encode('hello world').ids).toEqual([101, 7592, 2088, 102]);
      expect(tok.encode('Hello World').ids).toEqual([101, 7592, 2088, 102]);
      expect(tok.maxLength).toBe(512);
      expect(tok.padId).toBe(0);
      // bert-base-uncased has no ℕ / ⊢
      expect(tok.encode('a : ℕ ⊢ a').ids).toContain(100);
    });
  }

  it('gte-small: unset model_max_length (1e30) is capped at 512', async () => {
    const cfg = JSON.parse(readFileSync(join(SHARED, 'gte-small/tokenizer_config.json'), 'utf8'));
    expect(cfg.model_max_length).toBeGreaterThan(1e20);
    const tok = await loadTokenizer(join(SHARED, 'gte-small'));
    expect(tok.maxLength).toBe(512);
    expect(tok.encode('word '.repeat(2000)).ids).toHaveLength(512);
  });

  it('ms-marco cross-encoder pair encoding', async () => {
    const tok = await loadTokenizer(join(SHARED, 'ms-marco-MiniLM-L12-v2'));
    const e = tok.encode('hello', 'world');
    expect(e.ids).toEqual([101, 7592, 102, 2088, 102]);
    expect(e.typeIds).toEqual([0, 0, 0, 1, 1]);
  });
});
