/**
 * onnxruntime-node, loaded on first use. It is an optional dependency: the shipped
 * models run in plain TypeScript (`bag-session.ts`, `mlp.ts`, the text tower), and
 * only a bring-your-own ONNX encoder or a cross-encoder needs it. Without it, those
 * fail with one error that says how to install it.
 */
import type * as Ort from 'onnxruntime-node';
import { ModelError, errorMessage } from './errors.js';

export type OrtModule = typeof Ort;

export const ORT_INSTALL_HINT =
  'install it beside premise-lsp with `npm install -g onnxruntime-node --onnxruntime-node-install=skip` ' +
  '(or `npm install onnxruntime-node` in a checkout)';

let loaded: Promise<OrtModule> | undefined;

/** The onnxruntime-node module, or a ModelError naming `file` and the install command. */
export function loadOrt(file: string): Promise<OrtModule> {
  loaded ??= import('onnxruntime-node').then((m) => ((m as { default?: OrtModule }).default ?? m) as OrtModule);
  return loaded.catch((e: unknown) => {
    loaded = undefined;
    throw new ModelError(
      `the ONNX model ${file} needs onnxruntime-node, which is not installed (${errorMessage(e).split('\n')[0]}); ${ORT_INSTALL_HINT}`,
      file,
      { cause: e },
    );
  });
}
