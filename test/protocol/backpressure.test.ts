/**
 * Flow control: a peer that stops reading holds up the other side instead of
 * filling premise-lsp's memory. The editor not reading while the prover floods:
 * premise-lsp stops reading the prover (whose writes then wait), and reads on
 * when the editor does; the prover not reading while the editor floods: the same
 * the other way. Nothing is lost or reordered. No timing: each wait is for an
 * event (a log line, a file, a message), and the bound is on bytes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { Editor, FAKE_LEAN, tempFile } from './harness.js';

const editors: Editor[] = [];
afterEach(() => {
  for (const e of editors.splice(0)) e.kill();
});

/** Far below what either flood sends, far above what the pipes and stream buffers between the two ends hold. */
const BOUND = 4 * 1024 * 1024;
const FLOOD = 24 * 1024 * 1024;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `cond` until it holds (up to 60 s); an event, not a timed assertion. */
async function until(cond: () => boolean, what: string, e: Editor): Promise<void> {
  for (let i = 0; i < 1200 && !cond(); i++) await sleep(50);
  if (!cond()) throw new Error(`never happened: ${what}; stderr:\n${e.stderr.slice(-3000)}`);
}

function lines(file: string): number[] {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number) : [];
}

describe('backpressure', () => {
  it('the editor not reading while the prover floods: the prover is held at a bounded amount, then everything arrives in order', async () => {
    const e = Editor.proxy([process.execPath, FAKE_LEAN]);
    editors.push(e);
    await e.initialize();
    const done = tempFile('flood-done');
    const report = tempFile('report');
    e.proc.stdout!.pause(); // the editor stops reading
    e.notify('fake/flood', { bytes: FLOOD, done });
    // either premise-lsp holds the prover, or (no flow control) the prover gets its whole flood out
    await until(() => e.stderr.includes('holding the prover') || existsSync(done), 'a hold or the end of the flood', e);
    expect(existsSync(done)).toBe(false);
    expect(e.stderr).toContain("the editor is not reading: holding the prover's output until it does");
    // the prover, still reading its input, says how much of its output has been taken: bounded, twice over
    for (let n = 1; n <= 2; n++) {
      e.notify('fake/report', { file: report });
      await until(() => lines(report).length >= n, `report ${n}`, e);
      expect(lines(report)[n - 1]).toBeLessThan(BOUND);
    }
    expect(existsSync(done)).toBe(false);

    e.proc.stdout!.resume(); // the editor reads again
    const end = await e.waitFor((m) => m.method === 'fake/floodDone', { past: true, timeoutMs: 120_000 });
    const seqs = e.received.filter((m) => m.method === 'fake/flood').map((m) => m.params.seq as number);
    expect(seqs.length).toBe(end.params.count);
    expect(seqs.every((s, i) => s === i)).toBe(true);
    expect(await e.shutdown()).toBe(0);
  }, 180_000);

  it('the prover not reading while the editor floods: the editor is held at a bounded amount, then everything arrives', async () => {
    const e = Editor.proxy([process.execPath, FAKE_LEAN]);
    editors.push(e);
    await e.initialize();
    const stalled = e.notification('fake/stalled');
    e.notify('fake/stall');
    const pid = (await stalled).params.pid as number;
    // the editor writes its flood without waiting; its writes' callbacks count what premise-lsp took
    const pad = 'y'.repeat(1000);
    let taken = 0;
    let frames = 0;
    for (let sent = 0; sent < FLOOD; frames++) {
      const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', method: 'fake/junk', params: { n: frames, pad } }), 'utf8');
      const frame = Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'latin1'), body]);
      sent += frame.length;
      e.proc.stdin!.write(frame, () => (taken += frame.length));
    }
    await until(() => e.stderr.includes('holding the editor') || taken >= FLOOD, 'a hold or the whole flood taken', e);
    expect(e.stderr).toContain("the prover is not reading: holding the editor's input until it does");
    expect(taken).toBeLessThan(BOUND);

    process.kill(pid, 'SIGUSR1'); // the prover reads again
    const tally = e.waitFor((m) => m.method === 'fake/tally', { timeoutMs: 120_000 });
    e.notify('fake/tally');
    expect((await tally).params.junk).toBe(frames);
    expect(await e.shutdown()).toBe(0);
  }, 180_000);
});

describe('replies premise-lsp makes itself', () => {
  it('the editor not reading while it floods requests: premise-lsp stops reading them at a bounded amount, then answers every one', async () => {
    const e = Editor.proxy([]); // standalone: every reply is premise-lsp's own
    editors.push(e);
    await e.initialize();
    e.proc.stdout!.pause(); // the editor stops reading
    // requests whose replies are about as large as they are (an unknown method's name is named in its error),
    // and premise-lsp.search ones; written without waiting, their writes' callbacks count what premise-lsp took
    const method = `x/${'m'.repeat(1000)}`;
    let taken = 0;
    let frames = 0;
    for (let sent = 0; sent < FLOOD; frames++) {
      const msg =
        frames % 2
          ? { jsonrpc: '2.0', id: 1000 + frames, method, params: {} }
          : { jsonrpc: '2.0', id: 1000 + frames, method: 'workspace/executeCommand', params: { command: 'premise-lsp.search', arguments: [{ query: 'add comm', k: 8 }] } };
      const body = Buffer.from(JSON.stringify(msg), 'utf8');
      const frame = Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'latin1'), body]);
      sent += frame.length;
      e.proc.stdin!.write(frame, () => (taken += frame.length));
    }
    await until(() => e.stderr.includes('holding its requests') || taken >= FLOOD, 'a hold or the whole flood taken', e);
    expect(e.stderr).toContain('the editor is not reading its replies: holding its requests until it does');
    expect(taken).toBeLessThan(BOUND);

    e.proc.stdout!.resume(); // the editor reads again: every request is answered once (searches are answered when done)
    const answered = () => e.received.filter((m) => typeof m.id === 'number' && m.id >= 1000 && m.method === undefined).map((m) => m.id as number);
    await until(() => answered().length >= frames, 'every request answered', e);
    expect(new Set(answered()).size).toBe(frames);
    expect(answered().length).toBe(frames);
    expect(await e.shutdown()).toBe(0);
  }, 180_000);
});
