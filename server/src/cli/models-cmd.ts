/**
 * `premise-lsp models pull <repo> [--revision R] [--dest DIR] [--files a,b] [--endpoint URL]`:
 * downloads a Hugging Face–style ONNX model directory with resume and digest checks.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { formatPullProgress, pullModel } from '../../../models/src/pull.js';
import { parse, UsageError } from './args.js';

export function defaultModelsHome(): string {
  return join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'premise-lsp', 'models');
}

export async function modelsCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {
    revision: { type: 'string' },
    dest: { type: 'string' },
    files: { type: 'string' },
    endpoint: { type: 'string' },
  });
  const [sub, repo, ...extra] = positionals;
  if (sub !== 'pull') throw new UsageError('models takes the subcommand pull');
  if (!repo || extra.length || !/^[\w.-]+\/[\w.-]+$/.test(repo)) throw new UsageError('models pull takes one repository, e.g. sentence-transformers/all-MiniLM-L6-v2');
  const dest = values.dest ?? join(defaultModelsHome(), repo.replace('/', '--'));
  let last = 0;
  const result = await pullModel(repo, {
    dest,
    revision: values.revision,
    files: values.files?.split(',').map((f) => f.trim()).filter(Boolean),
    baseUrl: values.endpoint,
    onProgress: (p) => {
      const now = Date.now();
      if (process.stderr.isTTY && now - last > 200) {
        last = now;
        process.stderr.write(`\r${formatPullProgress(p)}\x1b[K`);
      }
    },
  });
  if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
  for (const f of result.files) process.stderr.write(`${f.path}  ${f.bytes} bytes  sha256 ${f.sha256}\n`);
  for (const s of result.skipped) process.stderr.write(`${s}  not in the repository, skipped\n`);
  process.stdout.write(`${dest}\n`);
  return 0;
}
