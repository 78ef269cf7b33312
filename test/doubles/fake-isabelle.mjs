#!/usr/bin/env node
// A fake `isabelle vscode_server -o vscode_pide_extensions` reproducing
// /work/shared/PROTOCOLS.md, its shapes checked against Isabelle's own sources
// (src/Tools/VSCode/src/*.scala; see test/doubles/README.md): a slow `initialize`
// (FAKE_INIT_DELAY_MS), no reply at all to unknown requests, `shutdown` → "OK",
// completion as a plain array of items with `textEdit`, hover `{contents: []}`
// where there is nothing (one MarkedString as an object, not an array),
// `PIDE/caret_update` → `PIDE/dynamic_output` sent only when the output changes
// (HTML with literal newlines; with `-o vscode_html_output=false` plain text plus
// `decorations`), `workspace/applyEdit` requests with the empty-string id "" and a
// `documentChanges` edit, diagnostics that carry a "jsonrpc" field, no reply to a
// code action for a document it does not know.
//
// Annotations in document text:
//   (* state: proof (prove)\ngoal (1 subgoal):\n 1. x + 0 = x *)   (literal \n)
//   (* apply-edit *)   on open, the server asks the editor to apply an edit (id "")
//   (* no-tooltip *)   hovers on that line find no tooltip: `{contents: []}`
//   sorry              a warning diagnostic on that line
//   CRASH (caret_update/hover/completion at that line exits the process)
import { annotationAbove, Docs, listen, notify, reply, request, wordAt, lineOf } from './rpc.mjs';

const docs = new Docs();
let lastOutput = ''; // the panel starts empty: empty output at first is not sent (pretty_text_panel.scala)
const htmlOutput = !process.argv.slice(2).some((a) => a === 'vscode_html_output=false');
const DECL = /^(lemma|theorem|corollary|proposition|definition|fun|theory)\b/;

const CAPABILITIES = {
  textDocumentSync: 2,
  completionProvider: { resolveProvider: false, triggerCharacters: ['\\', '<'] },
  hoverProvider: true,
  definitionProvider: true,
  documentHighlightProvider: true,
  codeActionProvider: true,
};

const escape = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const pos = (line, character) => ({ line, character });

/** Isabelle's Diagnostic.json starts from the message skeleton: each one carries "jsonrpc". */
function diagnostics(uri, text) {
  const out = [];
  text.split('\n').forEach((l, i) => {
    const at = l.indexOf('sorry');
    if (at >= 0 && !l.includes('(*')) out.push({ jsonrpc: '2.0', range: { start: pos(i, at), end: pos(i, at + 5) }, message: 'Warning: sorry', severity: 2 });
  });
  notify('textDocument/publishDiagnostics', { uri, diagnostics: out });
}

/** The output panel's message: HTML (newlines kept as text), or text with decorations. */
function output(text) {
  if (htmlOutput) return { content: escape(text) };
  return { content: text, decorations: [] };
}

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
      diagnostics(params.textDocument.uri, doc.text);
      if (doc.text.includes('(* apply-edit *)')) {
        request('', 'workspace/applyEdit', {
          edit: { documentChanges: [{ textDocument: { uri: params.textDocument.uri, version: doc.version }, edits: [{ range: { start: pos(0, 0), end: pos(0, 0) }, newText: '' }] }] },
        });
      }
      return;
    }
    case 'textDocument/didChange': {
      const doc = docs.change(params);
      if (doc) diagnostics(params.textDocument.uri, doc.text);
      return;
    }
    case 'textDocument/didClose':
      return docs.close(params);
    case 'PIDE/caret_update': {
      const doc = docs.get(params.uri);
      if (!doc) return;
      crashAt(doc, params);
      const m = annotationAbove(doc.text, params.line, /\(\* state: (.*) \*\)/, DECL);
      const text = m ? m[1].replace(/\\n/g, '\n') : '';
      const out = output(text);
      if (out.content !== lastOutput) {
        lastOutput = out.content;
        notify('PIDE/dynamic_output', out);
      }
      return;
    }
    case 'PIDE/state_init':
      return reply(id, { state_id: 1 });
    case 'textDocument/completion': {
      crashAt(d, params.position);
      // label = the replacement, detail = its description, textEdit over the word typed so far
      const w = d && wordAt(d.text, params.position);
      const range = { start: pos(params.position.line, w ? w.start : params.position.character), end: params.position };
      return reply(id, [
        { label: '⇒', kind: 24, detail: '\\<Rightarrow> (symbol)', textEdit: { range, newText: '⇒' } },
        { label: 'simp', kind: 14, detail: 'keyword', textEdit: { range, newText: 'simp' } },
      ]);
    }
    case 'textDocument/hover': {
      if (!d) return reply(id, { contents: [] });
      crashAt(d, params.position);
      const w = wordAt(d.text, params.position);
      if (!w || lineOf(d.text, params.position.line).includes('(* no-tooltip *)')) return reply(id, { contents: [] });
      const range = { start: pos(params.position.line, w.start), end: pos(params.position.line, w.end) };
      return reply(id, { contents: { language: 'plaintext', value: `constant "${w.word}"` }, range });
    }
    case 'textDocument/codeAction':
      if (!docs.get(params.textDocument.uri)) return; // no model: Isabelle writes nothing
      return reply(id, []);
    case 'textDocument/definition':
      return reply(id, []);
    case 'textDocument/documentHighlight':
      return reply(id, []);
    default:
      return; // unknown requests and notifications: no reply at all
  }
});
