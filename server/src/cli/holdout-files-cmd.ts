/**
 * `premise-lsp holdout-files (--records FILE | --index DIR) [--shared DIR] [--out FILE]`
 *
 * Development command: the held-out file list of the one hold-out rule
 * (server/src/eval/holdout.ts) over a corpus, one path a line, sorted. The Python
 * training recipes (models/train/) read it (HOLDOUT_FILES) instead of computing a split.
 */
import { createReadStream, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { PremiseTable } from '../../../indexes/src/store/premises.js';
import { openOutFile } from '../../../indexes/src/store/out-path.js';
import { evalSetFiles, HoldOutRule } from '../eval/holdout.js';
import { packageRoot } from '../paths.js';
import { parse, UsageError } from './args.js';

/** Each declaration's file, from a records JSONL or an index's premise table. */
async function corpusFiles(records: string | undefined, index: string | undefined): Promise<Map<string, string>> {
  const fileOf = new Map<string, string>();
  if (records) {
    const lines = createInterface({ input: createReadStream(records, 'utf8'), crlfDelay: Infinity });
    for await (const line of lines) {
      if (!line.trim()) continue;
      const r = JSON.parse(line) as { name: string; file?: string; module?: string };
      const f = r.file ?? r.module;
      if (f && !fileOf.has(r.name)) fileOf.set(r.name, f);
    }
  } else {
    const table = PremiseTable.open(join(index!, 'premises.bin'));
    try {
      for (const p of table.scan()) if (!fileOf.has(p.name)) fileOf.set(p.name, p.file ?? p.module);
    } finally {
      table.close();
    }
  }
  return fileOf;
}

export async function holdoutFilesCommand(argv: string[]): Promise<number> {
  const { values } = parse(argv, {
    records: { type: 'string' },
    index: { type: 'string', short: 'i' },
    shared: { type: 'string' },
    out: { type: 'string', short: 'o' },
  });
  if (!values.records === !values.index) throw new UsageError('holdout-files needs exactly one of --records FILE or --index DIR');
  const fd = values.out ? openOutFile(values.out) : undefined;
  const shared = values.shared ?? join(packageRoot(), '..', 'shared', 'data');
  if (values.shared && !existsSync(values.shared)) throw new UsageError(`shared data directory not found: ${values.shared}`);
  const fileOf = await corpusFiles(values.records, values.index);
  const sets = existsSync(shared) ? evalSetFiles(shared, (n) => fileOf.get(n)) : { files: new Set<string>(), sets: {} };
  const list = new HoldOutRule(sets.files).list(new Set(fileOf.values()));
  const text = list.map((f) => f + '\n').join('');
  if (fd !== undefined) writeFileSync(fd, text);
  else process.stdout.write(text);
  const per = Object.entries(sets.sets).map(([k, s]) => `${k} ${s.files} files (${s.unknown} of ${s.queries} queries without one)`);
  process.stderr.write(`holdout-files: ${list.length} held-out files; evaluation sets: ${per.join(', ') || `none (${shared} not found)`}\n`);
  return 0;
}
