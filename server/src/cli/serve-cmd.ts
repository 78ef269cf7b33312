/** `premise-lsp serve --stdio …`: the language server, serving the index given by --index or the editor's settings. */
import { openEngine } from '../engine/open.js';
import { runServe } from '../lsp/run.js';

export async function serveCommand(argv: string[]): Promise<number> {
  const code = await runServe(argv, (dir, o) => openEngine(dir, { ...o, defaultMode: o?.sparseOnly ? 'hybrid' : undefined }));
  // stdin and the prover's pipes may still hold the event loop open: the session is over
  process.exit(code);
}
