#!/usr/bin/env node
// A fake `lean --server` reproducing /work/shared/PROTOCOLS.md, its shapes checked
// against the real server's recordings (see test/doubles/README.md for which
// recording or source file each one comes from): Lean capabilities,
// `client/registerCapability` id "register_lean_watcher" after `initialized`,
// `$/lean/fileProgress` (the unprocessed rest of the file, shrinking, then
// `processing: []`; kind 2 and never `[]` after a fatal error), `$/lean/plainGoal`
// (waits until elaboration is done; −32801 "File changed." when the document is
// edited while it waits; −32800 on `$/cancelRequest`; goals read from `-- goal:`
// annotations), `$/lean/plainTermGoal` (`⊢ T` with the term's range), completion
// items with sortText "0","1",… and `data` = [module, line, character, cPos, "c<decl>"]
// whose resolve fails on any other data, eager "Try this" code actions (edit + data),
// markdown hovers, diagnostics with `fullRange`, `workspace/semanticTokens/refresh`.
//
// Annotations in document text (on indented proof lines):
//   -- goal: a b : ℕ\n⊢ a + b = b + a     (literal \n; `-- goals: G1 ||| G2` for several)
//   -- nogoals                           (closed proof)
//   -- termgoal: ℕ                       (plainGoal null; plainTermGoal answers `⊢ ℕ`, hyps allowed: `h : p\n⊢ ℕ`)
//   -- goal-delay-ms: 200                (delay plainGoal replies in this document)
//   -- elab-ms: 100                      (elaboration time after each change)
//   -- fatal                             (elaboration ends in a fatal error: progress kind 2, never [])
//   sorry                                (a warning diagnostic "declaration uses 'sorry'" on that line)
//   -- refresh                           (send workspace/semanticTokens/refresh after elaboration)
//   CRASH (any request at that line exits the process); HANG (the server stops answering)
// Trials (a table of steps; only documents that hold one elaborate their tactic lines):
//   -- step: exact Nat.add_comm a b => closes          (no error; plainGoal at that line: no goals)
//   -- step: rw [Nat.add_comm] => goals: G1 ||| G2      (plainGoal: those goals; "unsolved goals" at the `by`
//                                                       when it is the block's last step)
//   -- step: exact foo => error: type mismatch\n…      (an error with fullRange over the step's term)
//   -- step: simp [foo] => hangs                       (elaboration never finishes; waitForDiagnostics never answers)
//   -- step: grind [foo] => heavy 500000               (a heartbeat-limit error when `set_option maxHeartbeats N in`
//                                                       wraps it with N below 500000, else closes)
//   any outcome may end in ` (ms: N)`: elaboration takes N ms more. A tactic line (`exact t`, `apply t`,
//   `rw [t]`, `simp …`, `grind …`) not in the table fails with Lean's message for that tactic. A leading
//   `set_option maxHeartbeats N in ` is read through. `textDocument/waitForDiagnostics {uri, version}` answers
//   `{}` once that version is elaborated (its diagnostics published first); −32800 on `$/cancelRequest`.
//   `fake/documents` answers {uri: {text, version}} for every open document (tests compare texts).
// `$/lean/rpc/connect` answers `{sessionId}` (a fresh id per call; nothing else of RPC is reproduced).
// Env: FAKE_TRANSCRIPT, FAKE_ELAB_MS, FAKE_INIT_DELAY_MS, FAKE_CRASH_ON_INIT_ONCE, FAKE_BAD_REGISTRATION,
// FAKE_DIE_AFTER_FIRST=<file> (the first instance runs; every later one exits at once: a crash loop),
// FAKE_IGNORE_TERM (stdin EOF and SIGTERM are ignored: only SIGKILL stops it),
// FAKE_NEVER_INIT (initialize is never answered; everything else is: a `lake serve` stuck before its reply),
// FAKE_STDERR_EVERY_MS=<ms> (a stderr line that often, for ever: a prover busy, or stuck, writing a log).
// Flow control (not Lean's; for the backpressure tests):
//   `fake/flood` {bytes, done?}  write ~1 KB `fake/flood` {seq} notifications, as fast as stdout takes them
//                                (waiting for 'drain'), `bytes` in all, then `fake/floodDone` {count}; `done`: a
//                                file written when the last one is handed to stdout
//   `fake/report` {file}         append the bytes of its output the pipe has taken so far to `file`
//   `fake/stall`                 stop reading stdin (answered with `fake/stalled` {pid}); SIGUSR1 reads on
//   `fake/junk`                  counted; `fake/tally` answers `fake/tally` {junk}
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { annotationAbove, Docs, listen, notify, reply, replyError, request, wordAt, lineOf } from './rpc.mjs';

if (process.env.FAKE_DIE_AFTER_FIRST) {
  if (existsSync(process.env.FAKE_DIE_AFTER_FIRST)) process.exit(6);
  writeFileSync(process.env.FAKE_DIE_AFTER_FIRST, 'started');
}

if (process.env.FAKE_STDERR_EVERY_MS) setInterval(() => process.stderr.write('fake-lean: still working\n'), Number(process.env.FAKE_STDERR_EVERY_MS)).unref();

const docs = new Docs();
const pending = new Map(); // id → timer (delayed replies)
const diagWaits = new Map(); // waitForDiagnostics id → document
let hung = false;
let rpcSessions = 0;
let shutDown = false;
let serverReqId = 0;
let outputTaken = 0; // bytes of our output the pipe has taken (write callbacks)
let junk = 0;

function flood({ bytes, done }) {
  const pad = 'x'.repeat(1000);
  let seq = 0;
  let sent = 0;
  const step = () => {
    while (sent < bytes) {
      const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', method: 'fake/flood', params: { seq: seq++, pad } }), 'utf8');
      const frame = Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'latin1'), body]);
      sent += frame.length;
      const ok = process.stdout.write(frame, () => (outputTaken += frame.length));
      if (!ok) return void process.stdout.once('drain', step);
    }
    notify('fake/floodDone', { count: seq });
    if (done) writeFileSync(done, String(seq));
  };
  step();
}
const DECL = /^\S/;
const TRY_THIS = '_private.Lean.Meta.Tactic.TryThis.0.Lean.Meta.Tactic.TryThis.tryThisProvider';

// As the watchdog's mkLeanServerCapabilities has them (no `experimental` field).
const CAPABILITIES = {
  textDocumentSync: { openClose: true, change: 2, willSave: false, willSaveWaitUntil: false, save: { includeText: true } },
  completionProvider: { triggerCharacters: ['.'], resolveProvider: true },
  hoverProvider: true,
  declarationProvider: true,
  definitionProvider: true,
  typeDefinitionProvider: true,
  referencesProvider: true,
  callHierarchyProvider: true,
  renameProvider: { prepareProvider: true },
  workspaceSymbolProvider: true,
  documentHighlightProvider: true,
  documentSymbolProvider: true,
  foldingRangeProvider: true,
  semanticTokensProvider: { legend: { tokenTypes: ['keyword', 'variable'], tokenModifiers: [] }, full: true, range: true },
  codeActionProvider: { resolveProvider: true, codeActionKinds: ['quickfix', 'refactor', 'source.organizeImports'] },
  inlayHintProvider: { resolveProvider: false },
};

const pos = (line, character) => ({ line, character });

/** Real Lean reports the not-yet-processed rest of the file: from where it is to the end. */
function progress(d, uri, version, fromLine, kind = 1) {
  const lines = d.text.split('\n');
  const end = pos(lines.length - 1, lines[lines.length - 1].length);
  notify('$/lean/fileProgress', { textDocument: { uri, version }, processing: [{ range: { start: pos(fromLine, 0), end }, kind }] });
}

const STEP_TABLE = /^\s*-- step: (.*) => (.*?)\s*$/;
const TACTIC_LINE = /^(exact|apply|refine|rw|rewrite|simp|simp_all|grind)\b/;
const WRAP = /^set_option maxHeartbeats (\d+) in /;

/** The document's step table: step text → outcome (`closes`, `goals: …`, `error: …`, `hangs`, `heavy N`) and extra ms. */
function stepTable(text) {
  const table = new Map();
  for (const l of text.split('\n')) {
    const m = STEP_TABLE.exec(l);
    if (!m) continue;
    const ms = /\s*\(ms: (\d+)\)$/.exec(m[2]);
    table.set(m[1].trim(), { outcome: ms ? m[2].slice(0, ms.index) : m[2], ms: ms ? Number(ms[1]) : 0 });
  }
  return table;
}

/** Each tactic line of a document with a step table: its step, where the step starts, the heartbeats around it, its entry. */
function stepLines(text) {
  const table = stepTable(text);
  if (table.size === 0) return [];
  const out = [];
  text.split('\n').forEach((l, i) => {
    const t = l.trimStart();
    if (!t || t.startsWith('--') || DECL.test(l)) return;
    let at = l.length - t.length;
    let step = t.trimEnd();
    const w = WRAP.exec(step);
    let heartbeats;
    if (w) {
      heartbeats = Number(w[1]);
      at += w[0].length;
      step = step.slice(w[0].length);
    }
    const entry = table.get(step);
    // a tactic with nothing after it yet (`exact `, `rw [`) is being typed: no verdict
    const complete = TACTIC_LINE.test(step) && /^\S+\s+\S/.test(step) && !/\[[^\]]*$/.test(step);
    if (entry || complete) out.push({ line: i, at, step, heartbeats, entry });
  });
  return out;
}

/** What elaborating a step line gives: {closes} | {goals} | {error} | {hangs}, and its extra ms. */
function stepVerdict(s) {
  const e = s.entry;
  if (!e) {
    const tac = TACTIC_LINE.exec(s.step)[1];
    const term = s.step.slice(tac.length).trim();
    const message = tac === 'rw' || tac === 'rewrite'
      ? "tactic 'rewrite' failed, did not find instance of the pattern in the target expression\n  " + term.replace(/^\[|\]$/g, '')
      : tac.startsWith('simp') ? 'simp made no progress'
      : tac === 'grind' ? '`grind` failed'
      : `type mismatch\n  ${term}\nhas type\n  ?m\nbut is expected to have type\n  the goal`;
    return { error: message, ms: 0 };
  }
  const o = e.outcome;
  if (o === 'closes') return { closes: true, ms: e.ms };
  if (o === 'hangs') return { hangs: true, ms: e.ms };
  if (o.startsWith('goals:')) return { goals: o.slice(6).trim().split(' ||| ').map((g) => g.replace(/\\n/g, '\n')), ms: e.ms };
  if (o.startsWith('error:')) return { error: o.slice(6).trim().replace(/\\n/g, '\n'), ms: e.ms };
  const heavy = /^heavy (\d+)$/.exec(o);
  if (heavy) {
    if (s.heartbeats !== undefined && s.heartbeats < Number(heavy[1])) {
      return { error: `(deterministic) timeout at \`whnf\`, maximum number of heartbeats (${s.heartbeats}) has been reached\nUse \`set_option maxHeartbeats <num>\` to set the limit.`, ms: e.ms };
    }
    return { closes: true, ms: e.ms };
  }
  return { error: `fake lean: unreadable step outcome ${o}`, ms: 0 };
}

/** The step line's verdict at `line`, if that line is a step of a document with a step table. */
function verdictAt(text, line) {
  const s = stepLines(text).find((x) => x.line === line);
  return s ? stepVerdict(s) : undefined;
}

/** The `by` that opens the proof `line` is in: its line and column. */
function byAbove(lines, line) {
  for (let i = line; i >= 0; i--) {
    const c = lines[i].lastIndexOf(':= by');
    if (c >= 0) return { line: i, character: c + 3 };
    if (i !== line && DECL.test(lines[i])) return undefined;
  }
  return undefined;
}

/** Is `line` the last step of its proof (nothing but blank lines and comments before the next declaration)? */
function lastStep(lines, line) {
  for (let i = line + 1; i < lines.length; i++) {
    const t = lines[i].trim();
    if (!t || t.startsWith('--')) continue;
    return DECL.test(lines[i]);
  }
  return true;
}

function stepDiagnostics(text) {
  const lines = text.split('\n');
  const out = [];
  for (const s of stepLines(text)) {
    const v = stepVerdict(s);
    if (v.error) {
      // the error is on the step's term (after the tactic), fullRange the same
      const kw = /^\S+\s*/.exec(s.step)[0].length;
      const range = { start: pos(s.line, s.at + kw), end: pos(s.line, lines[s.line].length) };
      out.push({ source: 'Lean 4', severity: 1, range, fullRange: range, message: v.error });
    } else if (v.goals && lastStep(lines, s.line)) {
      // Lean reports what is left at the `by` that opened the proof, fullRange over the whole block
      const by = byAbove(lines, s.line);
      if (!by) continue;
      const range = { start: pos(by.line, by.character), end: pos(by.line, by.character + 2) };
      const fullRange = { start: range.start, end: pos(s.line, lines[s.line].length) };
      out.push({ source: 'Lean 4', severity: 1, range, fullRange, message: 'unsolved goals\n' + v.goals.join('\n\n') });
    }
  }
  return out;
}

function diagnostics(d) {
  const out = stepDiagnostics(d.text);
  d.text.split('\n').forEach((l, i) => {
    const at = l.indexOf('sorry');
    if (at < 0 || l.trimStart().startsWith('--')) return;
    const range = { start: pos(i, at), end: pos(i, at + 5) };
    out.push({ source: 'Lean 4', severity: 2, range, fullRange: range, message: "declaration uses 'sorry'" });
  });
  return out;
}

function elaborate(uri) {
  const d = docs.get(uri);
  if (!d) return;
  const lines = d.text.split('\n').length;
  d.processing = true;
  const version = d.version;
  progress(d, uri, version, 0);
  const steps = stepLines(d.text).map((s) => ({ s, v: stepVerdict(s) }));
  const extra = steps.reduce((a, x) => a + (x.v.ms ?? 0), 0);
  const ms = Number(/-- elab-ms: (\d+)/.exec(d.text)?.[1] ?? process.env.FAKE_ELAB_MS ?? 20) + extra;
  clearTimeout(d.timer);
  clearTimeout(d.midTimer);
  const hang = steps.find((x) => x.v.hangs);
  if (hang) {
    // elaboration stops at that step for good: progress stays there, no diagnostics, no `[]`
    d.midTimer = setTimeout(() => {
      if (!hung && docs.get(uri) === d && d.version === version) progress(d, uri, version, hang.s.line);
    }, ms / 2);
    return;
  }
  d.midTimer = setTimeout(() => {
    if (!hung && docs.get(uri) === d && d.version === version && d.processing) progress(d, uri, version, Math.floor(lines / 2));
  }, ms / 2);
  d.timer = setTimeout(() => {
    if (hung || docs.get(uri) !== d || d.version !== version) return;
    d.processing = false;
    if (d.text.includes('-- fatal')) progress(d, uri, version, 0, 2);
    else notify('$/lean/fileProgress', { textDocument: { uri, version }, processing: [] });
    notify('textDocument/publishDiagnostics', { uri, version, diagnostics: diagnostics(d) });
    if (d.text.includes('-- refresh')) request(serverReqId++, 'workspace/semanticTokens/refresh', null);
    for (const w of d.waiting ?? []) {
      const run = w.onDone;
      w.onDone = undefined;
      run?.();
    }
    // waitForDiagnostics: answered once its version is elaborated (after the diagnostics above)
    const ready = (d.diagWaiters ?? []).filter((w) => w.version <= d.version);
    d.diagWaiters = (d.diagWaiters ?? []).filter((w) => w.version > d.version);
    for (const w of ready) {
      diagWaits.delete(JSON.stringify(w.id));
      reply(w.id, {});
    }
  }, ms);
}

/** An edit cancels what waits for the old version: −32801 "File changed." */
function fileChanged(d) {
  const waiting = d.waiting ?? [];
  d.waiting = [];
  for (const w of waiting) {
    w.cancel?.();
    replyError(w.id, -32801, 'File changed.');
  }
}

function goalReply(d, pos) {
  if (lineOf(d.text, pos.line).includes('-- nogoals')) return { goals: [], rendered: 'no goals' };
  // a step of the table: the goals after it
  const v = verdictAt(d.text, pos.line);
  if (v?.closes) return { goals: [], rendered: 'no goals' };
  if (v?.goals) return { goals: v.goals, rendered: v.goals.map((g) => '```lean\n' + g + '\n```').join('\n---\n') };
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
      if (process.env.FAKE_NEVER_INIT) return;
      return later(id, Number(process.env.FAKE_INIT_DELAY_MS ?? 0), () => reply(id, { capabilities: CAPABILITIES, serverInfo: { name: 'Lean 4 Server', version: '0.3.0' } }));
    case 'initialized':
      // FAKE_BAD_REGISTRATION: also a registration whose `registrations` is not a list (garbage)
      if (process.env.FAKE_BAD_REGISTRATION) request('bad_registration', 'client/registerCapability', { registrations: 'lean_watcher' });
      return request('register_lean_watcher', 'client/registerCapability', {
        registrations: [{ id: 'lean_watcher', method: 'workspace/didChangeWatchedFiles', registerOptions: { watchers: [{ globPattern: '**/*.lean' }, { globPattern: '**/*.ilean' }] } }],
      });
    case 'textDocument/didOpen':
      docs.open(params);
      return elaborate(params.textDocument.uri);
    case 'textDocument/didChange': {
      const changed = docs.change(params);
      if (changed) fileChanged(changed);
      return elaborate(params.textDocument.uri);
    }
    case 'textDocument/didClose':
      return docs.close(params);
    case '$/cancelRequest': {
      const key = JSON.stringify(params.id);
      const waitingDoc = diagWaits.get(key);
      if (waitingDoc) {
        diagWaits.delete(key);
        waitingDoc.diagWaiters = (waitingDoc.diagWaiters ?? []).filter((w) => JSON.stringify(w.id) !== key);
        return replyError(params.id, -32800, '');
      }
      if (pending.has(key)) {
        clearTimeout(pending.get(key));
        pending.delete(key);
        for (const doc of docs.map.values()) doc.waiting = (doc.waiting ?? []).filter((w) => JSON.stringify(w.id) !== key);
        replyError(params.id, -32800, '');
      }
      return;
    }
    case 'shutdown':
      shutDown = true;
      return reply(id, null);
    case 'exit':
      return process.exit(0);
    case 'fake/flood':
      return flood(params);
    case 'fake/report':
      return appendFileSync(params.file, `${outputTaken}\n`);
    case 'fake/stall': {
      process.stdin.pause();
      const alive = setInterval(() => {}, 1 << 30); // a paused stdin would let the process end
      process.once('SIGUSR1', () => {
        clearInterval(alive);
        process.stdin.resume();
      });
      return notify('fake/stalled', { pid: process.pid });
    }
    case 'fake/junk':
      junk += 1;
      return;
    case 'fake/tally':
      return notify('fake/tally', { junk });
  }
  if (!isRequest) return; // other notifications are ignored
  if (shutDown) return replyError(id, -32600, "Request received after 'shutdown' request.");
  switch (method) {
    case '$/lean/plainGoal': {
      if (!d) return replyError(id, -32602, `Cannot process request to closed file '${params.textDocument.uri}'`);
      if (checkTriggers(d, params.position)) return;
      // Lean answers once elaboration has reached the position (here: when it is done);
      // an edit before the reply gives −32801 "File changed.", `$/cancelRequest` −32800.
      const delay = Number(/-- goal-delay-ms: (\d+)/.exec(d.text)?.[1] ?? 0);
      const key = JSON.stringify(id);
      const entry = { id };
      (d.waiting ??= []).push(entry);
      const finish = () => {
        d.waiting = (d.waiting ?? []).filter((w) => w !== entry);
        pending.delete(key);
        if (!hung) reply(id, goalReply(d, params.position));
      };
      const afterElab = () => (delay ? pending.set(key, setTimeout(finish, delay)) : finish());
      entry.cancel = () => {
        clearTimeout(pending.get(key));
        pending.delete(key);
      };
      if (!d.processing) return afterElab();
      entry.onDone = afterElab;
      pending.set(key, undefined);
      return;
    }
    case '$/lean/plainTermGoal': {
      if (!d) return replyError(id, -32602, 'closed file');
      const m = annotationAbove(d.text, params.position.line, /-- termgoal:\s*(.*)$/, DECL);
      if (!m) return reply(id, null);
      // the goal carries the hypotheses and `⊢ `; the range is the term's, not the cursor's
      const goal = m[1].replace(/\\n/g, '\n');
      const w = wordAt(d.text, params.position);
      const range = w ? { start: pos(params.position.line, w.start), end: pos(params.position.line, w.end) } : { start: params.position, end: params.position };
      return reply(id, { range, goal: goal.includes('⊢') ? goal : '⊢ ' + goal });
    }
    case 'textDocument/completion': {
      if (d && checkTriggers(d, params.position)) return;
      const { uri } = params.textDocument;
      const { line, character } = params.position;
      // data: [module name («external:<uri>» outside a package), line, character, cPos, "c<declaration>"];
      // sortText: the index, zero-padded to the width of the last one
      const labels = ['Nat.succ', 'Nat.zero', 'Nat.rec'];
      const width = String(labels.length - 1).length;
      const items = labels.map((label, i) => ({ label, kind: 3, sortText: String(i).padStart(width, '0'), data: [`«external:${uri}»`, line, character, 0, 'c' + label] }));
      return reply(id, { isIncomplete: false, items });
    }
    case 'completionItem/resolve': {
      const data = params?.data;
      if (!Array.isArray(data) || data.length < 3 || typeof data[0] !== 'string' || typeof data[1] !== 'number' || typeof data[2] !== 'number') {
        return replyError(id, -32602, 'Cannot parse request params: expected completion item data [module, line, character, …]');
      }
      return reply(id, { ...params, detail: `resolved by fake lean (${params.label})` });
    }
    case 'textDocument/codeAction': {
      if (d && checkTriggers(d, params.range.start)) return;
      // "Try this" actions are eager (the edit is there at once); every action carries data
      const uri = params.textDocument.uri;
      const edit = { documentChanges: [{ textDocument: { version: d?.version ?? null, uri }, edits: [{ range: params.range, newText: 'simp' }] }] };
      return reply(id, [{ title: 'Try this: simp', kind: 'quickfix', isPreferred: true, edit, data: { providerResultIndex: 0, providerName: TRY_THIS, params } }]);
    }
    case 'codeAction/resolve': {
      const data = params?.data;
      if (!data || typeof data.providerName !== 'string') return replyError(id, -32602, 'Cannot parse code action data');
      if (params.edit) return reply(id, params); // eager: returned as it is
      const p = data.params;
      const { data: _lazy, ...rest } = params; // a lazily resolved action comes back without data
      return reply(id, { ...rest, edit: { documentChanges: [{ textDocument: { version: docs.get(p.textDocument.uri)?.version ?? null, uri: p.textDocument.uri }, edits: [{ range: p.range, newText: 'simp' }] }] } });
    }
    case 'textDocument/hover': {
      if (!d) return reply(id, null);
      if (checkTriggers(d, params.position)) return;
      const w = wordAt(d.text, params.position);
      if (!w) return reply(id, null);
      // imported constants get their module under a `***` rule; the file's own do not
      const value = '```lean\n' + w.word + ' : Prop\n```' + (w.word.includes('.') ? '\n***\n*import Init.Prelude*' : '');
      return reply(id, { range: { start: pos(params.position.line, w.start), end: pos(params.position.line, w.end) }, contents: { value, kind: 'markdown' } });
    }
    case '$/lean/rpc/connect':
      return reply(id, { sessionId: String(++rpcSessions) });
    case 'textDocument/definition':
      return reply(id, null);
    case 'textDocument/documentSymbol':
      return reply(id, []);
    case 'textDocument/waitForDiagnostics': {
      const w = docs.get(params?.uri);
      if (!w) return replyError(id, -32602, `Cannot process request to closed file '${params?.uri}'`);
      if (!w.processing && w.version >= params.version) return reply(id, {});
      (w.diagWaiters ??= []).push({ id, version: params.version });
      diagWaits.set(JSON.stringify(id), w);
      return;
    }
    case 'fake/documents':
      return reply(id, Object.fromEntries([...docs.map.entries()].map(([u, x]) => [u, { text: x.text, version: x.version }])));
    default:
      return replyError(id, -32601, `No request handler found for '${method}'`);
  }
});
