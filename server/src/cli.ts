/**
 * premise-lsp command line. Thin: picks the subcommand and maps errors to exit
 * codes (0 ok, 2 bad usage, 1 anything else, reason on stderr). A usage error is
 * one line and where the command's `--help` is; an unknown command names the nearest.
 */
import { UsageError } from './cli/args.js';
import { nearest } from './cli/suggest.js';
import { COMMAND_USAGE, USAGE, wantsHelp } from './cli/usage.js';

type Command = (argv: string[]) => Promise<number>;

const COMMANDS: Record<string, () => Promise<Command>> = {
  index: async () => (await import('./cli/index-cmd.js')).indexCommand,
  query: async () => (await import('./cli/query-cmd.js')).queryCommand,
  eval: async () => (await import('./cli/eval-cmd.js')).evalCommand,
  extract: async () => (await import('./cli/extract-cmd.js')).extractCommand,
  models: async () => (await import('./cli/models-cmd.js')).modelsCommand,
  serve: async () => (await import('./cli/serve-cmd.js')).serveCommand,
  http: async () => (await import('./cli/http-cmd.js')).httpCommand,
  mcp: async () => (await import('./cli/mcp-cmd.js')).mcpCommand,
  setup: async () => (await import('./cli/setup-cmd.js')).setupCommand,
  vocab: async () => (await import('./cli/vocab-cmd.js')).vocabCommand,
  'rerank-data': async () => (await import('./cli/rerank-data-cmd.js')).rerankDataCommand,
  'tower-data': async () => (await import('./cli/tower-data-cmd.js')).towerDataCommand,
  'fusion-data': async () => (await import('./cli/fusion-data-cmd.js')).fusionDataCommand,
  'holdout-files': async () => (await import('./cli/holdout-files-cmd.js')).holdoutFilesCommand,
  bench: async () => (await import('./cli/bench-cmd.js')).benchCommand,
  doctor: async () => (await import('./cli/doctor-cmd.js')).doctorCommand,
  cache: async () => (await import('./cli/cache-cmd.js')).cacheCommand,
};

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (!cmd) {
    process.stderr.write(USAGE);
    return 2;
  }
  if (cmd === '--version' || cmd === '-V') {
    process.stdout.write(`${(await import('./paths.js')).packageVersion()}\n`);
    return 0;
  }
  if (cmd === '--help' || cmd === '-h' || cmd === 'help') {
    const topic = cmd === 'help' ? rest[0] : undefined;
    process.stdout.write((topic && COMMAND_USAGE[topic]) || USAGE);
    return 0;
  }
  const load = COMMANDS[cmd];
  if (!load) {
    const near = nearest(cmd, Object.keys(COMMANDS));
    throw new UsageError(`unknown command ${JSON.stringify(cmd)}${near ? ` (did you mean ${near}?)` : ''}`);
  }
  if (wantsHelp(rest)) {
    process.stdout.write(COMMAND_USAGE[cmd] ?? USAGE);
    return 0;
  }
  return (await load())(rest);
}

// `premise-lsp extract | head` closes stdout early: that is not an error; any other write
// error (a full disk, `> /dev/full`) is one line, not a stack (test/cli/output-errors.test.ts)
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  process.stderr.write(`premise-lsp: cannot write the output: ${writeFailure(e)}\n`);
  process.exit(1);
});

function writeFailure(e: NodeJS.ErrnoException): string {
  const why: Record<string, string> = { ENOSPC: 'no space left on device', EIO: 'input/output error', EDQUOT: 'disk quota exceeded', EFBIG: 'file too large', EBADF: 'standard output is closed' };
  return e.code ? `${why[e.code] ?? e.message} (${e.code})` : e.message;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    if (e instanceof UsageError) {
      // one line, and where the command's own usage is (not the usage itself: it buries the line)
      const cmd = process.argv[2];
      const known = cmd !== undefined && Object.hasOwn(COMMANDS, cmd);
      process.stderr.write(
        known ? `premise-lsp ${cmd}: ${e.message}\n\`premise-lsp ${cmd} --help\` lists its options\n` : `premise-lsp: ${e.message}\n\`premise-lsp --help\` lists the commands\n`,
      );
      process.exitCode = 2;
    } else {
      process.stderr.write(`premise-lsp: ${(e as Error)?.message ?? String(e)}\n`);
      if (process.env.PREMISE_LSP_DEBUG) process.stderr.write(`${(e as Error)?.stack}\n`);
      process.exitCode = 1;
    }
  },
);
