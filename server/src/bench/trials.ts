/**
 * The trial stage (`premise-lsp bench --only trials`, and part of the full run):
 * premise-lsp in front of the fake Lean, whose elaboration takes realistic times
 * (timers: `elab-ms` per change, more for simp and grind steps), on a document of
 * `THEOREMS` theorems like test/fixtures/lsp/Trials.lean. The editor's own
 * requests (hover, its `$/lean/plainGoal`, an invoked completion) are timed alone,
 * then again while `premise-lsp.try` runs back to back at other theorems; trials
 * per second and the server's resident memory are reported. The editor pauses
 * `THINK_MS` between rounds (one round: what a cursor move asks). Needs no corpus.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JsonRpcClient } from '../jsonrpc/client.js';
import { packageRoot } from '../paths.js';

const THEOREMS = 24;
/** Elaboration of one change of a document, and the extra time of simp and grind steps (ms; the fake Lean's timers). */
export const DELAYS = { elabMs: 40, simpMs: 150, grindMs: 300 };
const ROUNDS = 400;
const BLOCKS = 8;
/** The editor's pause between rounds (a cursor move every so often, not a flood). */
const THINK_MS = 15;

function document(): { text: string; slots: Array<{ line: number; character: number }> } {
  const lines = [
    `-- elab-ms: ${DELAYS.elabMs}`,
    '-- step: exact add_comm a b => closes',
    '-- step: exact add_comm _ _ => closes',
    `-- step: simp [add_comm] => closes (ms: ${DELAYS.simpMs})`,
    `-- step: simp [mul_comm] => error: simp made no progress (ms: ${DELAYS.simpMs})`,
    `-- step: grind [add_comm, mul_comm, Nat.le_of_lt_succ, Nat.lt_irrefl] => closes (ms: ${DELAYS.grindMs})`,
  ];
  const slots: Array<{ line: number; character: number }> = [];
  for (let i = 0; i < THEOREMS; i++) {
    lines.push(`theorem bench_${i} (a b : ℕ) : a + b = b + a := by`, '  -- goal: a b : ℕ\\n⊢ a + b = b + a');
    slots.push({ line: lines.length, character: 2 });
    lines.push('  ', '');
  }
  return { text: lines.join('\n'), slots };
}

function rssMb(pid: number | undefined): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

function p(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))]! * 100) / 100;
}

export interface TrialBench {
  delays: typeof DELAYS;
  editorRequests: number;
  aloneMs: { p50: number; p95: number };
  withTrialsMs: { p50: number; p95: number };
  ratioP95: number;
  trials: number;
  trialsPerSecond: number;
  rssMb: { before?: number; after?: number };
}

export async function benchTrials(): Promise<TrialBench> {
  const root = packageRoot();
  const proc: ChildProcess = spawn(
    process.execPath,
    [join(root, 'dist', 'cli.js'), 'serve', '--stdio', '--fake-engine', join(root, 'test', 'fixtures', 'lsp', 'trial-premises.json'), '--', process.execPath, join(root, 'test', 'doubles', 'fake-lean.mjs')],
    { stdio: ['pipe', 'pipe', 'ignore'], cwd: root },
  );
  const client = new JsonRpcClient(proc.stdout!, proc.stdin!, { timeoutMs: 60_000 });
  try {
    await client.request('initialize', { processId: process.pid, rootUri: null, capabilities: {}, initializationOptions: { 'premise-lsp': { liveIndex: false, trials: { keepOpenMs: 60_000, timeoutMs: 5000 } } } });
    client.notify('initialized', {});
    const uri = 'file:///bench/Trials.lean';
    const { text, slots } = document();
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'lean', version: 1, text } });
    await new Promise((r) => setTimeout(r, DELAYS.elabMs * 3));
    const before = rssMb(proc.pid);

    // the editor's own requests, round after round: hover, its goal request, an invoked completion
    const editor = async (rounds: number, offset: number): Promise<number[]> => {
      const times: number[] = [];
      for (let i = 0; i < rounds; i++) {
        const at = slots[(i + offset) % slots.length]!;
        for (const [method, params] of [
          ['textDocument/hover', { textDocument: { uri }, position: { line: at.line - 2, character: 10 } }],
          ['$/lean/plainGoal', { textDocument: { uri }, position: at }],
          ['textDocument/completion', { textDocument: { uri }, position: at, context: { triggerKind: 1 } }],
        ] as const) {
          const t = performance.now();
          await client.request(method, params);
          times.push(performance.now() - t);
        }
        await new Promise((r) => setTimeout(r, THINK_MS));
      }
      return times;
    };
    await editor(20, 0); // warm-up (JIT)

    // blocks without and with trials, alternating (the machine's load drifts: each kind sees the same drift)
    const alone: number[] = [];
    const withTrials: number[] = [];
    let trials = 0;
    let trialSeconds = 0;
    for (let b = 0; b < BLOCKS; b++) {
      alone.push(...(await editor(ROUNDS / BLOCKS, b)));
      // the same requests while premise-lsp.try runs back to back at the other theorems
      let stop = false;
      const t0 = performance.now();
      const trying = (async () => {
        for (let i = 0; !stop; i++) {
          const at = slots[(i * 7 + 3 + b) % slots.length]!;
          const r = await client.request('workspace/executeCommand', { command: 'premise-lsp.try', arguments: [{ textDocument: { uri }, position: at }] });
          const results = (r.result as { results?: unknown[] } | undefined)?.results;
          if (!results) throw new Error(`bench: premise-lsp.try failed: ${JSON.stringify(r.error)}`);
          trials += results.length;
        }
      })();
      withTrials.push(...(await editor(ROUNDS / BLOCKS, b + 5)));
      stop = true;
      await trying;
      trialSeconds += (performance.now() - t0) / 1000;
    }
    const seconds = trialSeconds;
    const after = rssMb(proc.pid);
    const a = { p50: p(alone, 0.5), p95: p(alone, 0.95) };
    const w = { p50: p(withTrials, 0.5), p95: p(withTrials, 0.95) };
    return {
      delays: DELAYS,
      editorRequests: withTrials.length,
      aloneMs: a,
      withTrialsMs: w,
      ratioP95: Math.round((w.p95 / a.p95) * 100) / 100,
      trials,
      trialsPerSecond: Math.round((trials / seconds) * 10) / 10,
      rssMb: { before, after },
    };
  } finally {
    await client.request('shutdown', null).catch(() => undefined);
    client.notify('exit', null);
    await new Promise((r) => (proc.exitCode !== null ? r(undefined) : proc.once('exit', r)));
  }
}

export function renderTrials(t: TrialBench): string[] {
  return [
    '## Trials (premise-lsp.try against the fake Lean)',
    '',
    `Fake Lean elaboration: ${t.delays.elabMs} ms a change, simp +${t.delays.simpMs} ms, grind +${t.delays.grindMs} ms (timers). ` +
      `${t.editorRequests} editor requests (hover, plainGoal, completion; a round of three every ${THINK_MS} ms) timed alone and while trials ran back to back.`,
    '',
    '| | p50 ms | p95 ms |',
    '|---|---|---|',
    `| editor requests alone | ${t.aloneMs.p50} | ${t.aloneMs.p95} |`,
    `| editor requests while trials run | ${t.withTrialsMs.p50} | ${t.withTrialsMs.p95} |`,
    '',
    `p95 with trials / alone: ${t.ratioP95}× (target ≤ 1.5×). Trials: ${t.trials} (${t.trialsPerSecond}/s). ` +
      `premise-lsp RSS: ${t.rssMb.before ?? '?'} MB before, ${t.rssMb.after ?? '?'} MB after.`,
  ];
}
