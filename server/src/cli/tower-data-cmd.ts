/**
 * `premise-lsp tower-data --index DIR --out DIR [--holdout FILE] [--min-df N]`
 *
 * Development command: training data for the English text tower
 * (models/train/text_tower.py, models/text-tower/MODEL_CARD.md). Writes, for an
 * index built with an encoder:
 *  - `vectors.i8` + `scales.f32`: the index's premise vectors as stored (int8 rows, one scale each);
 *  - `terms.json`: the informal field's terms with at least `--min-df` premises, most frequent first;
 *  - `pairs.jsonl`: one line per premise with English views of it as term ids, each made
 *    by the runtime's own code (english.ts, naming.ts, render.ts): `doc` (docstring),
 *    `name` (the name read as words), `stmt` (the statement in words), `ctx` (the rest of
 *    its informal field: module and section prose); plus `file`, for splits.
 * Premises on the holdout list get no line (they are never training targets).
 */
import { createWriteStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readIndexDir } from '../../../indexes/src/store/index-dir.js';
import { Container } from '../../../indexes/src/store/container.js';
import { prepareOutDir } from '../../../indexes/src/store/out-path.js';
import { englishTerms } from '../../../indexes/src/informal/english.js';
import { nameWords } from '../../../indexes/src/informal/naming.js';
import { renderStatement } from '../../../indexes/src/informal/render.js';
import { intOption, parse, UsageError, indexDirOption } from './args.js';
import { close, readHoldout, write } from './training-files.js';

export async function towerDataCommand(argv: string[]): Promise<number> {
  const { values } = parse(argv, {
    index: { type: 'string', short: 'i' },
    out: { type: 'string', short: 'o' },
    holdout: { type: 'string' },
    'min-df': { type: 'string' },
  });
  if (!values.index || !values.out) throw new UsageError('tower-data needs --index DIR --out DIR');
  const minDf = intOption(values['min-df'], 'min-df', 3);
  const holdout = readHoldout(values.holdout);
  prepareOutDir(values.out);

  const parts = readIndexDir(indexDirOption(values.index), { dense: false });
  const enc = parts.manifest.encoder;
  if (!enc) throw new UsageError(`${values.index} has no premise vectors (built without an encoder)`);
  const dense = Container.read(join(values.index, 'dense.bin'));
  writeFileSync(join(values.out, 'vectors.i8'), dense.i8('vectors'));
  writeFileSync(join(values.out, 'scales.f32'), dense.f32('scales'));

  // the informal field's terms, and each premise's terms (postings read backwards)
  const { vocab, offsets, docs } = parts.informal.arrays;
  const n = parts.premises.size;
  const order = Array.from({ length: vocab.size }, (_, t) => t)
    .filter((t) => offsets[t + 1]! - offsets[t]! >= minDf)
    .sort((a, b) => offsets[b + 1]! - offsets[b]! - (offsets[a + 1]! - offsets[a]!) || (vocab.get(a) < vocab.get(b) ? -1 : 1));
  const terms = order.map((t) => vocab.get(t));
  const idOf = new Map(terms.map((t, i) => [t, i]));
  const bags: number[][] = Array.from({ length: n }, () => []);
  order.forEach((t, i) => {
    for (let p = offsets[t]!; p < offsets[t + 1]!; p++) bags[docs[p]!]!.push(i);
  });
  writeFileSync(join(values.out, 'terms.json'), JSON.stringify({ encoder: enc, premises: n, minDf, terms }) + '\n');

  const ids = (text: string) => englishTerms(text).flatMap((t) => (idOf.has(t) ? [idOf.get(t)!] : []));
  const out = createWriteStream(join(values.out, 'pairs.jsonl'));
  let written = 0;
  for (let id = 0; id < n; id++) {
    const p = parts.premises.get(id);
    if (holdout.has(p.name) || p.lang !== 'lean') continue;
    const doc = ids(p.doc ?? '');
    const name = ids(nameWords(p.name));
    const stmt = ids(renderStatement(p.goal ? `${p.args.join(' ')} ${p.goal}` : p.statement));
    const seen = new Set([...doc, ...name, ...stmt]);
    const ctx = bags[id]!.filter((t) => !seen.has(t));
    const line = JSON.stringify({ id, file: p.file ?? p.module, kind: p.kind, doc, name, stmt, ctx });
    await write(out, line);
    written++;
    if (id % 20000 === 0) process.stderr.write(`tower-data: ${id}/${n}\n`);
  }
  await close(out);
  process.stderr.write(`tower-data: ${written} premises, ${terms.length} terms → ${values.out}\n`);
  return 0;
}
