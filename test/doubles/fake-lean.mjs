#!/usr/bin/env node
// A fake `lean --server` reproducing the behaviour in /work/shared/PROTOCOLS.md:
// Lean capabilities, `client/registerCapability` id "register_lean_watcher" after
// `initialized`, `$/lean/fileProgress` (processing, then `processing: []`),
// `$/lean/plainGoal` (−32801 while the file is still being elaborated; goals read
// from `-- goal:` annotations; optional delay), `$/lean/plainTermGoal`, completion
// items whose `data` is an array and whose resolve fails on any other data,
// "Try this" code actions with resolve, hover, `workspace/semanticTokens/refresh`.
//
// Annotations in document text (on indented proof lines):
//   -- goal: a b : ℕ\n⊢ a + b = b + a     (literal \n; `-- goals: G1 ||| G2` for several)
//   -- nogoals                           (closed proof)
//   -- termgoal: ℕ                       (plainGoal null, plainTermGoal answers)
//   -- goal-delay-ms: 200                (delay plainGoal replies in this document)
//   -- elab-ms: 100                      (elaboration time after each change)
//   -- refresh                           (send workspace/semanticTokens/refresh after elaboration)
//   CRASH (any request at that line exits the process); HANG (the server stops answering)
// Env: FAKE_TRANSCRIPT, FAKE_ELAB_MS, FAKE_INIT_DELAY_MS, FAKE_CRASH_ON_INIT_ONCE.
import { existsSync, writeFileSync } from 'node:fs';
import { annotationAbove, Docs, listen, notify, reply, replyError, request, wordAt, lineOf } from './rpc.mjs';

const docs = new Docs();
const pending = new Map(); // id → timer (delayed replies)
let hung = false;
let serverReqId = 0;
const DECL = /^\S/;

const CAPABILITIES = {
  textDocumentSync: { openClose: true, change: 2, save: { includeText: true } },
  completionProvider: { triggerCharacters: ['.'], resolveProvider: true },
  hoverProvider: true,
  definitionProvider: true,
  declarationProvider: true,
  typeDefinitionProvider: true,
  referencesProvider: true,
  documentHighlightProvider: true,
  documentSymbolProvider: true,
  workspaceSymbolProvider: true,
  foldingRangeProvider: true,
  codeActionProvider: { resolveProvider: true },
  inlayHintProvider: {},
  semanticTokensProvider: { legend: { tokenTypes: ['keyword', 'variable'], tokenModifiers: [] }, full: true, range: true },
  experimental: { rpcProvider: { highlightMatchesProvider: {} } },
};

function elaborate(uri) {
  const d = docs.get(uri);
  if (!d) return;
  const lines = d.text.split('\n').length;
  d.processing = true;
  const version = d.version;
  notify('$/lean/fileProgress', { textDocument: { uri, version }, processing: [{ range: { start: { line: 0, character: 0 }, end: { line: lines, character: 0 } }, kind: 1 }] });
  const ms = Number(/-- elab-ms: (\d+)/.exec(d.text)?.[1] ?? process.env.FAKE_ELAB_MS ?? 20);
  clearTimeout(d.timer);
  d.timer = setTimeout(() => {
    if (hung || docs.get(uri) !== d || d.version !== version) return;
    d.processing = false;
    notify('$/lean/fileProgress', { textDocument: { uri, version }, processing: [] });
    notify('textDocument/publishDiagnostics', { uri, version, diagnostics: [] });
    if (d.text.includes('-- refresh')) request(serverReqId++, 'workspace/semanticTokens/refresh', null);
  }, ms);
}

function goalReply(d, pos) {
  if (lineOf(d.text, pos.line).includes('-- nogoals')) return { goals: [], rendered: 'no goals' };
  const m = annotationAbove(d.text, pos.line, /-- (goals?|nogoals|termgoal)(?::\s*(.*))?$/, DECL);
  if (!m) return null;
  if (m[1] === 'nogoals') return { goals: [], rendered: 'no goals' };
  if (m[1] === 'termgoal') return null;
  const goals = m[2].split(' ||| ').map((g) => g.replace(/\\n/g, '\n'));
  return { goals, rendered: goals.map((g) => '```lean\n' + g + '\n```').join('\n---\n') };
}

function checkTriggers(d, pos) {
  const line = lineOf(d.text, pos.line);
  if (line.includes('CRASH')) process.exit(3);
  if (line.includes('HANG')) hung = true;
  return hung;
}

function later(id, ms, fn) {
  if (!ms) return fn();
  pending.set(JSON.stringify(id), setTimeout(() => {
    pending.delete(JSON.stringify(id));
    if (!hung) fn();
  }, ms));
}

listen((msg) => {
  if (hung) return;
  const { id, method, params } = msg;
  if (method === undefined) return; // a reply to one of our requests (recorded)
  const isRequest = id !== undefined;
  const d = params?.textDocument?.uri ? docs.get(params.textDocument.uri) : undefined;
  switch (method) {
    case 'initialize':
      // FAKE_CRASH_ON_INIT_ONCE=<file>: the first instance dies during initialize
      if (process.env.FAKE_CRASH_ON_INIT_ONCE && !existsSync(process.env.FAKE_CRASH_ON_INIT_ONCE)) {
        writeFileSync(process.env.FAKE_CRASH_ON_INIT_ONCE, 'crashed');
        process.exit(5);
      }
      return later(id, Number(process.env.FAKE_INIT_DELAY_MS ?? 0), () => reply(id, { capabilities: CAPABILITIES, serverInfo: { name: 'Lean 4 Server', version: '0.2.0' } }));
    case 'initialized':
      return request('register_lean_watcher', 'client/registerCapability', {
        registrations: [{ id: 'register_lean_watcher', method: 'workspace/didChangeWatchedFiles', registerOptions: { watchers: [{ globPattern: '**/*.lean' }] } }],
      });
    case 'textDocument/didOpen':
      docs.open(params);
      return elaborate(params.textDocument.uri);
    case 'textDocument/didChange':
      docs.change(params);
      return elaborate(params.textDocument.uri);
    case 'textDocument/didClose':
      return docs.close(params);
    case '$/cancelRequest': {
      const key = JSON.stringify(params.id);
      const t = pending.get(key);
      if (t) {
        clearTimeout(t);
        pending.delete(key);
        replyError(params.id, -32800, 'Request cancelled');
      }
      return;
    }
    case 'shutdown':
      return reply(id, null);
    case 'exit':
      return process.exit(0);
  }
  if (!isRequest) return; // other notifications are ignored
  switch (method) {
    case '$/lean/plainGoal': {
      if (!d) return replyError(id, -32602, `Cannot process request to closed file '${params.textDocument.uri}'`);
      if (checkTriggers(d, params.position)) return;
      if (d.processing) return replyError(id, -32801, 'File changed.');
      const delay = Number(/-- goal-delay-ms: (\d+)/.exec(d.text)?.[1] ?? 0);
      return later(id, delay, () => reply(id, goalReply(d, params.position)));
    }
    case '$/lean/plainTermGoal': {
      if (!d) return replyError(id, -32602, 'closed file');
      const m = annotationAbove(d.text, params.position.line, /-- termgoal:\s*(.*)$/, DECL);
      return reply(id, m ? { goal: m[1], range: { start: params.position, end: params.position } } : null);
    }
    case 'textDocument/completion': {
      if (d && checkTriggers(d, params.position)) return;
      const { uri } = params.textDocument;
      const { line, character } = params.position;
      const items = ['Nat.succ', 'Nat.zero', 'Nat.rec'].map((label, i) => ({ label, kind: 3, sortText: String(i).padStart(3, '0'), data: [uri, line, character, i] }));
      return reply(id, { isIncomplete: false, items });
    }
    case 'completionItem/resolve': {
      const data = params?.data;
      if (!Array.isArray(data) || typeof data[0] !== 'string') return replyError(id, -32602, 'Cannot parse request params: expected completion item data [uri, line, character, …]');
      return reply(id, { ...params, detail: `resolved by fake lean (${params.label})` });
    }
    case 'textDocument/codeAction':
      if (d && checkTriggers(d, params.range.start)) return;
      return reply(id, [{ title: 'Try this: simp', kind: 'quickfix', isPreferred: true, data: { params, providerName: 'Lean.CodeAction.tryThis', providerResultIndex: 0 } }]);
    case 'codeAction/resolve': {
      const data = params?.data;
      if (!data || typeof data.providerName !== 'string') return replyError(id, -32602, 'Cannot parse code action data');
      const p = data.params;
      return reply(id, { ...params, edit: { documentChanges: [{ textDocument: { uri: p.textDocument.uri, version: docs.get(p.textDocument.uri)?.version ?? null }, edits: [{ range: p.range, newText: 'simp' }] }] } });
    }
    case 'textDocument/hover': {
      if (!d) return reply(id, null);
      if (checkTriggers(d, params.position)) return;
      const w = wordAt(d.text, params.position);
      if (!w) return reply(id, null);
      return reply(id, { contents: { kind: 'markdown', value: '```lean\n' + w.word + ' : Prop\n```' }, range: { start: { line: params.position.line, character: w.start }, end: { line: params.position.line, character: w.end } } });
    }
    case 'textDocument/definition':
      return reply(id, null);
    case 'textDocument/documentSymbol':
      return reply(id, []);
    case 'textDocument/waitForDiagnostics':
      return reply(id, {});
    default:
      return replyError(id, -32601, `No request handler found for '${method}'`);
  }
});
