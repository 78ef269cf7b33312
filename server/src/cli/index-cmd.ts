/**
 * `premise-lsp index <source-dir>... --out <index-dir> [--encoder DIR | --no-dense] [--no-packages]
 *  [--resolve-against <index-dir>]... [--progress-fd N]`, or `premise-lsp index --dense-from <sparse-index> --out …`
 */
import { existsSync, rmdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { addDense, buildIndex, type Progress } from '../../../indexes/src/build.js';
import { MEMORY_SKIP } from '../../../indexes/src/extract/parallel.js';
import { loadEncoder } from '../../../models/src/encoder.js';
import { defaultModelDir, isShippedEncoderDir } from '../paths.js';
import { prepareOutDir } from '../../../indexes/src/store/out-path.js';
import { intOption, parse, sourcesOption, UsageError } from './args.js';
import { progressReporter } from './progress.js';
import { eventChannel } from './progress-fd.js';
import { LLM_INDEX_FLAGS, llmClientFromFlags } from './llm-flags.js';
import { informalizeHook } from '../llm/index-hook.js';

export async function indexCommand(argv: string[]): Promise<number> {
  const made: { dir?: string } = {};
  try {
    return await indexInto(argv, made);
  } catch (e) {
    // a failed build leaves no empty output directory of its own making behind (never one that holds anything)
    try {
      if (made.dir) rmdirSync(made.dir);
    } catch {
      /* not empty: not ours to remove */
    }
    throw e;
  }
}

/** The command; `made.dir` is set when it creates the output directory. */
async function indexInto(argv: string[], made: { dir?: string }): Promise<number> {
  const { values, positionals } = parse(argv, {
    out: { type: 'string', short: 'o' },
    encoder: { type: 'string' },
    'no-dense': { type: 'boolean' },
    'defer-informal': { type: 'boolean' },
    'no-packages': { type: 'boolean' },
    'follow-links': { type: 'boolean' },
    verbose: { type: 'boolean', short: 'v' },
    'resolve-against': { type: 'string', multiple: true },
    'dense-from': { type: 'string' },
    'progress-fd': { type: 'string' },
    ...LLM_INDEX_FLAGS,
  });
  const events = eventChannel(values['progress-fd']);
  const denseFrom = values['dense-from'];
  if (!values.out) throw new UsageError('index needs --out <index-dir>');
  if (!positionals.length && !denseFrom) throw new UsageError('index needs at least one source directory');
  if (denseFrom && (positionals.length || values['no-dense'])) throw new UsageError('--dense-from takes no sources and needs an encoder');
  if (values['defer-informal'] && !values['no-dense']) throw new UsageError('--defer-informal is for a sparse-only index (--no-dense) that --dense-from completes');
  for (const d of [...(values['resolve-against'] ?? []), ...(denseFrom ? [denseFrom] : [])]) {
    if (!existsSync(join(d, 'manifest.json'))) throw new UsageError(`not an index directory: ${d}`);
  }
  if (positionals.length) sourcesOption('index', positionals);
  if (!existsSync(values.out)) made.dir = values.out;
  prepareOutDir(values.out);
  const llm = llmClientFromFlags(values, 60_000, 3, 10);
  if (values['llm-max'] !== undefined && !llm) throw new UsageError('--llm-max needs --llm <url>');
  const llmMax = values['llm-max'] === undefined ? undefined : intOption(values['llm-max'], 'llm-max', 1);
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
  // a shipped encoder is named by its content id only, so the index outlives this installation's path
  const recordedDir = encoderDir && !isShippedEncoderDir(encoderDir) ? encoderDir : undefined;
  if (denseFrom && !encoder) throw new UsageError('--dense-from needs an encoder (--encoder DIR)');
  const bar = progressReporter();
  const progress = { update: (p: Progress) => (bar.update(p), events?.send({ event: 'progress', ...p })), stop: bar.stop };
  const enrich = llm && informalizeHook(llm, { max: llmMax, onProgress: progress.update, log: (l) => (progress.stop(), process.stderr.write(`premise-lsp: ${l}\n`)) });
  try {
    const s = denseFrom
      ? await addDense({ from: denseFrom, out: values.out, encoder: encoder!, encoderDir: recordedDir, onProgress: progress.update })
      : await buildIndex({ sources: positionals.map((p) => resolve(p)), out: values.out, encoder, encoderDir: recordedDir, onProgress: progress.update, packages: !values['no-packages'], followLinks: values['follow-links'], resolveAgainst: values['resolve-against'], enrich: enrich || undefined, deferInformal: values['defer-informal'] });
    progress.stop();
    events?.send({ event: 'done', files: s.files, declarations: s.declarations, dense: !!s.manifest.encoder, seconds: s.seconds, peakRssBytes: process.resourceUsage().maxRSS * 1024 });
    for (const w of s.warnings) if (values.verbose || w.includes(MEMORY_SKIP)) process.stderr.write(`warning: ${w}\n`);
    // a directory inside a package: its modules are named from the package root, as Lean names them
    for (const r of s.moduleRoots ?? []) process.stderr.write(`module names of ${r.input} counted from ${r.root} (${r.why}): ${r.prefix}.…\n`);
    process.stderr.write(
      `indexed ${s.files} files: ${s.declarations} declarations, ${s.manifest.stats.skippedFiles} files skipped (binary, over 4 MiB, not regular files, a module name no import can write, or over a worker's memory limit), ` +
        `${s.warnings.length} warnings${s.warnings.length && !values.verbose ? ' (--verbose lists them)' : ''}, ` +
        (s.linksSkipped ? `${s.linksSkipped} links leaving their source not followed (--follow-links), ` : '') +
        `${s.manifest.encoder ? `dense ${s.manifest.encoder.dim}-d` : 'sparse only'}, ${s.seconds.toFixed(1)} s → ${values.out}\n`,
    );
  } finally {
    progress.stop();
    events?.close();
    await encoder?.dispose();
  }
  return 0;
}
