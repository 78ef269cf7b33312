/** The pure parts of trials: candidate steps, the step's place, the verdict, the shadow's smallest change, the settings. */
import { describe, expect, it } from 'vitest';
import type { PremiseInfo } from '../../server/src/engine/types.js';
import { applyConfig, defaultConfig } from '../../server/src/lsp/config.js';
import { buildCandidates, explicitBinders } from '../../server/src/lsp/trials/candidates.js';
import { judge, stepErrors } from '../../server/src/lsp/trials/outcome.js';
import { editText, stepEnd, stepPlace, withStep } from '../../server/src/lsp/trials/place.js';
import { RpcError } from '../../server/src/jsonrpc/messages.js';
import { shadowUri, smallestChange, TrialRunner, type TrialSettings, type TrialUpstream } from '../../server/src/lsp/trials/runner.js';

const premise = (name: string, args: string[], goal: string): PremiseInfo =>
  ({ name, kind: 'theorem', lang: 'lean', module: 'M', file: 'M.lean', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, statement: `theorem ${name}`, args, goal, uses: 0 }) as PremiseInfo;

const addComm = premise('add_comm', ['{G : Type u_1}', '[AddCommMagma G]', '(a b : G)'], 'a + b = b + a');
const leOfLt = premise('Nat.le_of_lt_succ', ['{m n : Nat}', '(h : m < n + 1)'], 'm ≤ n');
const GOAL = 'a b : ℕ\n⊢ a + b = b + a';

describe('candidates', () => {
  it('reads the explicit binders only', () => {
    expect(explicitBinders(addComm.args)).toEqual(['a', 'b']);
    expect(explicitBinders(leOfLt.args)).toEqual(['h']);
    expect(explicitBinders(['⦃x : α⦄', '(f : α → β)', '[inst : Foo]'])).toEqual(['f']);
  });

  it('at `exact `: the arguments bound from the goal first, then the bare name and the holes', () => {
    const steps = buildCandidates([addComm], GOAL, { slotTactic: 'exact' }).map((c) => c.step);
    expect(steps).toEqual(['exact add_comm a b', 'exact add_comm', 'exact add_comm _ _']);
  });

  it('binds compound arguments in parentheses, and leaves a hole where the conclusion says nothing', () => {
    const steps = buildCandidates([addComm], 'x : ℕ\n⊢ x * 2 + 1 = 1 + x * 2', { slotTactic: 'exact' }).map((c) => c.step);
    expect(steps[0]).toBe('exact add_comm (x * 2) 1');
    expect(buildCandidates([leOfLt], 'm n : ℕ\nh : m < n + 1\n⊢ m ≤ n', { slotTactic: 'exact' }).map((c) => c.step)).toEqual(['exact Nat.le_of_lt_succ', 'exact Nat.le_of_lt_succ _']);
  });

  it('follows the slot: `rw [` gives both directions, `simp [` one simp, `apply ` apply', () => {
    expect(buildCandidates([addComm], GOAL, { slotTactic: 'rw' }).map((c) => c.step)).toEqual(['rw [add_comm]', 'rw [← add_comm]']);
    expect(buildCandidates([addComm], GOAL, { slotTactic: 'simp' }).map((c) => c.step)).toEqual(['simp [add_comm]']);
    expect(buildCandidates([addComm], GOAL, { slotTactic: 'apply' }).map((c) => c.step)).toEqual(['apply add_comm']);
    expect(buildCandidates([addComm], GOAL, { slotTactic: 'grind' }).map((c) => c.step)).toEqual(['grind [add_comm]']);
  });

  it('with no slot: every form, then the premises batched into one simp and one grind (kept within max)', () => {
    const c = buildCandidates([addComm, leOfLt], GOAL, { batch: 8, max: 6 });
    expect(c.map((x) => x.step)).toEqual(['exact add_comm a b', 'exact add_comm', 'exact add_comm _ _', 'apply add_comm', 'simp [add_comm, Nat.le_of_lt_succ]', 'grind [add_comm, Nat.le_of_lt_succ]']);
    expect(c[4]!.premises).toEqual(['add_comm', 'Nat.le_of_lt_succ']);
    expect(buildCandidates([addComm, leOfLt], GOAL, { tactics: ['rw'] }).map((x) => x.step)).toEqual(['rw [add_comm]', 'rw [← add_comm]']);
  });

  it('leaves out names Lean would need quoted, and Isabelle premises', () => {
    const odd = premise('weird name', [], 'a = a');
    const isa = { ...premise('conjI', [], 'P ∧ Q'), lang: 'isabelle' } as PremiseInfo;
    expect(buildCandidates([odd, isa], GOAL, { slotTactic: 'exact' })).toEqual([]);
  });
});

describe('the step in place', () => {
  const text = 'theorem t (a b : ℕ) : a + b = b + a := by\n  exact \n\ntheorem u : True := by trivial\n';

  it('replaces the rest of the cursor line from its indentation', () => {
    const place = stepPlace(text, { line: 1, character: 8 })!;
    expect(place).toEqual({ line: 1, start: 2, end: 8, lead: '  ' });
    expect(withStep(text, place, 'exact add_comm a b')).toBe(text.replace('  exact \n', '  exact add_comm a b\n'));
    expect(stepEnd(place, 'exact add_comm a b')).toBe(20);
    expect(editText(place, 'exact add_comm a b')).toBe('exact add_comm a b');
  });

  it('after `by ` on a declaration line the step starts there; the header itself is no step', () => {
    const place = stepPlace(text, { line: 3, character: 30 })!;
    expect(withStep(text, place, 'exact True.intro')).toContain('theorem u : True := by exact True.intro\n');
    expect(stepPlace(text, { line: 0, character: 5 })).toBeUndefined();
    expect(stepPlace('-- a comment\n', { line: 0, character: 3 })).toBeUndefined();
  });

  it('on a blank line the step takes the indentation of the proof', () => {
    const t = 'theorem t : True := by\n\n';
    const place = stepPlace(t, { line: 1, character: 0 })!;
    expect(withStep(t, place, 'trivial')).toBe('theorem t : True := by\n  trivial\n');
    expect(editText(place, 'trivial')).toBe('  trivial');
  });
});

describe('the verdict', () => {
  const err = (line: number, character: number, message: string, severity = 1) => ({ range: { start: { line, character }, end: { line, character: character + 1 } }, severity, message });

  it('an error within the step fails it; errors elsewhere (the unsolved goals at `by`, other lines) do not', () => {
    const diags = [err(0, 38, 'unsolved goals\na b : ℕ\n⊢ b + a = b + a'), err(5, 2, 'unknown identifier'), err(1, 8, "declaration uses 'sorry'", 2)];
    expect(stepErrors(diags, 1, 2, 20)).toEqual([]);
    expect(stepErrors([...diags, err(1, 8, 'type mismatch')], 1, 2, 20).map((d) => d.message)).toEqual(['type mismatch']);
  });

  it('closes only on Lean\'s word: no goals after the step', () => {
    expect(judge([], [])).toEqual({ outcome: 'closes' });
    expect(judge([], ['⊢ b + a = b + a'])).toEqual({ outcome: 'progress', goals: ['⊢ b + a = b + a'] });
    expect(judge([], undefined).outcome).toBe('progress');
    expect(judge([err(1, 2, 'type mismatch')], [])).toEqual({ outcome: 'fails', message: 'type mismatch' });
    expect(judge([err(1, 2, '(deterministic) timeout at `whnf`, maximum number of heartbeats (1000) has been reached')], []).outcome).toBe('timeout');
  });
});

describe('the shadow document', () => {
  it('lives beside the user file under a name of its own', () => {
    expect(shadowUri('file:///p/Foo/Bar.lean')).toBe('file:///p/Foo/Bar__premise_trial.lean');
    expect(shadowUri('untitled:1')).toBe('untitled:1__premise_trial.lean');
  });

  it('is changed by the smallest range, never splitting a surrogate pair', () => {
    const apply = (a: string, c: { start: number; end: number; insert: string }) => a.slice(0, c.start) + c.insert + a.slice(c.end);
    for (const [a, b] of [
      ['  exact foo\n', '  exact add_comm a b\n'],
      ['x𝔽y', 'x𝔾y'],
      ['same', 'same'],
      ['', 'new'],
      ['𝔽𝔽', '𝔽'],
    ] as const) {
      const c = smallestChange(a, b);
      expect(apply(a, c)).toBe(b);
      const hi = (s: string, i: number) => i > 0 && s.charCodeAt(i - 1) >= 0xd800 && s.charCodeAt(i - 1) <= 0xdbff;
      expect(hi(a, c.start) || hi(a, c.end)).toBe(false);
    }
    expect(smallestChange('  exact foo\n', '  exact bar\n')).toEqual({ start: 8, end: 11, insert: 'bar' });
  });
});

describe('settings', () => {
  it('`trials` takes a word or a table, and keeps the previous value on a bad one', () => {
    expect(defaultConfig().trials.mode).toBe('on request');
    expect(applyConfig(defaultConfig(), { trials: 'off' }).config.trials.mode).toBe('off');
    const t = applyConfig(defaultConfig(), { trials: { mode: 'auto', premises: 4, timeoutMs: 2000, heartbeats: 0 } });
    expect(t.config.trials).toMatchObject({ mode: 'auto', premises: 4, timeoutMs: 2000, heartbeats: 0 });
    expect(t.changed).toEqual(['trials.mode', 'trials.premises', 'trials.timeoutMs', 'trials.heartbeats']);
    const bad = applyConfig(defaultConfig(), { trials: { mode: 'sometimes', premises: 0 } });
    expect(bad.config.trials).toEqual(defaultConfig().trials);
    expect(bad.errors).toHaveLength(2);
  });
});

/** A Lean stand-in for the runner: every version elaborates at once; `verdict(step)` says what Lean reports. */
function fakeUpstream(verdict: (text: string) => { error?: string; goals?: string[] }) {
  const sent: Array<{ method: string; params: any }> = [];
  let runner!: TrialRunner;
  let text = '';
  const up: TrialUpstream & { editorRequestsWaiting: number } = {
    live: true,
    editorRequestsWaiting: 0,
    notify(method, params: any) {
      sent.push({ method, params });
      if (method === 'textDocument/didOpen') text = params.textDocument.text;
      if (method === 'textDocument/didChange') {
        const c = params.contentChanges[0];
        const lines = text.split('\n');
        const off = (p: any) => lines.slice(0, p.line).reduce((a, l) => a + l.length + 1, 0) + p.character;
        text = text.slice(0, off(c.range.start)) + c.text + text.slice(off(c.range.end));
      }
    },
    async request<T>(method: string, params: any): Promise<T> {
      sent.push({ method, params });
      if (method === 'textDocument/waitForDiagnostics') {
        const v = verdict(text);
        const line = text.split('\n').findIndex((l) => l.includes('maxHeartbeats'));
        const diagnostics = v.error ? [{ range: { start: { line, character: text.split('\n')[line]!.indexOf(' in ') + 4 } }, severity: 1, message: v.error }] : [];
        runner.observe({ jsonrpc: '2.0', method: 'textDocument/publishDiagnostics', params: { uri: params.uri, version: params.version, diagnostics } } as never);
        return {} as T;
      }
      if (method === '$/lean/plainGoal') return { goals: verdict(text).goals ?? [], rendered: '' } as T;
      throw new Error(`unexpected ${method}`);
    },
  };
  const settings: TrialSettings = { mode: 'on request', premises: 8, timeoutMs: 1000, heartbeats: 500, keepOpenMs: 0 };
  runner = new TrialRunner(() => up, () => settings, (uri) => uri === 'file:///p/Mine__premise_trial.lean', { debug: () => {}, warn: () => {} });
  return { up, sent, runner };
}

describe('the trial runner', () => {
  const text = 'theorem t (a b : ℕ) : a + b = b + a := by\n  exact \n';
  const place = stepPlace(text, { line: 1, character: 8 })!;
  const job = (steps: string[]) => ({ uri: 'file:///p/T.lean', version: 3, text, place, candidates: steps.map((step) => ({ step, premises: [step.split(' ')[1]!], tactic: step.split(' ')[0]! })) });
  const lean = (t: string) =>
    t.includes('exact good') ? {} : t.includes('apply half') ? { goals: ['⊢ b + a = b + a'] } : { error: 'type mismatch' };

  it('wraps each step in maxHeartbeats, sorts the verdicts best first, and closes the shadow after the batch', async () => {
    const { sent, runner } = fakeUpstream(lean);
    const results = await runner.run(job(['exact bad', 'apply half', 'exact good']));
    expect(results.map((r) => [r.step, r.outcome])).toEqual([['exact good', 'closes'], ['apply half', 'progress'], ['exact bad', 'fails']]);
    expect(sent[0]!.params.textDocument.text).toContain('  set_option maxHeartbeats 500 in exact bad\n');
    expect(sent.at(-1)).toEqual({ method: 'textDocument/didClose', params: { textDocument: { uri: 'file:///p/T__premise_trial.lean' } } });
    expect(runner.verdicts('file:///p/T.lean', 3, 1)[0]!.results[0]!.step).toBe('exact good');
    expect(runner.verdicts('file:///p/T.lean', 4, 1)).toEqual([]); // another version: nothing known
  });

  it('waits for the editor\'s requests the prover has not answered before it starts a trial', async () => {
    const { up, sent, runner } = fakeUpstream(lean);
    up.editorRequestsWaiting = 1;
    const done = runner.run(job(['exact good']));
    await new Promise((r) => setTimeout(r, 30));
    expect(sent).toEqual([]);
    up.editorRequestsWaiting = 0;
    expect((await done)[0]!.outcome).toBe('closes');
  });

  it('a user edit stops the batch with ContentModified', async () => {
    const { up, runner } = fakeUpstream(lean);
    up.editorRequestsWaiting = 1; // holds the first trial, so the edit comes during the batch
    const done = runner.run(job(['exact good', 'exact bad']));
    runner.userEdited('file:///p/T.lean');
    await expect(done).rejects.toMatchObject({ code: -32801 });
    expect((await done.catch((e: RpcError) => e)) instanceof RpcError).toBe(true);
  });

  it('takes notifications about trial documents, never the editor\'s own documents', () => {
    const { runner } = fakeUpstream(lean);
    const note = (uri: string) => ({ jsonrpc: '2.0', method: '$/lean/fileProgress', params: { textDocument: { uri, version: 1 }, processing: [] } }) as never;
    expect(runner.observe(note('file:///p/T__premise_trial.lean'))).toBe(true);
    expect(runner.observe(note('file:///p/T.lean'))).toBe(false);
    // a file of that name the editor opened itself is the user's
    expect(runner.observe(note('file:///p/Mine__premise_trial.lean'))).toBe(false);
  });
});
