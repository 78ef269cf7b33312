/** `premise-lsp query --index DIR | --project DIR [--k N] [--mode M] [--slot TACTIC] [--rerank | --no-rerank] [--weights d,s,p[,g[,l]]] [--json] <text | ->` */
import { slotOf } from '../engine/open.js';
import { MAX_QUERY_CHARS, type SearchHit } from '../engine/types.js';
import { choice, intOption, MODES, parse, UsageError } from './args.js';
import { ENGINE_FLAGS, openTarget } from './engine-flags.js';
import { LLM_FLAGS, llmClientFromFlags } from './llm-flags.js';
import { searchWithLlm } from '../llm/search.js';
import { readStdinText } from './stdin.js';

function formatHit(h: SearchHit): string {
  const parts = Object.entries(h.parts)
    .map(([k, v]) => `${k} ${(v as number).toFixed(3)}`)
    .join(', ');
  const stmt = h.statement.length > 200 ? h.statement.slice(0, 197) + '…' : h.statement;
  return `${String(h.rank).padStart(3)}. ${h.name}  [${h.kind}]  score ${h.score.toFixed(3)} (${parts})\n     ${stmt}\n     ${h.file}:${h.range.start.line + 1}`;
}

/** A hit as `--json` prints it: with `path`, its source file's absolute path, when it is found under the index's source roots. */
const withPath = (h: SearchHit, path: string | undefined) => (path ? { ...h, path } : h);

export async function queryCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { ...ENGINE_FLAGS, ...LLM_FLAGS, k: { type: 'string', short: 'k' }, slot: { type: 'string' } });
  if (positionals.length !== 1) throw new UsageError('query takes one query text (quote it), or - to read stdin');
  const text = positionals[0] === '-' ? readStdinText(MAX_QUERY_CHARS) : positionals[0]!;
  if (!text.trim()) throw new UsageError('the query is empty');
  const mode = choice(values.mode, 'mode', MODES);
  const k = intOption(values.k, 'k', 10);
  if (values.slot !== undefined && !slotOf(values.slot)) {
    throw new UsageError(`--slot takes a tactic (rw, simp, exact, apply, rule, using…), got ${JSON.stringify(values.slot)}`);
  }
  const llm = llmClientFromFlags(values, 30_000, 1);
  const { engine, rerank } = await openTarget('query', values, mode === 'bm25' || mode === 'sine' || mode === 'mepo');
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
