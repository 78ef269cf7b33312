/**
 * `premise-lsp http --index DIR | --project DIR [--host H] [--port N] [--max-new-premises N] [--max-body-mib N]
 * [--watch-ms N] [--mode M] [--rerank | --no-rerank] [--weights d,s,p[,g[,l]]]`: one HTTP server on one port
 * answering LeanHammer's premise selection API (../http/leanhammer.ts), Loogle's JSON API
 * (../http/loogle.ts), LeanSearch (../http/leansearch.ts) and LeanStateSearch
 * (../http/statesearch.ts), and a search page at `/` (../http/page.ts), in one route table (../http/routes.ts). With `--project`,
 * the project's automatic index (the language server's cache, reused or built there)
 * is served, and edits to the workspace's own files are picked up (../indexing/workspace-watch.ts).
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { LeanHammerApi } from '../http/leanhammer.js';
import { LeanSearchApi } from '../http/leansearch.js';
import { LoogleApi } from '../http/loogle.js';
import { RouteTable } from '../http/routes.js';
import { createApiServer, MAX_BODY_BYTES, stopApiServer } from '../http/server.js';
import { StateSearchApi } from '../http/statesearch.js';
import { SearchPage } from '../http/page.js';
import { WATCH_INTERVAL_MS, WorkspaceWatcher } from '../indexing/workspace-watch.js';
import { choice, intOption, MODES, parse, UsageError } from './args.js';
import { ENGINE_FLAGS, openTarget } from './engine-flags.js';
import { LLM_FLAGS, llmClientFromFlags } from './llm-flags.js';

/** Largest body `--max-body-mib` may set (JSON.parse of a body holds every other caller: about 55 ms per MiB). */
const MAX_BODY_MIB = 64;

export async function httpCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {
    ...ENGINE_FLAGS,
    ...LLM_FLAGS,
    host: { type: 'string' },
    port: { type: 'string', short: 'p' },
    'max-new-premises': { type: 'string' },
    'max-body-mib': { type: 'string' },
    'watch-ms': { type: 'string' },
  });
  if (!values.index === !values.project) throw new UsageError('http needs --index <index-dir> or --project <dir> (one of them)');
  if (positionals.length) throw new UsageError(`http takes no positional arguments (got ${positionals.join(' ')})`);
  const port = values.port === undefined ? 8765 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port takes 0 to 65535 (0: any free port), got ${JSON.stringify(values.port)}`);
  const mode = choice(values.mode, 'mode', MODES);
  const maxNewPremises = intOption(values['max-new-premises'], 'max-new-premises', 2048);
  const bodyMib = intOption(values['max-body-mib'], 'max-body-mib', MAX_BODY_BYTES / 2 ** 20);
  if (bodyMib > MAX_BODY_MIB) throw new UsageError(`--max-body-mib takes 1 to ${MAX_BODY_MIB}, got ${bodyMib}`);
  const watchMs = intOption(values['watch-ms'], 'watch-ms', WATCH_INTERVAL_MS);
  if (values['watch-ms'] !== undefined && !values.project) throw new UsageError('--watch-ms goes with --project (it watches the project\'s files)');
  const llm = llmClientFromFlags(values, 10_000, 0);
  const { engine, project } = await openTarget('http', values, mode === 'bm25');
  const rerank = values['no-rerank'] ? false : values.rerank;
  const log = (line: string) => process.stderr.write(`premise-lsp http: ${line}\n`);
  const search = { rerank, mode };
  const routes = new RouteTable([
    new LeanHammerApi(engine, { maxNewPremises, rerank, mode, llm, log }),
    new LoogleApi(engine, search),
    new LeanSearchApi(engine, search),
    new StateSearchApi(engine, search),
    new SearchPage(engine),
  ]);
  // the workspace entry's source root (the project's root); a project with no sources of its own yet: the directory given
  const watched = project ? ((project.workspaceDir && project.index.roots[project.workspaceDir]?.[0]) || resolve(values.project!)) : undefined;
  const watcher = watched ? new WorkspaceWatcher(engine, watched, log, watchMs) : undefined;
  const server = createApiServer(routes, log, { maxBodyBytes: bodyMib * 2 ** 20 });
  server.listen(port, values.host ?? '127.0.0.1');
  await once(server, 'listening');
  const addr = server.address() as AddressInfo;
  log(`${engine.size} premises; listening on http://${addr.address}:${addr.port} (${routes.paths().join(', ')})`);
  if (watcher) void watcher.start().then(() => log(`watching ${watched} for edits (every ${watchMs} ms)`));
  // connections still open (a request being answered, half-sent or silent) get a short grace, then are closed
  await new Promise<void>((resolve) => {
    const stop = () => void stopApiServer(server).then(resolve);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await watcher?.stop();
  await engine.dispose();
  return 0;
}
