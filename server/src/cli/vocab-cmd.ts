/**
 * `premise-lsp vocab <records.jsonl> [--out models/vocab/en-lean.json]`: learns the
 * English → Lean vocabulary from extracted records (docstring words against the
 * parts of the names they document); see indexes/src/informal/vocab.ts.
 */
import { createReadStream, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { splitIdent } from '../../../indexes/src/sparse/terms.js';
import { learnVocabulary } from '../../../indexes/src/informal/vocab.js';
import { parse, UsageError } from './args.js';

export async function vocabCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { out: { type: 'string', short: 'o' } });
  if (positionals.length !== 1) throw new UsageError('vocab needs one records file (from `premise-lsp extract --out`)');
  const docs: { doc: string; parts: string[] }[] = [];
  const lines = createInterface({ input: createReadStream(positionals[0]!) });
  for await (const line of lines) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as { name?: string; doc?: string; lang?: string };
    if (!r.doc || !r.name || r.lang !== 'lean') continue;
    const last = r.name.split('.').pop()!;
    docs.push({ doc: r.doc, parts: splitIdent(last) });
  }
  const table = learnVocabulary(docs);
  const json = JSON.stringify(table, null, 0).replace(/\],"/g, '],\n"') + '\n';
  if (values.out) writeFileSync(values.out, json);
  else process.stdout.write(json);
  process.stderr.write(`learned ${Object.keys(table.terms).length} English terms from ${docs.length} docstrings\n`);
  return 0;
}
