/**
 * The English text tower (models/src/text-tower.ts): loading and checking its
 * files, the weighted bag it computes, the engine's use of it (English queries
 * only), and openEngine's choice of tower (asked for, shipped, or none).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toInfos } from '../../indexes/src/graph.js';
import { embedPremises } from '../../indexes/src/embed.js';
import { ModelFileMissingError, ModelFormatError } from '../../models/src/errors.js';
import { loadTextTower, type TextTower } from '../../models/src/text-tower.js';
import { Engine } from '../../server/src/engine/engine.js';
import { Segment } from '../../server/src/engine/segment.js';
import { openEngine } from '../../server/src/engine/open.js';
import { chooseTextTower } from '../../server/src/engine/text-tower-choice.js';
import { towerDataCommand } from '../../server/src/cli/tower-data-cmd.js';
import { fakeEncoder, RECORDS, tinyIndex } from './engine-helpers.js';


interface TowerSpec {
  encoderId: string;
  dim: number;
  terms: string[];
  vectors: number[][];
  importance: number[];
}

/** Writes a tower directory in the training recipe's format (models/train/text_tower.py). */
function writeTower(dir: string, t: TowerSpec): string {
  mkdirSync(dir, { recursive: true });
  const floats = new Float32Array([...t.vectors.flat(), ...t.importance]);
  const bin = Buffer.alloc(floats.length * 4);
  floats.forEach((x, i) => bin.writeFloatLE(x, i * 4));
  writeFileSync(join(dir, 'tower.bin'), bin);
  const meta = {
    format: 'premise-lsp-text-tower',
    version: 1,
    dim: t.dim,
    encoder_id: t.encoderId,
    terms: t.terms,
    bin_bytes: bin.length,
    bin_sha256: createHash('sha256').update(bin).digest('hex'),
  };
  writeFileSync(join(dir, 'tower.json'), JSON.stringify(meta));
  return dir;
}

const tmp = () => mkdtempSync(join(tmpdir(), 'premise-lsp-tower-'));

const SMALL: TowerSpec = {
  encoderId: 'enc-test',
  dim: 2,
  terms: ['sum', 'product'],
  vectors: [
    [1, 0],
    [0, 1],
  ],
  importance: [0, Math.log(3)],
};

describe('loadTextTower', () => {
  it('embeds a weighted bag of known terms as a unit vector', () => {
    const tower = loadTextTower(writeTower(tmp(), SMALL));
    expect(tower.encoderId).toBe('enc-test');
    expect(tower.size).toBe(2);
    // a = (1·e^0, 1·e^log3) / 4 = (0.25, 0.75) → normalised
    const v = tower.embed(new Map([['sum', 1], ['product', 1], ['unknown', 5]]))!;
    const n = Math.hypot(0.25, 0.75);
    expect(v[0]).toBeCloseTo(0.25 / n, 5);
    expect(v[1]).toBeCloseTo(0.75 / n, 5);
    // a query weight counts like a repetition: sum ×3 balances product's importance
    const even = tower.embed(new Map([['sum', 3], ['product', 1]]))!;
    expect(even[0]).toBeCloseTo(even[1]!, 5);
  });

  it('knows nothing of unknown or zero-weight terms', () => {
    const tower = loadTextTower(writeTower(tmp(), SMALL));
    expect(tower.embed(new Map([['cosine', 1]]))).toBeUndefined();
    expect(tower.embed(new Map([['sum', 0]]))).toBeUndefined();
    expect(tower.embed(new Map())).toBeUndefined();
  });

  it('names the file of a missing, corrupt, truncated or malformed tower', () => {
    const missing = tmp();
    expect(() => loadTextTower(missing)).toThrow(ModelFileMissingError);
    expect(() => loadTextTower(missing)).toThrow(/tower\.json/);

    const corrupt = writeTower(tmp(), SMALL);
    const bin = readFileSync(join(corrupt, 'tower.bin'));
    bin[3] ^= 0x40;
    writeFileSync(join(corrupt, 'tower.bin'), bin);
    expect(() => loadTextTower(corrupt)).toThrow(/tower\.bin: checksum mismatch/);

    const short = writeTower(tmp(), SMALL);
    writeFileSync(join(short, 'tower.bin'), readFileSync(join(short, 'tower.bin')).subarray(0, 8));
    expect(() => loadTextTower(short)).toThrow(/8 bytes, expected 24/);

    const badJson = writeTower(tmp(), SMALL);
    writeFileSync(join(badJson, 'tower.json'), '{"format": ');
    expect(() => loadTextTower(badJson)).toThrow(ModelFormatError);

    const other = writeTower(tmp(), SMALL);
    const meta = JSON.parse(readFileSync(join(other, 'tower.json'), 'utf8'));
    writeFileSync(join(other, 'tower.json'), JSON.stringify({ ...meta, format: 'something-else' }));
    expect(() => loadTextTower(other)).toThrow(/not a premise-lsp-text-tower v1 file/);
  });
});

/** A deterministic 8-d encoder: character codes folded into 8 buckets, L2-normalised. */
const foldEncoder = fakeEncoder('fold-test', 8);

/** A tower that sends the English word "triangl" (stem of "triangle") to one premise's own vector, and counts its calls. */
async function towerFor(target: string) {
  const infos = toInfos(RECORDS);
  const vectors = await embedPremises(infos, foldEncoder);
  const i = infos.findIndex((p) => p.name === target);
  const row = Array.from(vectors.subarray(i * 8, (i + 1) * 8));
  const loaded = loadTextTower(writeTower(tmp(), { encoderId: 'fold-test', dim: 8, terms: ['triangl'], vectors: [row], importance: [0] }));
  const tower = {
    encoderId: loaded.encoderId,
    dim: loaded.dim,
    size: loaded.size,
    calls: 0,
    embed(terms: ReadonlyMap<string, number>) {
      tower.calls++;
      return loaded.embed(terms);
    },
  };
  const engine = (t?: TextTower) => new Engine([Segment.fromInfos(infos, vectors, 8)], { encoder: foldEncoder, textTower: t });
  return { engine, tower, infos, vectors, row };
}

describe('the engine with a text tower', () => {
  it('searches the premise vectors with the tower averaged with the encoder for an English query', async () => {
    const { engine, tower, infos, vectors, row: t } = await towerFor('le_trans');
    const query = 'the triangle';
    // the query vector: (tower + encoder) / ‖·‖, the tower's being le_trans's own premise vector, normalised
    const tn = Math.hypot(...t);
    const e = (await foldEncoder.embed([query], 'query'))[0]!;
    const sum = t.map((x, j) => x / tn + e[j]!);
    const q = sum.map((x) => x / Math.hypot(...sum));
    const hits = await engine(tower).search(query, { mode: 'dense', k: 7 });
    expect(tower.calls).toBe(1);
    for (const h of hits) {
      const i = infos.findIndex((p) => p.name === h.name);
      const want = q.reduce((acc, x, j) => acc + x * vectors[i * 8 + j]!, 0);
      expect(h.score).toBeCloseTo(want, 2); // the index stores int8 rows
    }
    const plain = await engine().search(query, { mode: 'dense', k: 7 });
    expect(hits.map((h) => h.score)).not.toEqual(plain.map((h) => h.score));
    // hybrid: the same vector is the dense side
    const top = hits[0]!;
    const hit = (await engine(tower).search(query, { mode: 'hybrid', k: 7 })).find((h) => h.name === top.name)!;
    expect(hit.parts.dense).toBeCloseTo(top.score, 6);
  });

  it('leaves formal queries, formulas and informal-off searches to the encoder', async () => {
    const { engine, tower } = await towerFor('le_trans');
    const e = engine(tower);
    const plain = engine();
    for (const [q, opts] of [
      ['a b : α\n⊢ a + b = b + a', {}],
      ['a + b = b + a', {}],
      ['the triangle', { informal: false }],
    ] as const) {
      expect(await e.search(q, { mode: 'dense', k: 7, ...opts })).toEqual(await plain.search(q, { mode: 'dense', k: 7, ...opts }));
    }
    expect(tower.calls).toBe(0);
  });

  it('keeps the encoder for English the tower knows no word of', async () => {
    const { engine, tower } = await towerFor('le_trans');
    const q = 'commutative addition';
    expect(await engine(tower).search(q, { mode: 'dense', k: 7 })).toEqual(await engine().search(q, { mode: 'dense', k: 7 }));
    expect(tower.calls).toBe(1);
  });
});

describe('openEngine and the text tower', () => {
  it('loads the tower asked for, refuses one trained for another encoder or damaged, and can do without', async () => {
    const dir = tmp();
    const { idx, id, dim } = await tinyIndex(dir, '/-- The triangle inequality. -/\ntheorem tri (a b : Nat) : a + b ≤ a + b := le_refl _\n\ntheorem other (n : Nat) : n = n := rfl\n');
    const spec = { encoderId: id, dim, terms: ['triangl'], vectors: [Array.from({ length: dim }, (_, j) => (j === 0 ? 1 : 0))], importance: [0] };
    const good = writeTower(join(dir, 'good'), spec);
    const opts = { defaultReranker: false };

    const e = await openEngine(idx, { ...opts, textTowerDir: good });
    expect((await e.search('the triangle', { mode: 'dense', k: 2 })).length).toBe(2);
    await e.dispose();

    const foreign = writeTower(join(dir, 'foreign'), { ...spec, encoderId: 'some-other-encoder' });
    await expect(openEngine(idx, { ...opts, textTowerDir: foreign })).rejects.toThrow(/trained for encoder some-other-encoder.*index's vectors are from/);

    const broken = writeTower(join(dir, 'broken'), spec);
    rmSync(join(broken, 'tower.bin'));
    await expect(openEngine(idx, { ...opts, textTowerDir: broken })).rejects.toThrow(/text tower file missing: .*tower\.bin/);

    // no tower: the engine opens and English goes through the encoder
    const none = await openEngine(idx, { ...opts, textTowerDir: broken, noTextTower: true });
    expect((await none.search('the triangle', { mode: 'dense', k: 2 })).length).toBe(2);
    await none.dispose();

    // the training data: vectors as stored, terms, English views per premise; holdout theorems left out
    const holdout = join(dir, 'holdout.txt');
    writeFileSync(holdout, 'other\n');
    const data = join(dir, 'data');
    expect(await towerDataCommand(['--index', idx, '--out', data, '--holdout', holdout, '--min-df', '1'])).toBe(0);
    const meta = JSON.parse(readFileSync(join(data, 'terms.json'), 'utf8'));
    expect(meta.encoder.id).toBe(id);
    expect(meta.premises).toBe(2);
    expect(readFileSync(join(data, 'vectors.i8')).length).toBe(2 * dim);
    expect(readFileSync(join(data, 'scales.f32')).length).toBe(2 * 4);
    const lines = readFileSync(join(data, 'pairs.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.length).toBe(1);
    const words = (ids: number[]) => ids.map((i) => meta.terms[i]);
    expect(words(lines[0].doc)).toEqual(['triangl', 'inequ']);
    expect(words(lines[0].name)).toContain('tri');
  }, 60_000);
});

describe('chooseTextTower (the shipped tower)', () => {
  it('takes the shipped tower for its own encoder only, and warns and goes on when it is damaged', () => {
    const shipped = writeTower(tmp(), SMALL);
    const warnings: string[] = [];
    const warn = (m: string) => warnings.push(m);
    expect(chooseTextTower({}, 'enc-test', shipped, warn)?.encoderId).toBe('enc-test');
    expect(chooseTextTower({}, 'another-encoder', shipped, warn)).toBeUndefined();
    expect(chooseTextTower({ noTextTower: true }, 'enc-test', shipped, warn)).toBeUndefined();
    expect(chooseTextTower({}, 'enc-test', join(tmp(), 'absent'), warn)).toBeUndefined();
    expect(warnings).toEqual([]);
    writeFileSync(join(shipped, 'tower.bin'), Buffer.alloc(24));
    expect(chooseTextTower({}, 'enc-test', shipped, warn)).toBeUndefined();
    expect(warnings).toEqual([expect.stringMatching(/^English text tower is off: .*tower\.bin: checksum mismatch/)]);
  });
});
