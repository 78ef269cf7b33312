/**
 * Terminal progress for long jobs: a cli-progress bar on stderr when it is a
 * terminal, otherwise one line per phase (CI logs stay readable).
 */
import cliProgress from 'cli-progress';
import type { Progress } from '../../../indexes/src/build.js';
import type { ProgressReporter } from '../lsp/progress.js';

const LABEL: Record<Progress['phase'], string> = {
  extract: 'extracting declarations',
  informal: 'informal statements (LLM)',
  embed: 'embedding premises',
  ann: 'building the vector graph',
  write: 'writing the index',
};

export function progressReporter(): { update: (p: Progress) => void; stop: () => void } {
  const tty = process.stderr.isTTY;
  let bar: cliProgress.SingleBar | undefined;
  let phase: string | undefined;
  const stop = () => {
    bar?.stop();
    bar = undefined;
  };
  return {
    stop,
    update(p) {
      if (p.phase !== phase) {
        stop();
        phase = p.phase;
        if (!tty) process.stderr.write(`premise-lsp: ${LABEL[p.phase]}…\n`);
        else if (p.total > 1) {
          bar = new cliProgress.SingleBar(
            { format: `${LABEL[p.phase].padEnd(26)} [{bar}] {percentage}% | {value}/{total} | {eta_formatted}`, stream: process.stderr, hideCursor: true },
            cliProgress.Presets.shades_classic,
          );
          bar.start(p.total, 0);
        }
      }
      bar?.update(p.done);
    },
  };
}

/**
 * Progress of the automatic index's builds (`autoIndexDirs`'s `progress`): a bar per
 * build on a terminal (its title, percentage and phase), otherwise a line when each starts and ends.
 */
export function titledProgress(): (title: string) => Promise<ProgressReporter> {
  const tty = process.stderr.isTTY;
  return async (title) => {
    const name = title.replace(/^premise-lsp: /, '');
    if (!tty) {
      process.stderr.write(`premise-lsp: ${name}…\n`);
      return { report: () => {}, end: (m) => process.stderr.write(`premise-lsp: ${name}: ${m ?? 'done'}\n`) };
    }
    const bar = new cliProgress.SingleBar(
      { format: `${name} [{bar}] {percentage}% | {phase}`, stream: process.stderr, hideCursor: true },
      cliProgress.Presets.shades_classic,
    );
    bar.start(100, 0, { phase: '' });
    return {
      report: (message, percentage) => bar.update(percentage ?? 0, { phase: message }),
      end: (message) => {
        bar.stop();
        process.stderr.write(`premise-lsp: ${name}: ${message ?? 'done'}\n`);
      },
    };
  };
}
