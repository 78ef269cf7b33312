/**
 * The project the automatic index serves. Editors do not always start the server
 * in it: eglot with no `.git` takes the opened file's folder, Neovim may take a
 * `.git` inside the project. So the project is the nearest folder at or above the
 * workspace folder with a lakefile (Lean) or a `ROOT`/`ROOTS` file (Isabelle);
 * when the workspace folder is in none, the first opened `.lean`/`.thy` file's
 * project; when there is none either, or the automatic index holds no premises,
 * the user is told once (`window/showMessage`, Warning) what to do.
 * (test/protocol/project-root.test.ts)
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isLakeProject } from '../../../indexes/src/packages.js';
import type { Logger } from './log.js';

export type Prover = 'lean' | 'isabelle';

const ISABELLE_FILES = ['ROOT', 'ROOTS'];

/** The nearest folder at or above `start` that is a Lake project (Lean) or holds `ROOT`/`ROOTS` (Isabelle). */
export function projectRootAbove(start: string, prover: Prover): string | undefined {
  for (let dir = resolve(start); ; ) {
    if (prover === 'lean' ? isLakeProject(dir) : ISABELLE_FILES.some((f) => existsSync(resolve(dir, f)))) return dir;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/** What to do when no project is found, for the message. */
function noProjectMessage(prover: Prover, workspace: string | undefined, file: string | undefined): string {
  const where = [workspace, file].filter(Boolean).join(' or ');
  const found = where ? ` at or above ${where}` : ' (the editor named no workspace folder)';
  return prover === 'lean'
    ? `no Lake project (a folder with lakefile.lean or lakefile.toml) found${found}, so there are no premises to offer. ` +
        "Open the editor on the project's root (the folder with the lakefile; see docs/editors.md for how each editor picks it), " +
        'start the server with --lean <project root>, or set the `index` setting (or --index) to an index built with `premise-lsp index --out <dir> <sources>`.'
    : `no Isabelle session (a folder with ROOT or ROOTS) found${found}. ` +
        'Open the editor on the folder with your ROOT file, or set the `index` setting (or --index) to an index built with `premise-lsp index --out <dir> <sources>`.';
}

/** Per session: follows the loader's choice of project and the opened files, and says once when there is no project. */
export class ProjectFinder {
  /** The project of the first opened file, when the workspace folder is in none. */
  fileRoot: string | undefined;
  /** The latest load's project: undefined before it is known, null when it found none. */
  private chosenRoot: string | null | undefined;
  private firstFile: string | undefined;
  private triedFile = false;
  private warned = false;

  constructor(
    private readonly log: Logger,
    /** Load again (with `fileRoot` as the workspace folder). */
    private readonly reload: () => void,
    private readonly workspace: () => string | undefined,
  ) {}

  /** The loader's choice for a load: the project it indexes automatically, or none. */
  chosen(root: string | undefined): void {
    this.chosenRoot = root ?? null;
    if (root !== undefined) return;
    // the file's project did not serve either (an Isabelle ROOT where a Lean project was wanted)
    if (this.fileRoot !== undefined) this.warn(noProjectMessage('lean', this.workspace(), this.firstFile));
    else this.tryFile();
  }

  /** A document was opened: the first `.lean`/`.thy` file is where to look when the workspace folder is in no project. */
  opened(uri: unknown): void {
    if (this.firstFile !== undefined || typeof uri !== 'string' || !uri.startsWith('file:')) return;
    let path: string;
    try {
      path = fileURLToPath(uri);
    } catch {
      return;
    }
    if (!/\.(lean|thy)$/.test(path)) return;
    this.firstFile = path;
    if (this.chosenRoot === null) this.tryFile();
  }

  /** A load that chose `root` ended with `size` premises: an empty automatic index is worth a word. */
  loaded(root: string | null | undefined, size: number | undefined): void {
    if (typeof root !== 'string' || root !== this.chosenRoot || size !== 0) return;
    this.warn(
      `the automatic index of ${root} holds no premises (no sources found in the project or its dependencies). ` +
        "Check that it is the project's root (the folder with the lakefile, or your Isabelle ROOT), " +
        'or set the `index` setting (or --index) to an index built with `premise-lsp index --out <dir> <sources>`.',
    );
  }

  private tryFile(): void {
    if (this.firstFile === undefined || this.triedFile) return;
    this.triedFile = true;
    const prover: Prover = this.firstFile.endsWith('.thy') ? 'isabelle' : 'lean';
    const root = projectRootAbove(dirname(this.firstFile), prover);
    if (root) {
      this.fileRoot = root;
      this.log.info(`the workspace folder is in no project: indexing ${root}, the project of ${this.firstFile}`);
      this.reload();
      return;
    }
    this.warn(noProjectMessage(prover, this.workspace(), this.firstFile));
  }

  private warn(message: string): void {
    if (this.warned) return;
    this.warned = true;
    this.log.alert('warn', message);
  }
}
