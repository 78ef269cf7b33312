/**
 * `premise-lsp vocab <records.jsonl> [--out models/vocab/en-lean.json]`: learns the
 * English → Lean vocabulary from extracted records (docstring words against the
 * parts of the names they document); see indexes/src/informal/vocab.ts.
 */
import { closeSync, createReadStream, existsSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { splitIdent } from '../../../indexes/src/sparse/terms.js';
import { learnVocabulary } from '../../../indexes/src/informal/vocab.js';
import { openOutFile } from '../../../indexes/src/store/out-path.js';
import { parse, UsageError } from './args.js';

export async function vocabCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { out: { type: 'string', short: 'o' } });
  if (positionals.length !== 1) throw new UsageError('vocab needs one records file (from `premise-lsp extract --out`)');
  if (!existsSync(positionals[0]!)) throw new UsageError(`no such records file: ${positionals[0]}`);
  // an unwritable path fails before the work, naming it
  const fd = values.out === undefined ? undefined : openOutFile(values.out);
  const docs: { doc: string; parts: string[] }[] = [];
  const lines = createInterface({ input: createReadStream(positionals[0]!) });
  let n = 0;
  for await (const line of lines) {
    n++;
    if (!line.trim()) continue;
    let r: { name?: string; doc?: string; lang?: string };
    try {
      r = JSON.parse(line);
    } catch {
      throw new Error(`${positionals[0]}:${n}: not a JSON record (make the file with \`premise-lsp extract --out\`)`);
    }
    if (!r.doc || !r.name || r.lang !== 'lean') continue;
    const last = r.name.split('.').pop()!;
    docs.push({ doc: r.doc, parts: splitIdent(last) });
  }
  const table = learnVocabulary(docs);
  const json = JSON.stringify(table, null, 0).replace(/\],"/g, '],\n"') + '\n';
  if (fd !== undefined) {
    writeFileSync(fd, json);
    closeSync(fd);
  } else process.stdout.write(json);
  process.stderr.write(`learned ${Object.keys(table.terms).length} English terms from ${docs.length} docstrings\n`);
  return 0;
}
