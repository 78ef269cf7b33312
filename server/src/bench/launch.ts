/** `premise-lsp bench`: the built benchmark (dist/bench.js) in a child process with the same arguments; its exit status. */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../paths.js';

export function launchBench(argv: string[]): Promise<number> {
  const script = join(packageRoot(), 'dist', 'bench.js');
  if (!existsSync(script)) return Promise.reject(new Error(`the benchmark is not built: ${script} is missing (run \`npm run build\`)`));
  const child = spawn(process.execPath, [script, ...argv], { stdio: 'inherit' });
  return new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}
