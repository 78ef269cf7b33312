/**
 * `premise-lsp http --index DIR [--host H] [--port N] [--max-new-premises N] [--mode M] [--rerank | --no-rerank] [--weights d,s,p[,g[,l]]]`:
 * the LeanHammer-compatible premise selection API over HTTP (see ../http/leanhammer.ts).
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { LeanHammerApi } from '../http/leanhammer.js';
import { createApiServer, stopApiServer } from '../http/server.js';
import { choice, intOption, MODES, parse, UsageError } from './args.js';
import { ENGINE_FLAGS, openFromFlags } from './engine-flags.js';
import { LLM_FLAGS, llmClientFromFlags } from './llm-flags.js';

export async function httpCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {
    ...ENGINE_FLAGS,
    ...LLM_FLAGS,
    host: { type: 'string' },
    port: { type: 'string', short: 'p' },
    'max-new-premises': { type: 'string' },
  });
  if (!values.index) throw new UsageError('http needs --index <index-dir>');
  if (positionals.length) throw new UsageError(`http takes no positional arguments (got ${positionals.join(' ')})`);
  const port = values.port === undefined ? 8765 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port takes 0 to 65535 (0: any free port), got ${JSON.stringify(values.port)}`);
  const mode = choice(values.mode, 'mode', MODES);
  const maxNewPremises = intOption(values['max-new-premises'], 'max-new-premises', 2048);
  const llm = llmClientFromFlags(values, 10_000, 0);
  const { engine } = await openFromFlags(values.index, values, mode === 'bm25');
  const rerank = values['no-rerank'] ? false : values.rerank;
  const log = (line: string) => process.stderr.write(`premise-lsp http: ${line}\n`);
  const server = createApiServer(new LeanHammerApi(engine, { maxNewPremises, rerank, mode, llm, log }), log);
  server.listen(port, values.host ?? '127.0.0.1');
  await once(server, 'listening');
  const addr = server.address() as AddressInfo;
  log(`${engine.size} premises; listening on http://${addr.address}:${addr.port}`);
  // connections still open (a request being answered, half-sent or silent) get a short grace, then are closed
  await new Promise<void>((resolve) => {
    const stop = () => void stopApiServer(server).then(resolve);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await engine.dispose();
  return 0;
}
