/** Argument parsing shared by the subcommands (node:util parseArgs), with usage errors → exit 2 (an unknown option named with the nearest valid one). */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { indexOutsideOf, sourceTreeOf } from '../../../indexes/src/source-tree.js';
import { shellQuote } from '../../../indexes/src/store/rebuild.js';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { DEFAULT_WEIGHTS, type FusionWeights, type StyleWeights } from '../engine/open.js';
import { parseErrorMessage } from './suggest.js';

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Parses a command's options; an option that takes one value (not `multiple`) given twice is a usage error, not the last one winning. */
export function parse<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T) {
  const parsed = (() => {
    try {
      return parseArgs({ args: argv, options, allowPositionals: true, strict: true, tokens: true });
    } catch (e) {
      throw new UsageError(parseErrorMessage(e as NodeJS.ErrnoException, argv, options));
    }
  })();
  const seen = new Set<string>();
  for (const t of parsed.tokens) {
    if (t.kind !== 'option' || options[t.name]?.type !== 'string' || options[t.name]?.multiple) continue;
    if (seen.has(t.name)) throw new UsageError(`--${t.name} is given twice; it takes one value`);
    seen.add(t.name);
  }
  return { values: parsed.values, positionals: parsed.positionals };
}

export function intOption(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--${name} takes a positive integer, got ${JSON.stringify(value)}`);
  return n;
}

/** An integer percentage, 0 to 100. */
export function percentOption(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 100) throw new UsageError(`--${name} is a percentage (0-100), got ${JSON.stringify(value)}`);
  return n;
}

export function choice<T extends string>(value: string | undefined, name: string, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!allowed.includes(value as T)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
  return value as T;
}

export const MODES = ['bm25', 'dense', 'hybrid', 'sine', 'mepo'] as const;

/**
 * `--weights d,s,p[,g[,l[,i[,k[,n[,f[,o[,u[,m]]]]]]]]]`: fusion weights for every kind of query; graph votes, locality,
 * the informal field, the kind preference, the name match, the unknown-slot fit,  the project's own votes, the usage model and MaSh
 * keep each kind's default unless given.
 */
export function weightsOption(value: string | undefined): StyleWeights | undefined {
  if (value === undefined) return undefined;
  const parts = value.split(',').map(Number);
  if (parts.length < 3 || parts.length > 12 || parts.some((x) => !Number.isFinite(x) || x < 0)) {
    throw new UsageError(
      `--weights takes three to twelve non-negative numbers dense,sparse,prior[,graph[,local[,informal[,kind[,name[,fit[,own[,usage[,mash]]]]]]]]]], got ${JSON.stringify(value)}`,
    );
  }
  const [dense, sparse, prior, graph, local, informal, kind, name, fit, own, usage, mash] = parts as [number, number, number, number?, number?, number?, number?, number?, number?, number?, number?, number?];
  const of = (d: FusionWeights): FusionWeights => ({
    dense,
    sparse,
    prior,
    graph: graph ?? d.graph,
    local: local ?? d.local,
    informal: informal ?? d.informal,
    kind: kind ?? d.kind,
    name: name ?? d.name,
    fit: fit ?? d.fit,
    own: own ?? d.own,
    usage: usage ?? d.usage,
    mash: mash ?? d.mash,
  });
  return {
    formal: of(DEFAULT_WEIGHTS.formal),
    isabelle: of(DEFAULT_WEIGHTS.isabelle),
    text: of(DEFAULT_WEIGHTS.text),
    formula: of(DEFAULT_WEIGHTS.formula),
    english: of(DEFAULT_WEIGHTS.english),
    project: of(DEFAULT_WEIGHTS.project),
  };
}

/** The source paths of `index` and `extract`: at least one, each existing. */
export function sourcesOption(cmd: string, positionals: string[]): string[] {
  if (!positionals.length) throw new UsageError(`${cmd} needs at least one source directory`);
  for (const p of positionals) if (!existsSync(p)) throw new UsageError(`no such source: ${p}`);
  return positionals;
}

/**
 * The index directory of `--index`, when it holds one (its manifest); otherwise an
 * error saying there is no index there and how to build one (a mistyped path is not a
 * corrupt index). A path that is, or is inside, a source tree gets a build command whose
 * `--out` is outside the sources, and, with `project` (query, eval), `--project`.
 */
export function indexDirOption(dir: string, opts: { project?: boolean } = {}): string {
  if (existsSync(join(dir, 'manifest.json'))) return dir;
  const tree = sourceTreeOf(dir);
  if (!tree) {
    const what = existsSync(dir) ? ' (the directory has no manifest.json)' : '';
    throw new Error(`no index at ${dir}${what}; build one with \`premise-lsp index <source>... --out ${dir}\``);
  }
  const name = { lake: 'the Lake project', isabelle: 'the Isabelle sessions', sources: 'the sources' }[tree.kind];
  const at = resolve(dir) === tree.root ? `it is ${name} ${tree.root}, not an index` : `it is inside ${name} ${tree.root}`;
  const project = opts.project && tree.kind !== 'sources' ? `search its automatic index with \`--project ${shellQuote(tree.root)}\`, or ` : '';
  throw new Error(`no index at ${dir} (${at}); ${project}build an index outside the sources with \`premise-lsp index ${shellQuote(tree.root)} --out ${indexOutsideOf(tree)}\``);
}
