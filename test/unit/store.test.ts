import { buildSparseFields } from '../../indexes/src/sparse/fields.js';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { proofGraph, toInfos } from '../../indexes/src/graph.js';
import { Bm25Index } from '../../indexes/src/sparse/bm25.js';
import { terms } from '../../indexes/src/sparse/terms.js';
import { sparseText } from '../../indexes/src/premise-text.js';
import { Container, IndexFileError } from '../../indexes/src/store/container.js';
import { readIndexDir, writeIndexDir } from '../../indexes/src/store/index-dir.js';
import { RECENT_RECORDS } from '../../indexes/src/store/premises.js';
import { rec, RECORDS } from './engine-helpers.js';

const root = mkdtempSync(join(tmpdir(), 'premise-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const DIM = 8;
function vectors(n: number): Float32Array {
  const v = new Float32Array(n * DIM);
  for (let i = 0; i < n; i++) v[i * DIM + (i % DIM)] = 1; // premise i points along axis i mod 8
  return v;
}

async function build(name: string): Promise<string> {
  const dir = join(root, name);
  const infos = toInfos(RECORDS);
  await writeIndexDir(dir, {
    infos,
    graph: proofGraph(RECORDS),
    ...buildSparseFields(infos),
    dense: { vectors: vectors(infos.length), dim: DIM, encoder: { dir: '/nowhere', id: 'test', dim: DIM } },
    sources: ['test'],
    stats: {},
  });
  return dir;
}

describe('index directory', () => {
  it('round-trips premises, postings and vectors', async () => {
    const parts = readIndexDir(await build('ok'));
    expect(parts.premises.size).toBe(RECORDS.length);
    const id = parts.premises.id('le_trans')!;
    expect(parts.premises.get(id).goal).toBe('a ≤ c');
    expect(parts.premises.uses[id]).toBe(2);
    expect(parts.sparse.df('comm')).toBe(2);
    const q = new Float32Array(DIM);
    q[3] = 1;
    const top = parts.dense!.top(q, 1);
    expect(top[0]!.id).toBe(3);
    expect(top[0]!.score).toBeCloseTo(1, 2);
  });

  it('keeps the records last read, shared and frozen, and reads every one again once they are gone', async () => {
    // more records than are kept
    const many = Array.from({ length: RECENT_RECORDS + 100 }, (_, i) => rec(`p${i}`, ['(a : α)'], `f${i} a = a`));
    const dir = join(root, 'recent');
    const infos = toInfos(many);
    await writeIndexDir(dir, { infos, graph: proofGraph(many), ...buildSparseFields(infos), sources: ['test'], stats: {} });
    const { premises } = readIndexDir(dir);
    const first = premises.get(0);
    expect(premises.get(0)).toBe(first);
    expect(() => ((first as { goal: string }).goal = 'x')).toThrow(TypeError);
    expect(() => (first.args as string[]).push('x')).toThrow(TypeError);
    for (let i = 1; i < premises.size; i++) expect(premises.get(i).goal).toBe(`f${i} a = a`);
    // the first was let go, and is read again as it was
    const again = premises.get(0);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    expect(premises.get(premises.size - 1)).toBe(premises.get(premises.size - 1));
  });

  it('names the file when one is truncated', async () => {
    const dir = await build('trunc');
    truncateSync(join(dir, 'sparse.bin'), 100);
    expect(() => readIndexDir(dir)).toThrow(/sparse\.bin.*(truncated|size)/);
  });

  it('names the file when one is corrupted in place', async () => {
    const dir = await build('flip');
    const path = join(dir, 'dense.usearch');
    const buf = readFileSync(path);
    buf[buf.length >> 1] ^= 0xff;
    writeFileSync(path, buf);
    expect(() => readIndexDir(dir)).toThrow(/dense\.usearch.*checksum/);
  });

  it('rejects a container with a bad header even when sizes match', async () => {
    const dir = await build('magic');
    const path = join(dir, 'premises.bin');
    const buf = readFileSync(path);
    buf.write('GARBAGE!', 0, 'latin1');
    writeFileSync(path, buf);
    expect(() => readIndexDir(dir)).toThrow(/premises\.bin.*checksum/);
    expect(() => Container.read(path)).toThrow(/premises\.bin.*magic/); // the structure is checked too
  });

  it.each(['premises.bin', 'sparse.bin', 'dense.bin', 'dense.usearch'])('a byte flipped in the middle of %s fails the load, naming the file', async (name) => {
    const dir = await build(`flip-${name}`);
    const path = join(dir, name);
    const buf = readFileSync(path);
    buf[buf.length >> 1] ^= 0x01;
    writeFileSync(path, buf);
    let err: unknown;
    try {
      readIndexDir(dir);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(IndexFileError);
    expect((err as IndexFileError).file).toBe(path);
    expect((err as Error).message).toMatch(/checksum mismatch/);
  });

  it('every structural fault of a container is an IndexFileError naming the file', () => {
    const file = join(root, 'odd-header.bin');
    const container = (header: unknown, data = 8) => {
      const json = Buffer.from(JSON.stringify(header));
      const prefix = Buffer.alloc(16);
      prefix.write('PLSPBIN1', 0, 'latin1');
      prefix.writeUInt32LE(json.length, 8);
      const pad = Buffer.alloc(((16 + json.length + 7) & ~7) - 16 - json.length);
      writeFileSync(file, Buffer.concat([prefix, json, pad, Buffer.alloc(data)]));
    };
    const bad: unknown[] = [
      { sections: [{ name: 'a', dtype: 'u8', offset: 0, bytes: '8' }], dataBytes: 8 },
      { sections: [{ name: 'a', dtype: 'u8', offset: '0', bytes: 8 }], dataBytes: 8 },
      { sections: [{ name: 'a', dtype: 'u64', offset: 0, bytes: 8 }], dataBytes: 8 },
      { sections: [null], dataBytes: 8 },
      { sections: [], dataBytes: '8' },
      null,
    ];
    for (const h of bad) {
      container(h);
      expect(() => Container.read(file), JSON.stringify(h)).toThrow(IndexFileError);
      expect(() => Container.read(file)).toThrow(file);
    }
  });

  it('refuses a FIFO in a file\'s place instead of waiting on it', async () => {
    const dir = await build('fifo');
    const file = join(dir, 'premises.bin');
    rmSync(file);
    execFileSync('mkfifo', [file]);
    // a writer held open here, so that an open for reading does not block the test itself
    const writer = openSync(file, constants.O_RDWR | constants.O_NONBLOCK);
    try {
      expect(() => readIndexDir(dir)).toThrow(/premises\.bin.*not a regular file/);
    } finally {
      closeSync(writer);
    }
  });

  it('a manifest that is not an object is named', async () => {
    const dir = await build('null-manifest');
    writeFileSync(join(dir, 'manifest.json'), 'null');
    expect(() => readIndexDir(dir)).toThrow(/manifest\.json.*not a premise-lsp index manifest/);
  });

  it('explains a missing or unreadable manifest', async () => {
    expect(() => readIndexDir(join(root, 'absent'))).toThrow(/manifest\.json.*no such file/);
    const dir = await build('manifest');
    writeFileSync(join(dir, 'manifest.json'), '{"format": "premise-lsp-in');
    expect(() => readIndexDir(dir)).toThrow(/manifest\.json.*not valid JSON/);
  });
});
