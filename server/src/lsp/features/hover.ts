/**
 * Hover on a premise name: statement, docstring and location from the index,
 * appended to the upstream's hover when there is one.
 */
import type { Hover, MarkupContent } from 'vscode-languageserver';
import { INTERACTIVE_WAIT_MS } from '../engine-host.js';
import { identifierAt } from '../text/context.js';
import type { FeatureContext } from './context.js';
import { premiseMarkdown } from './present.js';

export async function premiseHover(ctx: FeatureContext, params: { textDocument?: { uri?: unknown }; position?: { line?: unknown; character?: unknown } }): Promise<Hover | null> {
  const doc = ctx.docs.get(params.textDocument?.uri);
  const pos = params.position;
  if (!doc || typeof pos?.line !== 'number' || typeof pos.character !== 'number') return null;
  const ident = identifierAt(doc.getText(), doc.offsetAt({ line: pos.line, character: pos.character }));
  if (!ident) return null;
  const engine = await ctx.engines.get(INTERACTIVE_WAIT_MS);
  const info = engine?.lookup(ident.name);
  if (!info) return null;
  return {
    contents: { kind: 'markdown', value: verdictLines(ctx, doc.uri, doc.version, info.name) + premiseMarkdown(info) },
    range: { start: doc.positionAt(ident.start), end: doc.positionAt(ident.end) },
  };
}

/** What trials in this version of the document found for `name`: one line per step tried with it that worked. */
function verdictLines(ctx: FeatureContext, uri: string, version: number, name: string): string {
  const lines: string[] = [];
  for (const { place, results } of ctx.trials?.verdicts(uri, version) ?? []) {
    for (const r of results) {
      if (!r.premises.includes(name) || (r.outcome !== 'closes' && r.outcome !== 'progress')) continue;
      lines.push(`${r.outcome === 'closes' ? '✓' : '→'} \`${r.step}\` ${r.outcome === 'closes' ? 'closes the goal' : 'makes progress'} at line ${place.line + 1} (checked by Lean)`);
    }
  }
  return lines.length ? lines.slice(0, 5).join('  \n') + '\n\n' : '';
}

function asMarkdown(contents: unknown): string {
  if (typeof contents === 'string') return contents;
  if (Array.isArray(contents)) return contents.map(asMarkdown).filter(Boolean).join('\n\n');
  const c = contents as { kind?: string; value?: string; language?: string } | null;
  if (!c || typeof c.value !== 'string') return '';
  if (c.language !== undefined) return '```' + c.language + '\n' + c.value + '\n```';
  return c.kind === 'plaintext' ? c.value.replace(/([\\`*_{}\[\]()#+\-.!<>])/g, '\\$1') : c.value;
}

/**
 * The upstream's hover with ours appended below a rule; either may be null. An
 * upstream hover without content (Isabelle's `{contents: []}`) counts as none.
 */
export function mergeHover(upstream: unknown, ours: Hover | null): unknown {
  if (!ours) return upstream ?? null;
  const up = upstream as Hover | null | undefined;
  const theirs = up ? asMarkdown(up.contents) : '';
  if (!theirs.trim()) return ours;
  const value = theirs + '\n\n---\n\n' + (ours.contents as MarkupContent).value;
  return { ...up, contents: { kind: 'markdown', value } };
}
