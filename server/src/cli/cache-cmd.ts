/**
 * `premise-lsp cache list [--json]` and `premise-lsp cache clean [--all] [--dry-run]`: the
 * automatic index cache (`$PREMISE_LSP_CACHE`, else `~/.cache/premise-lsp/indexes`). `clean`
 * removes the stale entries (no project that used them would use them now) and the
 * leftovers of builds whose process is gone; `--all` every entry but those being built.
 * Only entry directories of the cache root that premise-lsp marked as its own are ever
 * removed (indexes/src/cache-dir.ts); look-alikes are left alone and named on stderr.
 */
import { cacheRoot } from '../../../indexes/src/packages.js';
import { removeEntryDir } from '../../../indexes/src/cache-dir.js';
import { cacheReport, type EntryReport } from '../indexing/cache-state.js';
import { parse, UsageError } from './args.js';
import { printable } from './printable.js';

export async function cacheCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { all: { type: 'boolean' }, 'dry-run': { type: 'boolean' }, json: { type: 'boolean' } });
  const [sub, ...extra] = positionals;
  if ((sub !== 'list' && sub !== 'clean') || extra.length) throw new UsageError('cache takes the subcommand list or clean');
  if (sub === 'list' && (values.all || values['dry-run'])) throw new UsageError('--all and --dry-run are options of cache clean');
  if (sub === 'clean' && values.json) throw new UsageError('--json is an option of cache list');
  const cache = cacheRoot();
  const entries = await cacheReport(cache);
  if (sub === 'list') {
    if (values.json) process.stdout.write(JSON.stringify({ cache, entries: entries.map(entryJson) }, null, 1) + '\n');
    else process.stdout.write(formatList(cache, entries));
    return 0;
  }
  const doomed = entries.filter((e) => e.state !== 'building' && e.state !== 'foreign' && (values.all || e.state === 'stale' || e.state === 'leftover'));
  for (const e of entries) {
    if (e.state === 'foreign') process.stderr.write(`premise-lsp: left alone: ${printable(e.dir)} (named like a cache entry, but premise-lsp did not mark it as its own)\n`);
  }
  let bytes = 0;
  for (const e of doomed) {
    if (!values['dry-run'] && !removeEntryDir(cache, e)) continue;
    bytes += e.bytes;
    process.stdout.write(`${values['dry-run'] ? 'would remove' : 'removed'} ${printable(e.dir)} (${e.state}, ${formatBytes(e.bytes)})\n`);
  }
  const kept = entries.length - doomed.length;
  process.stderr.write(`premise-lsp: ${values['dry-run'] ? 'would free' : 'freed'} ${formatBytes(bytes)} in ${printable(cache)}; ${kept} entr${kept === 1 ? 'y' : 'ies'} kept\n`);
  return 0;
}

const entryJson = (e: EntryReport) => ({
  name: e.name,
  dir: e.dir,
  owner: e.owner,
  kind: e.kind,
  key: e.key,
  state: e.state,
  bytes: e.bytes,
  lastUsed: new Date(e.lastUsed).toISOString(),
  projects: e.usedBy.map((u) => u.root),
});

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) (v /= 1024), u++;
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[u]}`;
}

/** `2026-11-26 11:57` in local time. */
const when = (ms: number) => {
  const d = new Date(ms);
  const p = (x: number) => String(x).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
};

function formatList(cache: string, entries: EntryReport[]): string {
  if (!entries.length) return `no cache entries in ${printable(cache)}\n`;
  const rows = entries.map((e) => [e.state, e.kind, formatBytes(e.bytes), when(e.lastUsed), printable(e.name), e.usedBy.map((u) => printable(u.root)).join(', ') || '-']);
  const head = ['state', 'kind', 'size', 'last used', 'entry', 'project'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ') + '\n';
  const total = entries.reduce((s, e) => s + e.bytes, 0);
  return `cache: ${printable(cache)}\n` + line(head) + rows.map(line).join('') + `${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}, ${formatBytes(total)}\n`;
}
