/**
 * How to start each prover's language server, and which protocol family a
 * command belongs to.
 */
import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { ChildSpec } from './child.js';

export type Flavor = 'lean' | 'isabelle' | 'generic';

/** `lake serve -- <root>` when a lakefile exists, else `lean --server <root>`; cwd = root. */
export function leanCommand(root: string): ChildSpec {
  const dir = resolve(root);
  const lake = existsSync(join(dir, 'lakefile.lean')) || existsSync(join(dir, 'lakefile.toml'));
  return lake
    ? { command: 'lake', args: ['serve', '--', dir], cwd: dir }
    : { command: 'lean', args: ['--server', dir], cwd: dir };
}

/** `isabelle vscode_server -o vscode_pide_extensions -o editor_output_state [extra…]`. */
export function isabelleCommand(extra: string[] = []): ChildSpec {
  return {
    command: 'isabelle',
    args: ['vscode_server', '-o', 'vscode_pide_extensions', '-o', 'editor_output_state', ...extra],
  };
}

export function customCommand(argv: string[], cwd?: string): ChildSpec {
  if (argv.length === 0) throw new Error('empty upstream command');
  return { command: argv[0], args: argv.slice(1), cwd };
}

/** Guess the protocol family from the command line (scripts named after the prover count). */
export function flavorOfCommand(spec: ChildSpec): Flavor {
  const words = [spec.command, ...spec.args].map((w) => basename(w).toLowerCase());
  if (words.some((w) => w.includes('isabelle'))) return 'isabelle';
  if (words.some((w) => w === 'lake' || w === 'lean' || w.startsWith('lean') || w.includes('-lean'))) return 'lean';
  return 'generic';
}
