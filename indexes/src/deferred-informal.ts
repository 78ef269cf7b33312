/**
 * A sparse-only index built for serving first (the automatic index's first
 * step) may leave its informal (English) field empty: rendering every statement
 * in words is a third of the build. What that field needs beyond premises.bin,
 * each premise's prose context, is kept beside the index in
 * `deferred-informal.json` (the same contexts a full build takes its informal
 * field from, after writing premises.bin); the dense step (`index --dense-from`, addDense)
 * builds the field from it and the finished index is the one a single build
 * writes (test/unit/deferred-informal.test.ts compares them byte for byte).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PremiseRecord } from './extract/record.js';
import { buildInformalField } from './sparse/fields.js';
import type { Bm25Index } from './sparse/bm25.js';
import type { PremiseTable } from './store/premises.js';
import { dataDir } from './store/data-dir.js';
import { readSidecarText } from './store/sidecar.js';

export const DEFERRED_INFORMAL_FILE = 'deferred-informal.json';
const FORMAT = 'premise-lsp-deferred-informal';

/** Distinct contexts, and for each premise the index of its context (-1: none). */
export interface DeferredInformal {
  contexts: string[];
  ids: number[];
}

export function deferredInformal(records: readonly Pick<PremiseRecord, 'context'>[]): DeferredInformal {
  const index = new Map<string, number>();
  const contexts: string[] = [];
  const ids = records.map((r) => {
    if (r.context === undefined) return -1;
    let i = index.get(r.context);
    if (i === undefined) {
      index.set(r.context, (i = contexts.length));
      contexts.push(r.context);
    }
    return i;
  });
  return { contexts, ids };
}

export function writeDeferredInformal(dir: string, d: DeferredInformal): void {
  writeFileSync(join(dir, DEFERRED_INFORMAL_FILE), JSON.stringify({ format: FORMAT, version: 1, ...d }));
}

export function hasDeferredInformal(dir: string): boolean {
  return existsSync(join(dataDir(dir), DEFERRED_INFORMAL_FILE));
}

/** The sidecar of `dir`, checked against its `premises` premises; throws with the file's name when it does not fit. */
export function readDeferredInformal(dir: string, premises: number): DeferredInformal {
  const path = join(dataDir(dir), DEFERRED_INFORMAL_FILE);
  const text = readSidecarText(dir, DEFERRED_INFORMAL_FILE);
  if (text === undefined) throw new Error(`${path}: cannot read (no such file)`);
  let d: { format?: unknown; contexts?: unknown; ids?: unknown };
  try {
    d = JSON.parse(text);
  } catch (e) {
    throw new Error(`${path}: cannot read (${(e as Error).message})`);
  }
  const { contexts, ids } = d;
  const ok =
    d?.format === FORMAT &&
    Array.isArray(contexts) &&
    contexts.every((c) => typeof c === 'string') &&
    Array.isArray(ids) &&
    ids.length === premises &&
    ids.every((i) => Number.isInteger(i) && i >= -1 && i < contexts.length);
  if (!ok) throw new Error(`${path}: not the deferred informal field of this index (${premises} premises)`);
  return { contexts: contexts as string[], ids: ids as number[] };
}

/** The informal field of the premises of `table`, their contexts from `d` (read one premise at a time). */
export function informalFromTable(table: PremiseTable, d: DeferredInformal, onDone?: (done: number) => void): Bm25Index {
  const n = table.size;
  return buildInformalField((function* () {
    let i = 0;
    for (const info of table.scan()) {
      const id = d.ids[i]!;
      yield id < 0 ? info : { ...info, context: d.contexts[id]! };
      i++;
      if (onDone && (i % 4096 === 0 || i === n)) onDone(i);
    }
  })());
}
