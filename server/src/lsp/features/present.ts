/** How a premise is shown: markdown with statement, docstring and location. */
import type { PremiseInfo } from '../../engine/types.js';

const MAX_STATEMENT = 2000;

export function location(p: PremiseInfo): string {
  const line = p.range?.start?.line;
  return `${p.module}${p.file ? ` (${p.file}${typeof line === 'number' ? `:${line + 1}` : ''})` : ''}`;
}

export function fence(p: PremiseInfo): string {
  return p.lang === 'isabelle' ? 'isabelle' : 'lean';
}

export function premiseMarkdown(p: PremiseInfo, opts: { statement?: boolean } = {}): string {
  const parts: string[] = [];
  if (opts.statement !== false) parts.push('```' + fence(p) + '\n' + p.statement.slice(0, MAX_STATEMENT) + '\n```');
  if (p.doc) parts.push(p.doc.slice(0, MAX_STATEMENT));
  parts.push(`*${p.kind}* \`${p.name}\` — ${location(p)}`);
  return parts.join('\n\n');
}

export function shortName(name: string): string {
  const i = name.lastIndexOf('.');
  return i >= 0 ? name.slice(i + 1) : name;
}
