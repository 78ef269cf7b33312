/** `premise-lsp extract <source-dir>... [--out records.jsonl]`: declarations as JSON lines (training data, debugging). */
import { createWriteStream } from 'node:fs';
import { extractCorpus } from '../../../indexes/src/build.js';
import { parse, UsageError } from './args.js';
import { progressReporter } from './progress.js';

export async function extractCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { out: { type: 'string', short: 'o' } });
  if (!positionals.length) throw new UsageError('extract needs at least one source directory');
  const progress = progressReporter();
  const corpus = extractCorpus(positionals, progress.update);
  progress.stop();
  const out = values.out ? createWriteStream(values.out) : process.stdout;
  for (const r of corpus.records) {
    if (!out.write(JSON.stringify(r) + '\n')) await new Promise<void>((res) => out.once('drain', () => res()));
  }
  if (values.out) await new Promise<void>((res, rej) => (out as ReturnType<typeof createWriteStream>).end((e?: Error) => (e ? rej(e) : res())));
  process.stderr.write(`extracted ${corpus.records.length} declarations from ${corpus.files} files (${corpus.warnings.length} warnings)\n`);
  return 0;
}
