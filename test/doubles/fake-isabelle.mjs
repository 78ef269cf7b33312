#!/usr/bin/env node
// A fake `isabelle vscode_server -o vscode_pide_extensions` reproducing
// /work/shared/PROTOCOLS.md: a slow `initialize` (FAKE_INIT_DELAY_MS), no reply
// at all to unknown requests, `shutdown` → "OK", completion as a plain array,
// `PIDE/caret_update` → `PIDE/dynamic_output` (HTML) sent only when the text
// changes, `workspace/applyEdit` requests with the empty-string id "".
//
// Annotations in document text:
//   (* state: proof (prove)\ngoal (1 subgoal):\n 1. x + 0 = x *)   (literal \n)
//   (* apply-edit *)   on open, the server asks the editor to apply an edit (id "")
//   CRASH (caret_update/hover/completion at that line exits the process)
import { annotationAbove, Docs, listen, notify, reply, request, wordAt, lineOf } from './rpc.mjs';

const docs = new Docs();
let lastOutput;
const DECL = /^(lemma|theorem|corollary|proposition|definition|fun|theory)\b/;

const CAPABILITIES = {
  textDocumentSync: 2,
  completionProvider: { resolveProvider: false, triggerCharacters: ['\\', '<'] },
  hoverProvider: true,
  definitionProvider: true,
  documentHighlightProvider: true,
  codeActionProvider: true,
};

const escape = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function crashAt(d, pos) {
  if (d && lineOf(d.text, pos.line).includes('CRASH')) process.exit(4);
}

listen((msg) => {
  const { id, method, params } = msg;
  if (method === undefined) return;
  const d = params?.textDocument?.uri ? docs.get(params.textDocument.uri) : undefined;
  switch (method) {
    case 'initialize':
      setTimeout(() => reply(id, { capabilities: CAPABILITIES }), Number(process.env.FAKE_INIT_DELAY_MS ?? 0));
      return;
    case 'shutdown':
      return reply(id, 'OK');
    case 'exit':
      return process.exit(0);
    case 'textDocument/didOpen': {
      const doc = docs.open(params);
      if (doc.text.includes('(* apply-edit *)')) {
        request('', 'workspace/applyEdit', {
          edit: { changes: { [params.textDocument.uri]: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: '' }] } },
        });
      }
      return;
    }
    case 'textDocument/didChange':
      return void docs.change(params);
    case 'textDocument/didClose':
      return docs.close(params);
    case 'PIDE/caret_update': {
      const doc = docs.get(params.uri);
      if (!doc) return;
      crashAt(doc, params);
      const m = annotationAbove(doc.text, params.line, /\(\* state: (.*) \*\)/, DECL);
      const text = m ? m[1].replace(/\\n/g, '\n') : '';
      const content = `<body><pre class="source">${escape(text).replace(/\n/g, '<br/>')}</pre></body>`;
      if (content !== lastOutput) {
        lastOutput = content;
        notify('PIDE/dynamic_output', { content });
      }
      return;
    }
    case 'PIDE/state_init':
      return reply(id, { state_id: 1 });
    case 'textDocument/completion':
      crashAt(d, params.position);
      return reply(id, [{ label: '\\<Rightarrow>', kind: 1, insertText: '⇒' }, { label: 'simp', kind: 14 }]);
    case 'textDocument/hover': {
      if (!d) return reply(id, null);
      crashAt(d, params.position);
      const w = wordAt(d.text, params.position);
      return reply(id, w ? { contents: [{ language: 'isabelle', value: `constant "${w.word}"` }] } : null);
    }
    case 'textDocument/codeAction':
      return reply(id, []);
    case 'textDocument/definition':
      return reply(id, []);
    case 'textDocument/documentHighlight':
      return reply(id, []);
    default:
      return; // unknown requests and notifications: no reply at all
  }
});
