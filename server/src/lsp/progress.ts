/**
 * Work-done progress (`window/workDoneProgress/create` + `$/progress`
 * begin/report/end), only when the client said it supports it.
 */
import type { EditorChannel } from './editor.js';

export interface ProgressReporter {
  report(message: string, percentage?: number): void;
  end(message?: string): void;
}

const silent: ProgressReporter = { report: () => {}, end: () => {} };
let counter = 0;

export async function beginProgress(editor: EditorChannel, supported: boolean, title: string): Promise<ProgressReporter> {
  if (!supported) return silent;
  const token = `premise-lsp/progress/${++counter}`;
  try {
    await editor.request('window/workDoneProgress/create', { token }, 5000);
  } catch {
    return silent;
  }
  editor.notify('$/progress', { token, value: { kind: 'begin', title, cancellable: false } });
  let ended = false;
  return {
    report(message, percentage) {
      if (!ended) editor.notify('$/progress', { token, value: { kind: 'report', message, ...(percentage === undefined ? {} : { percentage }) } });
    },
    end(message) {
      if (ended) return;
      ended = true;
      editor.notify('$/progress', { token, value: { kind: 'end', ...(message === undefined ? {} : { message }) } });
    },
  };
}
