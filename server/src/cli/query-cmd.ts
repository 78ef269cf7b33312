/** `premise-lsp query --index DIR | --project DIR [--k N] [--mode M] [--slot TACTIC] [--rerank | --no-rerank] [--weights d,s,p[,g[,l]]] [--json] <text | ->` */
import { readFileSync } from 'node:fs';
import { slotOf } from '../engine/open.js';
import type { SearchHit } from '../engine/types.js';
import { choice, intOption, MODES, parse, UsageError } from './args.js';
import { ENGINE_FLAGS, openFromFlags, type IndexDirs } from './engine-flags.js';
import { autoIndexDirs } from '../indexing/auto-index.js';
import { projectOptions } from '../indexing/cache-state.js';
import { Logger } from '../lsp/log.js';
import { titledProgress } from './progress.js';
import { LLM_FLAGS, llmClientFromFlags } from './llm-flags.js';
import { searchWithLlm } from '../llm/search.js';

function formatHit(h: SearchHit): string {
  const parts = Object.entries(h.parts)
    .map(([k, v]) => `${k} ${(v as number).toFixed(3)}`)
    .join(', ');
  const stmt = h.statement.length > 200 ? h.statement.slice(0, 197) + '…' : h.statement;
  return `${String(h.rank).padStart(3)}. ${h.name}  [${h.kind}]  score ${h.score.toFixed(3)} (${parts})\n     ${stmt}\n     ${h.file}:${h.range.start.line + 1}`;
}

/** A hit as `--json` prints it: with `path`, its source file's absolute path, when it is found under the index's source roots. */
const withPath = (h: SearchHit, path: string | undefined) => (path ? { ...h, path } : h);

/**
 * `--project DIR`: the automatic index the server would use for DIR (a Lake project or an
 * Isabelle workspace), its missing cache entries built first, with progress on stderr.
 */
async function projectIndex(dir: string): Promise<IndexDirs> {
  const what = projectOptions(dir);
  if (typeof what === 'string') throw new UsageError(what);
  return autoIndexDirs({ ...what, log: new Logger(process.stderr, 'warn'), progress: titledProgress() });
}

export async function queryCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { ...ENGINE_FLAGS, ...LLM_FLAGS, k: { type: 'string', short: 'k' }, slot: { type: 'string' }, project: { type: 'string' } });
  if (!values.index === !values.project) throw new UsageError('query needs --index <index-dir> or --project <dir> (one of them)');
  if (positionals.length !== 1) throw new UsageError('query takes one query text (quote it), or - to read stdin');
  const text = positionals[0] === '-' ? readFileSync(0, 'utf8') : positionals[0]!;
  if (!text.trim()) throw new UsageError('the query is empty');
  const mode = choice(values.mode, 'mode', MODES);
  const k = intOption(values.k, 'k', 10);
  if (values.slot !== undefined && !slotOf(values.slot)) {
    throw new UsageError(`--slot takes a tactic (rw, simp, exact, apply, rule, using…), got ${JSON.stringify(values.slot)}`);
  }
  const llm = llmClientFromFlags(values, 30_000, 1);
  const index = values.project ? await projectIndex(values.project) : values.index!;
  const { engine, rerank } = await openFromFlags(index, values, mode === 'bm25' || mode === 'sine' || mode === 'mepo');
  try {
    let hits: SearchHit[];
    const opts = { k, mode, rerank, slot: values.slot };
    if (llm) {
      const r = await searchWithLlm(engine, llm, text, opts);
      if (r.augmentation) process.stderr.write(`premise-lsp: LLM rewrites: ${JSON.stringify(r.augmentation)}\n`);
      hits = r.hits;
    } else hits = await engine.search(text, opts);
    if (values.json) process.stdout.write(JSON.stringify(hits.map((h) => withPath(h, engine.sourcePath(h))), null, 2) + '\n');
    else process.stdout.write(hits.length ? hits.map(formatHit).join('\n') + '\n' : 'no premises found\n');
  } finally {
    await engine.dispose();
  }
  return 0;
}
