/**
 * premise-lsp command line. Thin: picks the subcommand and maps errors to exit
 * codes (0 ok, 2 bad usage, 1 anything else, reason on stderr).
 */
import { UsageError } from './cli/args.js';

const USAGE = `usage: premise-lsp <command> [options]

commands:
  index <source-dir>... --out <index-dir> [--encoder DIR | --no-dense] [--verbose]
  query --index <index-dir> [--k N] [--mode bm25|dense|hybrid|sine|mepo] [--slot TACTIC] [--rerank | --no-rerank] [--weights d,s,p[,g[,l]]] [--json] <text | ->
  eval  --index <index-dir> --dataset mathlibqr|mathlibmpr|leandojo <file> [--mode M|bm25-plain] [--rerank | --no-rerank] [--weights d,s,p[,g[,l]]] [--slot-steps | --slot-from-tactic] [--json]
  extract <source-dir>... [--out records.jsonl]
  serve --stdio [--index DIR] [--lean <root> | --isabelle | -- <command...>]
  http --index <index-dir> [--host H] [--port N] [--max-new-premises N] [--mode M] [--rerank | --no-rerank]
  vocab <records.jsonl> [--out models/vocab/en-lean.json]
  models pull <repo> [--revision R] [--dest DIR] [--files a,b] [--endpoint URL]
  bench [--mathlib DIR] [--out bench/]
`;

type Command = (argv: string[]) => Promise<number>;

const COMMANDS: Record<string, () => Promise<Command>> = {
  index: async () => (await import('./cli/index-cmd.js')).indexCommand,
  query: async () => (await import('./cli/query-cmd.js')).queryCommand,
  eval: async () => (await import('./cli/eval-cmd.js')).evalCommand,
  extract: async () => (await import('./cli/extract-cmd.js')).extractCommand,
  models: async () => (await import('./cli/models-cmd.js')).modelsCommand,
  serve: async () => (await import('./cli/serve-cmd.js')).serveCommand,
  http: async () => (await import('./cli/http-cmd.js')).httpCommand,
  vocab: async () => (await import('./cli/vocab-cmd.js')).vocabCommand,
  'rerank-data': async () => (await import('./cli/rerank-data-cmd.js')).rerankDataCommand,
};

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (!cmd || cmd === '--help' || cmd === '-h' || cmd === 'help') {
    process.stdout.write(USAGE);
    return cmd ? 0 : 2;
  }
  const load = COMMANDS[cmd];
  if (!load) throw new UsageError(`unknown command ${JSON.stringify(cmd)}`);
  return (await load())(rest);
}

// `premise-lsp extract | head` closes stdout early: that is not an error
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    if (e instanceof UsageError) {
      process.stderr.write(`premise-lsp: ${e.message}\n\n${USAGE}`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`premise-lsp: ${(e as Error)?.message ?? String(e)}\n`);
      if (process.env.PREMISE_LSP_DEBUG) process.stderr.write(`${(e as Error)?.stack}\n`);
      process.exitCode = 1;
    }
  },
);
