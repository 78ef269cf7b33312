/** `premise-lsp extract <source-dir>... [--out records.jsonl]`: declarations as JSON lines (training data, debugging). */
import { createWriteStream, type WriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { extractCorpus } from '../../../indexes/src/build.js';
import { MEMORY_SKIP } from '../../../indexes/src/extract/parallel.js';
import { openOutFile } from '../../../indexes/src/store/out-path.js';
import { parse, sourcesOption } from './args.js';
import { progressReporter } from './progress.js';

export async function extractCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { out: { type: 'string', short: 'o' }, 'follow-links': { type: 'boolean' } });
  sourcesOption('extract', positionals);
  // opened before the work, so that an unwritable path fails at once
  const file: WriteStream | undefined = values.out ? createWriteStream(values.out, { fd: openOutFile(values.out) }) : undefined;
  let failed: Error | undefined;
  file?.on('error', (e) => (failed ??= e));
  const progress = progressReporter();
  const corpus = await extractCorpus(positionals, progress.update, { followLinks: values['follow-links'] });
  progress.stop();
  const out = file ?? process.stdout;
  for (const r of corpus.records) {
    if (failed) break;
    if (!out.write(JSON.stringify(r) + '\n')) await drained(out, file);
  }
  // the end's own failure too (the last write's ENOSPC on /dev/full: before, exit 0)
  if (file && !failed) {
    file.end();
    await finished(file).catch((e: Error) => (failed ??= e));
  } else file?.destroy();
  if (failed) throw new Error(`cannot write ${values.out}: ${failed.message}`);
  for (const w of corpus.warnings) if (w.includes(MEMORY_SKIP)) process.stderr.write(`warning: ${w}\n`);
  process.stderr.write(
    `extracted ${corpus.records.length} declarations from ${corpus.files} files ` +
      `(${corpus.skippedFiles} files skipped, ${corpus.warnings.length} warnings` +
      `${corpus.linksSkipped ? `, ${corpus.linksSkipped} links leaving their source not followed (--follow-links)` : ''})\n`,
  );
  return 0;
}

/** Resolves when `out` drains, or when the output file fails (the failure is reported by the caller). */
function drained(out: NodeJS.WritableStream, file: WriteStream | undefined): Promise<void> {
  return new Promise<void>((res) => {
    const done = () => {
      out.off('drain', done);
      file?.off('error', done);
      res();
    };
    out.once('drain', done);
    file?.once('error', done);
  });
}
