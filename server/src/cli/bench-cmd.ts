/** `premise-lsp bench [options]`: runs the built benchmark (see ../bench/launch.ts). */
import { launchBench } from '../bench/launch.js';

export const benchCommand = (argv: string[]): Promise<number> => launchBench(argv);
