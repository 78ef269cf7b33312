/**
 * Trials (docs/trials.md) in front of the fake Lean, whose step table in
 * test/fixtures/lsp/Trials.lean says what each step does: the verified step first
 * (command, code action, completion, hover), a failing one never marked, nothing of
 * a trial reaching the editor, the user's edits winning, a hung trial abandoned, and
 * 10 seeded random interleavings of edits, trials and cancellations that end with
 * the prover holding the editor's text byte for byte.
 */
import { join } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { afterEach, describe, expect, it } from 'vitest';
import { Editor, FAKE_ISABELLE, FAKE_LEAN, FIXTURES, fixture, posOf, readTranscript, tempFile, type Msg } from './harness.js';

const PREMISES = join(FIXTURES, 'trial-premises.json');
const SHADOW = '__premise_trial';

const editors: Editor[] = [];
afterEach(() => {
  for (const e of editors.splice(0)) e.kill();
});

async function start(trials: Record<string, unknown> = {}, settings: Record<string, unknown> = {}) {
  const log = tempFile('lean.jsonl');
  const e = Editor.proxy([process.execPath, FAKE_LEAN], { env: { FAKE_TRANSCRIPT: log }, engine: PREMISES });
  editors.push(e);
  await e.initialize({ 'premise-lsp': { liveIndex: false, trials: { keepOpenMs: 0, timeoutMs: 5000, ...trials }, ...settings } });
  return { e, prover: () => readTranscript(log) };
}

async function openTrials(e: Editor, transform: (t: string) => string = (t) => t) {
  const f = fixture('Trials.lean');
  const text = transform(f.text);
  const ready = e.notification('$/lean/fileProgress', (p) => p.textDocument.uri === f.uri && p.processing.length === 0);
  e.open(f.uri, text);
  await ready;
  return { uri: f.uri, text };
}

const tryAt = (e: Editor, uri: string, position: unknown, extra: Record<string, unknown> = {}, id?: number) =>
  e.request('workspace/executeCommand', { command: 'premise-lsp.try', arguments: [{ textDocument: { uri }, position, ...extra }] }, id);

/** Messages the editor received that name a trial document anywhere. */
const leaked = (e: Editor) => e.received.filter((m) => JSON.stringify(m).includes(SHADOW));

describe('premise-lsp.try', () => {
  it('puts `exact add_comm a b` first, closing the goal, and never marks a failing step', async () => {
    const { e } = await start();
    const { uri, text } = await openTrials(e);
    const at = posOf(text, '  exact ', 8);
    const r = await tryAt(e, uri, at);
    expect(r.error).toBeUndefined();
    const results: any[] = r.result.results;
    expect(results[0]).toEqual({ step: 'exact add_comm a b', premise: 'add_comm', outcome: 'closes' });
    const failing = results.find((x) => x.step === 'exact mul_comm a b' || x.step === 'exact mul_comm');
    expect(failing.outcome).toBe('fails');
    expect(results.find((x) => x.step === 'exact mul_comm').message).toMatch(/^type mismatch/);
    // best first: every closing step before every failing one
    const order = results.map((x) => x.outcome);
    expect(order.lastIndexOf('closes')).toBeLessThan(order.indexOf('fails'));

    const actions = await e.request('textDocument/codeAction', { textDocument: { uri }, range: { start: at, end: at }, context: { diagnostics: [] } });
    const titles: string[] = actions.result.map((a: any) => a.title);
    expect(titles[0]).toBe('✓ exact add_comm a b — closes the goal');
    expect(actions.result[0].isPreferred).toBe(true);
    expect(actions.result[0].edit.documentChanges[0].edits).toEqual([{ range: { start: { line: at.line, character: 2 }, end: { line: at.line, character: 8 } }, newText: 'exact add_comm a b' }]);
    expect(titles.some((t) => t.includes('mul_comm') && (t.startsWith('✓') || t.includes('makes progress')))).toBe(false);
    expect(leaked(e)).toEqual([]);
  });

  it('gives the verdict in completion items and hovers', async () => {
    const { e } = await start();
    const { uri, text } = await openTrials(e);
    const at = posOf(text, '  exact ', 8);
    await tryAt(e, uri, at);
    const c = await e.request('textDocument/completion', { textDocument: { uri }, position: at, context: { triggerKind: 1 } });
    const ours = c.result.items.filter((i: any) => i.data?.['premise-lsp']);
    expect(ours[0].label).toBe('add_comm');
    expect(ours[0].detail).toBe('✓ closes the goal: exact add_comm a b');
    // before Lean's own items once sorted
    const sorted = [...c.result.items].sort((x: any, y: any) => (x.sortText < y.sortText ? -1 : 1));
    expect(sorted[0].label).toBe('add_comm');
    expect(ours.find((i: any) => i.label === 'mul_comm')?.detail ?? '').not.toContain('✓');
    // hover on the premise's name anywhere in the same version of the document
    const h = await e.request('textDocument/hover', { textDocument: { uri }, position: posOf(text, 'exact add_comm a b', 7) });
    expect(h.result.contents.value).toContain(`✓ \`exact add_comm a b\` closes the goal at line ${at.line + 1} (checked by Lean)`);
    const m = await e.request('textDocument/hover', { textDocument: { uri }, position: posOf(text, 'exact mul_comm a b', 7) });
    expect(m.result.contents.value).not.toContain('checked by Lean');
  });

  it('abandons a hung trial at its wall-clock limit, reads a heartbeat error as timeout, and closes the trial document', async () => {
    const { e, prover } = await start({ timeoutMs: 400 });
    const { uri, text } = await openTrials(e);
    const at = posOf(text, '  exact ', 8);
    const r = await tryAt(e, uri, at, { premises: ['add_comm'], tactics: ['simp'] });
    expect(r.result.results).toEqual([expect.objectContaining({ step: 'simp [add_comm]', outcome: 'timeout' })]);
    const waitOf = () => prover().find((x) => x.dir === 'in' && x.msg.method === 'textDocument/waitForDiagnostics')?.msg;
    // the reply to the editor may come before the fake prover has read what followed it: wait for it to read them
    await proverGot(prover, (m) => m.method === '$/cancelRequest' && m.params.id === waitOf()?.id);
    await proverGot(prover, (m) => m.method === 'textDocument/didClose' && m.params.textDocument.uri.includes(SHADOW));
    const sent = prover().filter((x) => x.dir === 'in').map((x) => x.msg);
    const wait = waitOf()!;
    expect(sent.some((m) => m.method === '$/cancelRequest' && m.params.id === wait.id)).toBe(true);
    // a timed-out trial document is closed at once (Lean may still be busy with it)
    const close = sent.findIndex((m) => m.method === 'textDocument/didClose' && m.params.textDocument.uri.includes(SHADOW));
    expect(close).toBeGreaterThan(sent.indexOf(wait));
    const docs = await e.request('fake/documents', {});
    expect(Object.keys(docs.result)).toEqual([uri]);
    expect(leaked(e)).toEqual([]);
  });

  it('reads a heartbeat-limit error on the step as timeout', async () => {
    const { e } = await start({ heartbeats: 1000 });
    const { uri, text } = await openTrials(e);
    const at = posOf(text, '⊢ m ≤ n\n', '⊢ m ≤ n\n'.length + 2);
    const r = await tryAt(e, uri, at, { premises: ['Nat.le_of_lt_succ', 'Nat.lt_irrefl', 'add_comm'], tactics: ['grind', 'apply'] });
    const grind = r.result.results.find((x: any) => x.step.startsWith('grind'));
    expect(grind).toMatchObject({ step: 'grind [Nat.le_of_lt_succ, Nat.lt_irrefl, add_comm]', outcome: 'timeout' });
    expect(grind.message).toContain('maximum number of heartbeats (1000)');
    const apply = r.result.results.find((x: any) => x.step === 'apply Nat.le_of_lt_succ');
    expect(apply).toEqual({ step: 'apply Nat.le_of_lt_succ', premise: 'Nat.le_of_lt_succ', outcome: 'progress', goals: ['m n : ℕ\nh : m < n + 1\n⊢ m < n + 1'] });
  });
});

/** Resolves once the fake Lean has received a message matching `pred` (it records everything it reads). */
async function proverGot(prover: () => { dir: string; msg: Msg }[], pred: (m: Msg) => boolean) {
  for (let i = 0; i < 500; i++) {
    if (prover().some((x) => x.dir === 'in' && pred(x.msg))) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the prover never got the message');
}

const shadowOpened = (m: Msg) => m.method === 'textDocument/didOpen' && m.params.textDocument.uri.includes(SHADOW);

describe('trials and the editor', () => {
  it("a user's edit during a trial stops it: the command says so, and the prover holds the editor's text at the editor's versions", async () => {
    const { e, prover } = await start();
    // this step takes 400 ms more to elaborate: the edit comes while Lean is at it
    const { uri, text } = await openTrials(e, (t) => t + '-- step: exact add_comm a b => closes (ms: 400)\n');
    const pending = tryAt(e, uri, posOf(text, '  exact ', 8));
    await proverGot(prover, shadowOpened);
    const change = { range: { start: posOf(text, 'theorem le_example'), end: posOf(text, 'theorem le_example') }, text: '-- typed\n' };
    e.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [change] });
    const r = await pending;
    expect(r.error?.code).toBe(-32801);
    const sent = prover().filter((x) => x.dir === 'in').map((x) => x.msg);
    const waits = sent.filter((m) => m.method === 'textDocument/waitForDiagnostics').map((m) => m.id);
    expect(sent.some((m) => m.method === '$/cancelRequest' && waits.includes(m.params.id))).toBe(true);
    // the user's document: only what the editor sent, as it sent it
    const mine = sent.filter((m) => m.params?.textDocument?.uri === uri && /didOpen|didChange/.test(m.method ?? ''));
    expect(mine.map((m) => m.params.textDocument.version)).toEqual([1, 2]);
    const docs = await e.request('fake/documents', {});
    expect(docs.result[uri].text).toBe(TextDocument.applyEdits(TextDocument.create(uri, 'lean', 1, text), [{ range: change.range, newText: change.text }]));
    expect(leaked(e)).toEqual([]);
  });

  it('runs one trial at a time however many are asked for, with at most one trial document open', async () => {
    const { e, prover } = await start({ timeoutMs: 1000 });
    const { uri, text } = await openTrials(e);
    // two documents' worth of requests at once: the second file's trials wait for the first's
    const other = uri.replace('Trials.lean', 'Other.lean');
    e.open(other, text);
    const replies = await Promise.all([
      tryAt(e, uri, posOf(text, '  exact ', 8)),
      tryAt(e, other, posOf(text, '  exact ', 8)),
      tryAt(e, uri, posOf(text, '⊢ m ≤ n\n', '⊢ m ≤ n\n'.length + 2)),
    ]);
    for (const r of replies) expect(r.error).toBeUndefined();
    // Lean's waits (answered, or cancelled at the time limit: the table's `simp [add_comm]` hangs) never overlap
    const waiting = new Set<unknown>();
    let open = 0;
    for (const { dir, msg } of prover()) {
      if (dir === 'in' && msg.method === 'textDocument/waitForDiagnostics') waiting.add(msg.id);
      if (dir === 'out' && msg.method === undefined) waiting.delete(msg.id);
      expect(waiting.size).toBeLessThanOrEqual(1);
      if (dir === 'in' && shadowOpened(msg)) open += 1;
      if (dir === 'in' && msg.method === 'textDocument/didClose' && msg.params.textDocument.uri.includes(SHADOW)) open -= 1;
      expect(open).toBeLessThanOrEqual(1);
    }
    expect(prover().filter((x) => x.dir === 'in' && x.msg.method === 'textDocument/waitForDiagnostics').length).toBeGreaterThan(3);
  });

  it('keeps the trial document open between batches, and closes it when the user closes the file or switches trials off', async () => {
    const { e } = await start({ keepOpenMs: 600_000 });
    const { uri, text } = await openTrials(e);
    const at = posOf(text, '  exact ', 8);
    const open = async () => Object.keys((await e.request('fake/documents', {})).result).sort();
    await tryAt(e, uri, at, { tactics: ['exact'] });
    expect(await open()).toEqual([uri, uri.replace('.lean', `${SHADOW}.lean`)].sort());
    e.notify('workspace/didChangeConfiguration', { settings: { 'premise-lsp': { trials: 'off' } } });
    expect(await open()).toEqual([uri]);
    e.notify('workspace/didChangeConfiguration', { settings: { 'premise-lsp': { trials: 'on request' } } });
    await tryAt(e, uri, at, { tactics: ['exact'] });
    expect(await open()).toHaveLength(2);
    e.notify('textDocument/didClose', { textDocument: { uri } });
    expect(await open()).toEqual([]);
  });

  it('reports progress while trials run', async () => {
    const { e } = await start();
    const { uri, text } = await openTrials(e);
    await tryAt(e, uri, posOf(text, '  exact ', 8));
    const progress = e.received.filter((m) => m.method === '$/progress').map((m) => m.params.value);
    expect(progress[0]).toMatchObject({ kind: 'begin', title: expect.stringMatching(/^premise-lsp: trying \d+ steps$/) });
    expect(progress.some((v) => v.kind === 'report' && v.message.includes('exact add_comm a b — closes'))).toBe(true);
    expect(progress.at(-1)).toMatchObject({ kind: 'end' });
  });

  it('`auto` tries the place of a code action in the background; a later code action shows the verdict', async () => {
    const { e, prover } = await start({ mode: 'auto' });
    const { uri, text } = await openTrials(e);
    const at = posOf(text, '  exact ', 8);
    const ask = () => e.request('textDocument/codeAction', { textDocument: { uri }, range: { start: at, end: at }, context: { diagnostics: [] } });
    const first = await ask();
    expect(first.result[0].title.startsWith('✓')).toBe(false);
    await proverGot(prover, shadowOpened);
    let titles: string[] = [];
    for (let i = 0; i < 200 && !titles[0]?.startsWith('✓'); i++) {
      await new Promise((r) => setTimeout(r, 25));
      titles = (await ask()).result.map((a: any) => a.title);
    }
    expect(titles[0]).toBe('✓ exact add_comm a b — closes the goal');
  });

  it('`auto` runs one batch for a place however often the editor asks there', async () => {
    const { e, prover } = await start({ mode: 'auto' });
    const { uri, text } = await openTrials(e);
    const at = posOf(text, '  exact ', 8);
    const ask = () => e.request('textDocument/codeAction', { textDocument: { uri }, range: { start: at, end: at }, context: { diagnostics: [] } });
    await Promise.all([ask(), ask(), ask(), e.request('$/lean/plainGoal', { textDocument: { uri }, position: at })]);
    let titles: string[] = [];
    for (let i = 0; i < 200 && !titles[0]?.startsWith('✓'); i++) {
      await new Promise((r) => setTimeout(r, 25));
      titles = (await ask()).result.map((a: any) => a.title);
    }
    const waits = () => prover().filter((x) => x.dir === 'in' && x.msg.method === 'textDocument/waitForDiagnostics').length;
    const background = waits();
    // the command runs the same batch once more: as many trials as the background ran, in all
    const r = await tryAt(e, uri, at);
    expect(waits()).toBe(background + r.result.results.length);
    expect(background).toBe(r.result.results.length);
  });

  it('`auto` also tries where the editor asks the goal (the cursor rests there), and the goal request reaches Lean unchanged', async () => {
    const { e, prover } = await start({ mode: 'auto' });
    const { uri, text } = await openTrials(e);
    const at = posOf(text, '  exact ', 8);
    const goal = await e.request('$/lean/plainGoal', { textDocument: { uri }, position: at }, 'editor-goal-1');
    expect(goal.result.goals).toEqual(['a b : ℕ\n⊢ a + b = b + a']);
    expect(prover().some((x) => x.dir === 'in' && x.msg.id === 'editor-goal-1')).toBe(true);
    await proverGot(prover, shadowOpened);
    let titles: string[] = [];
    for (let i = 0; i < 200 && !titles[0]?.startsWith('✓'); i++) {
      await new Promise((r) => setTimeout(r, 25));
      titles = (await e.request('textDocument/codeAction', { textDocument: { uri }, range: { start: at, end: at }, context: { diagnostics: [] } })).result.map((a: any) => a.title);
    }
    expect(titles[0]).toBe('✓ exact add_comm a b — closes the goal');
  });

  it('`off`: the command says trials are off, and code actions start none', async () => {
    const { e, prover } = await start({ mode: 'off' });
    const { uri, text } = await openTrials(e);
    const at = posOf(text, '  exact ', 8);
    const r = await tryAt(e, uri, at);
    expect(r.error?.code).toBe(-32803);
    expect(r.error?.message).toContain('trials are off');
    await e.request('textDocument/codeAction', { textDocument: { uri }, range: { start: at, end: at }, context: { diagnostics: [] } });
    expect(prover().some((x) => x.dir === 'in' && shadowOpened(x.msg))).toBe(false);
  });

  it('Isabelle: the command says trials need the Lean server, and Isabelle is asked nothing for it', async () => {
    const log = tempFile('isabelle.jsonl');
    const e = Editor.proxy([process.execPath, FAKE_ISABELLE], { env: { FAKE_TRANSCRIPT: log } });
    editors.push(e);
    await e.initialize({ 'premise-lsp': { liveIndex: false } });
    const f = fixture('Demo.thy');
    e.open(f.uri, f.text, 'isabelle');
    const r = await tryAt(e, f.uri, { line: 1, character: 0 });
    expect(r.error?.code).toBe(-32803);
    expect(r.error?.message).toContain('trials need the Lean server');
    expect(readTranscript(log).some((x) => x.dir === 'in' && JSON.stringify(x.msg).includes(SHADOW))).toBe(false);
  });

  it('a prover that dies during a trial fails the command (no verdict); the restarted one gets the trials afresh', async () => {
    const { e, prover } = await start();
    // the fake Lean exits at any request on a line holding CRASH: the goals after this step are never given
    const { uri, text } = await openTrials(e, (t) => t + '-- step: exact CRASH => closes\n');
    const at = posOf(text, '  exact ', 8);
    const r = await tryAt(e, uri, at, { premises: ['CRASH'], tactics: ['exact'] });
    expect(r.error?.code).toBe(-32803);
    await e.notification('$/lean/fileProgress', (p) => p.textDocument.uri === uri && p.processing.length === 0);
    const again = await tryAt(e, uri, at);
    expect(again.result.results[0]).toEqual({ step: 'exact add_comm a b', premise: 'add_comm', outcome: 'closes' });
    // the second prover was sent the trial document anew
    const starts = prover().filter((x: any) => x.event === undefined && x.dir === 'in' && shadowOpened(x.msg));
    expect(starts.length).toBeGreaterThanOrEqual(2);
    expect(leaked(e)).toEqual([]);
  });

  it('refuses bad arguments with InvalidParams', async () => {
    const { e } = await start();
    await openTrials(e);
    for (const args of [[], [{}], [{ textDocument: { uri: 'file:///x.lean' } }], [{ textDocument: { uri: 1 }, position: { line: 0, character: 0 } }], [{ textDocument: { uri: 'file:///nope.lean' }, position: { line: 0, character: 0 } }], [{ textDocument: { uri: 'file:///x.lean' }, position: { line: 0, character: 0 }, premises: 'add_comm' }]]) {
      const r = await e.request('workspace/executeCommand', { command: 'premise-lsp.try', arguments: args });
      expect(r.error?.code).toBe(-32602);
    }
  });
});

/** Mulberry32: a small seeded generator, so a failing interleaving can be run again. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('randomized interleavings of edits, trials and cancellations', () => {
  const tally = { answered: 0, stopped: 0, cancelled: 0 };
  const PIECES = ['a', ' ', 'ℕ', '⊢', '𝔽', '\n', 'exact ', '-- x'];
  for (let seed = 1; seed <= 10; seed++) {
    it(`seed ${seed}: the prover ends with the editor's text byte for byte, and no trial diagnostic reaches the editor`, async () => {
      const rand = rng(seed);
      const pick = <T,>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
      const { e, prover } = await start({ timeoutMs: 2000 });
      const { uri, text } = await openTrials(e, (t) => '-- elab-ms: 15\n' + t + '-- scratch: \n');
      let doc = TextDocument.create(uri, 'lean', 1, text);
      let version = 1;
      const sentVersions = [1];
      const tries: Array<{ id: number; reply: Promise<Msg> }> = [];
      let nextId = 1000 * seed;
      for (let step = 0; step < 20; step++) {
        const r = rand();
        const now = doc.getText();
        if (r < 0.35) {
          // an edit in the scratch line at the end (insert or delete), now and then one at the top (every line moves)
          const scratch = now.lastIndexOf('-- scratch: ') + '-- scratch: '.length;
          const lineEnd = now.indexOf('\n', scratch) < 0 ? now.length : now.indexOf('\n', scratch);
          let change;
          if (rand() < 0.2) change = { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '-- moved\n' };
          else if (rand() < 0.7 || lineEnd === scratch) {
            const at = doc.positionAt(scratch + Math.floor(rand() * (lineEnd - scratch + 1)));
            change = { range: { start: at, end: at }, text: pick(PIECES).replace('\n', ' ') };
          } else {
            const from = scratch + Math.floor(rand() * (lineEnd - scratch));
            change = { range: { start: doc.positionAt(from), end: doc.positionAt(Math.min(lineEnd, from + 1 + Math.floor(rand() * 3))) }, text: '' };
          }
          // never split a surrogate pair (the editor would not)
          const s = doc.offsetAt(change.range.start);
          const en = doc.offsetAt(change.range.end);
          const t = doc.getText();
          const inPair = (o: number) => o > 0 && o < t.length && t.charCodeAt(o - 1) >= 0xd800 && t.charCodeAt(o - 1) <= 0xdbff;
          if (inPair(s) || inPair(en)) continue;
          version += 1;
          sentVersions.push(version);
          doc = TextDocument.update(doc, [change], version);
          e.notify('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [change] });
        } else if (r < 0.65) {
          const id = nextId++;
          tries.push({ id, reply: tryAt(e, uri, posOf(now, '  exact ', 8), {}, id) });
        } else if (r < 0.75 && tries.length) {
          e.notify('$/cancelRequest', { id: pick(tries).id });
        } else await new Promise((res) => setTimeout(res, Math.floor(rand() * 60)));
      }
      const replies = await Promise.all(tries.map((t) => t.reply));
      tally.answered += replies.filter((r) => !r.error && r.result.results.length > 0).length;
      tally.stopped += replies.filter((r) => r.error?.code === -32801).length;
      tally.cancelled += replies.filter((r) => r.error?.code === -32800).length;
      if (process.env.TRIAL_STATS) console.log(`seed ${seed}: ${tries.length} tries, ${replies.filter((r) => !r.error).length} answered, ${replies.filter((r) => r.error?.code === -32801).length} stopped by edits, ${prover().filter((x) => x.dir === "in" && shadowOpened(x.msg)).length} trial documents opened, ${prover().filter((x) => x.dir === "in" && x.msg.method === "textDocument/waitForDiagnostics").length} trials`);
      for (const r of replies) {
        // a trial either ends, or is stopped by an edit (−32801) or a cancellation (−32800)
        if (r.error) expect([-32801, -32800]).toContain(r.error.code);
        else for (const x of r.result.results) expect(['closes', 'progress', 'fails', 'timeout']).toContain(x.outcome);
      }
      const docs = await e.request('fake/documents', {});
      expect(docs.result[uri].text).toBe(doc.getText());
      expect(docs.result[uri].version).toBe(version);
      // at most the one trial document, and none left open once the trials are over (keepOpenMs 0)
      expect(Object.keys(docs.result)).toEqual([uri]);
      const userVersions = prover()
        .filter((x) => x.dir === 'in' && /didOpen|didChange/.test(x.msg.method ?? '') && x.msg.params.textDocument.uri === uri)
        .map((x) => x.msg.params.textDocument.version);
      expect(userVersions).toEqual(sentVersions);
      expect(leaked(e)).toEqual([]);
      const foreign = e.received.filter((m) => (m.method === 'textDocument/publishDiagnostics' && m.params.uri !== uri) || (m.method === '$/lean/fileProgress' && m.params.textDocument.uri !== uri));
      expect(foreign).toEqual([]);
    });
  }

  it('the ten runs had trials answered, stopped by edits and cancelled (the interleavings are not idle)', () => {
    expect(tally.answered).toBeGreaterThan(0);
    expect(tally.stopped).toBeGreaterThan(0);
    expect(tally.cancelled).toBeGreaterThan(0);
  });
});
