/** `premise-lsp query --index DIR | --project DIR [--k N] [--mode M] [--slot TACTIC] [--in M] [--ns N] [--kind K] [--deprecated] [--pattern] [--imported-modules A,B | --imports-from FILE [--imports only|prefer|any]] [--rerank | --no-rerank] [--weights d,s,p[,g[,l]]] [--json] <text | ->` */
import { readFileSync } from 'node:fs';
import { QueryError, slotOf } from '../engine/open.js';
import { MAX_QUERY_CHARS, type ScopeFilter, type SearchHit } from '../engine/types.js';
import { choice, intOption, MODES, parse, UsageError } from './args.js';
import { ENGINE_FLAGS, openTarget } from './engine-flags.js';
import { LLM_FLAGS, llmClientFromFlags } from './llm-flags.js';
import { searchWithLlm } from '../llm/search.js';
import { orderByImports } from '../../../indexes/src/module-imports.js';
import { IMPORT_FLAGS, importChoice, importRequest, importSearchOptions } from './import-flags.js';
import { printable } from './printable.js';
import { readStdinText } from './stdin.js';

function formatHit(h: SearchHit & { needsImport?: string }): string {
  const parts = Object.entries(h.parts)
    .map(([k, v]) => `${k} ${(v as number).toFixed(3)}`)
    .join(', ');
  const stmt = printable(h.statement.length > 200 ? h.statement.slice(0, 197) + '…' : h.statement);
  const p = printable;
  return `${String(h.rank).padStart(3)}. ${p(h.name)}  [${p(h.kind)}]  score ${h.score.toFixed(3)} (${parts})\n     ${stmt}\n     ${p(h.file)}:${h.range.start.line + 1}${h.needsImport ? `  (needs import ${p(h.needsImport)})` : ''}`;
}

/** A hit as `--json` prints it: with `path`, its source file's absolute path, when it is found under the index's source roots. */
const withPath = <T extends SearchHit>(h: T, path: string | undefined) => (path ? { ...h, path } : h);

/** `--in`, `--ns`, `--kind` (each repeatable, or comma-separated) and `--deprecated` as a scope filter. */
export const SCOPE_FLAGS = {
  in: { type: 'string', multiple: true },
  ns: { type: 'string', multiple: true },
  kind: { type: 'string', multiple: true },
  deprecated: { type: 'boolean' },
} as const;

function scopeFromFlags(values: { in?: string[]; ns?: string[]; kind?: string[]; deprecated?: boolean }): ScopeFilter | undefined {
  const list = (name: string, v: string[] | undefined) => {
    const out = (v ?? []).flatMap((x) => x.split(',')).map((x) => x.trim());
    if (out.some((x) => !x)) throw new UsageError(`--${name} takes a non-empty name (comma-separated for several)`);
    return out.length ? out : undefined;
  };
  const scope: ScopeFilter = {};
  const modules = list('in', values.in);
  const namespaces = list('ns', values.ns);
  const kinds = list('kind', values.kind);
  if (modules) scope.modules = modules;
  if (namespaces) scope.namespaces = namespaces;
  if (kinds) scope.kinds = kinds;
  if (values.deprecated) scope.deprecated = true;
  return Object.keys(scope).length ? scope : undefined;
}

export async function queryCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {
    ...ENGINE_FLAGS,
    ...LLM_FLAGS,
    ...SCOPE_FLAGS,
    ...IMPORT_FLAGS,
    k: { type: 'string', short: 'k' },
    slot: { type: 'string' },
    pattern: { type: 'boolean' },
  });
  if (positionals.length !== 1) throw new UsageError('query takes one query text (quote it), or - to read stdin');
  const text = positionals[0] === '-' ? readStdinText(MAX_QUERY_CHARS) : positionals[0]!;
  if (!text.trim()) throw new UsageError('the query is empty');
  const mode = choice(values.mode, 'mode', MODES);
  const k = intOption(values.k, 'k', 10);
  if (values.slot !== undefined && !slotOf(values.slot)) {
    throw new UsageError(`--slot takes a tactic (rw, simp, exact, apply, rule, using…), got ${JSON.stringify(values.slot)}`);
  }
  const scope = scopeFromFlags(values);
  const request = importRequest(values); // usage errors before any index is opened or built
  const llm = llmClientFromFlags(values, 30_000, 1);
  const { engine, rerank } = await openTarget('query', values, mode === 'bm25' || mode === 'sine' || mode === 'mepo');
  try {
    let hits: SearchHit[];
    const imports = importChoice(request, engine);
    const onPartial = (why: string) => process.stderr.write(`premise-lsp: partial answer: ${why}\n`);
    const opts = { k, mode, rerank, slot: values.slot, scope, ...(values.pattern ? { pattern: true } : {}), ...importSearchOptions(imports, engine), onPartial };
    try {
      if (llm) {
        const r = await searchWithLlm(engine, llm, text, opts);
        if (r.augmentation) process.stderr.write(`premise-lsp: LLM rewrites: ${JSON.stringify(r.augmentation)}\n`);
        hits = r.hits;
      } else hits = await engine.search(text, opts);
    } catch (e) {
      if (e instanceof QueryError) throw new UsageError(e.message);
      throw e;
    }
    // what the caller cannot use as it stands says which import it needs
    const marked = orderByImports(hits, imports?.scope, imports?.policy ?? 'any').map((h, i) => ({
      ...h,
      rank: i + 1,
      ...(imports && !imports.scope.importable(h.module) ? { needsImport: h.module } : {}),
    }));
    hits = marked;
    if (values.json) process.stdout.write(JSON.stringify(hits.map((h) => withPath(h, engine.sourcePath(h))), null, 2) + '\n');
    else process.stdout.write(hits.length ? hits.map(formatHit).join('\n') + '\n' : 'no premises found\n');
  } finally {
    await engine.dispose();
  }
  return 0;
}
