/** `premise-lsp index <source-dir>... --out <index-dir> [--encoder DIR | --no-dense] [--no-packages]` */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildIndex } from '../../../indexes/src/build.js';
import { loadEncoder } from '../../../models/src/encoder.js';
import { defaultModelDir } from '../paths.js';
import { prepareOutDir } from '../../../indexes/src/store/out-path.js';
import { parse, sourcesOption, UsageError } from './args.js';
import { progressReporter } from './progress.js';

export async function indexCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {
    out: { type: 'string', short: 'o' },
    encoder: { type: 'string' },
    'no-dense': { type: 'boolean' },
    'no-packages': { type: 'boolean' },
    verbose: { type: 'boolean', short: 'v' },
  });
  if (!values.out) throw new UsageError('index needs --out <index-dir>');
  sourcesOption('index', positionals);
  prepareOutDir(values.out);
  let encoderDir: string | undefined;
  if (!values['no-dense']) {
    encoderDir = resolve(values.encoder ?? defaultModelDir());
    if (!existsSync(encoderDir)) {
      if (values.encoder) throw new UsageError(`no such encoder directory: ${values.encoder}`);
      process.stderr.write(`premise-lsp: no default encoder at ${encoderDir}; building a BM25-only index\n`);
      encoderDir = undefined;
    }
  }
  const encoder = encoderDir ? await loadEncoder(encoderDir) : undefined;
  const progress = progressReporter();
  try {
    const s = await buildIndex({ sources: positionals.map((p) => resolve(p)), out: values.out, encoder, encoderDir, onProgress: progress.update, packages: !values['no-packages'] });
    progress.stop();
    if (values.verbose) for (const w of s.warnings) process.stderr.write(`warning: ${w}\n`);
    process.stderr.write(
      `indexed ${s.files} files: ${s.declarations} declarations, ${s.manifest.stats.skippedFiles} files skipped (binary, over 4 MiB or not regular files), ` +
        `${s.warnings.length} warnings${s.warnings.length && !values.verbose ? ' (--verbose lists them)' : ''}, ` +
        `${s.manifest.encoder ? `dense ${s.manifest.encoder.dim}-d` : 'sparse only'}, ${s.seconds.toFixed(1)} s → ${values.out}\n`,
    );
  } finally {
    progress.stop();
    await encoder?.dispose();
  }
  return 0;
}
