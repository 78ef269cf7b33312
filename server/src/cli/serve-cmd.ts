/** `premise-lsp serve --stdio …`: the language server, serving the index given by --index or the editor's settings. */
import { parseServeArgs, SERVE_OPTIONS, type ServeArgs } from '../lsp/args.js';
import { runServe } from '../lsp/run.js';
import { UsageError } from './args.js';
import { serverIndexOpener } from './index-opener.js';
import { unknownOption } from './suggest.js';

export async function serveCommand(argv: string[]): Promise<number> {
  let args: ServeArgs;
  try {
    args = parseServeArgs(argv);
  } catch (e) {
    const message = (e as Error).message;
    const unknown = /^unknown option (\S+)$/.exec(message);
    throw new UsageError(unknown ? unknownOption(unknown[1]!, SERVE_OPTIONS) : message); // exit 2
  }
  // an index given by --index or the editor's `index` setting that is not there is named as missing, not corrupt
  const code = await runServe(args, serverIndexOpener());
  // stdin and the prover's pipes may still hold the event loop open: the session is over
  process.exit(code);
}
