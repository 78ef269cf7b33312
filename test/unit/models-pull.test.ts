import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadEncoder } from '../../models/src/encoder.js';
import { DownloadError, IntegrityError } from '../../models/src/errors.js';
import { knownFile } from '../../models/src/known-models.js';
import { DEFAULT_FILES, formatPullProgress, pullModel, resolveUrl } from '../../models/src/pull.js';

const FIXTURE = resolve(__dirname, '../fixtures/tiny-encoder');
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

interface Entry {
  data: Buffer;
  /** Served like an LFS file: 302 to the CDN with X-Linked-Etag / X-Linked-Size. */
  lfs: boolean;
  linkedEtag?: string;
  linkedSize?: number;
  /** Destroy the socket after this many body bytes (once). */
  cutAfter?: number;
}

interface Seen {
  url: string;
  range?: string;
  auth?: string;
}

/**
 * Fake Hugging Face: `/<repo>/resolve/<rev>/<path>` on the hub server; LFS files redirect (302)
 * to a second server (another origin, like HF's CDN) that supports Range.
 */
class FakeHub {
  files = new Map<string, Entry>();
  hubSeen: Seen[] = [];
  cdnSeen: Seen[] = [];
  hub!: Server;
  cdn!: Server;
  hubUrl = '';
  cdnUrl = '';

  async start() {
    this.hub = createServer((req, res) => this.onHub(req, res));
    this.cdn = createServer((req, res) => this.onCdn(req, res));
    for (const s of [this.hub, this.cdn]) await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    this.hubUrl = `http://127.0.0.1:${(this.hub.address() as AddressInfo).port}`;
    this.cdnUrl = `http://127.0.0.1:${(this.cdn.address() as AddressInfo).port}`;
  }

  async stop() {
    for (const s of [this.hub, this.cdn]) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  }

  put(repo: string, path: string, data: Buffer, extra: Partial<Entry> = {}, rev = 'main') {
    this.files.set(`${repo}/resolve/${rev}/${path}`, { data, lfs: path.endsWith('.onnx'), ...extra });
  }

  private seen(req: IncomingMessage): Seen {
    return { url: req.url!, range: req.headers.range, auth: req.headers.authorization };
  }

  private onHub(req: IncomingMessage, res: ServerResponse) {
    this.hubSeen.push(this.seen(req));
    const key = decodeURIComponent(req.url!.slice(1));
    const e = this.files.get(key);
    if (!e) {
      const repoKnown = [...this.files.keys()].some((k) => k.startsWith(key.split('/resolve/')[0] + '/resolve/'));
      if (!repoKnown) {
        res.writeHead(401, { 'X-Error-Code': 'RepoNotFound', 'X-Error-Message': 'Repository not found' }).end();
      } else {
        res.writeHead(404, { 'X-Error-Code': 'EntryNotFound', 'X-Error-Message': 'Entry not found' }).end();
      }
      return;
    }
    if (e.lfs) {
      const sha = e.linkedEtag ?? sha256(e.data);
      res
        .writeHead(302, {
          Location: `${this.cdnUrl}/repos/${encodeURIComponent(key)}?X-Amz-Signature=abc`,
          'X-Linked-Etag': `"${sha}"`,
          'X-Linked-Size': String(e.linkedSize ?? e.data.length),
          ETag: `"${sha}"`,
          'Content-Length': '0',
        })
        .end();
      return;
    }
    this.serve(req, res, e);
  }

  private onCdn(req: IncomingMessage, res: ServerResponse) {
    this.cdnSeen.push(this.seen(req));
    const key = decodeURIComponent(req.url!.slice('/repos/'.length).split('?')[0]!);
    const e = this.files.get(key);
    if (!e) return void res.writeHead(404).end();
    this.serve(req, res, e);
  }

  private serve(req: IncomingMessage, res: ServerResponse, e: Entry) {
    const total = e.data.length;
    const m = req.headers.range?.match(/^bytes=(\d+)-$/);
    let start = 0;
    const headers: Record<string, string> = {
      ETag: `"${createHash('sha1').update(e.data).digest('hex')}"`,
      'Accept-Ranges': 'bytes',
      'Content-Type': 'application/octet-stream',
    };
    if (m) {
      start = Number(m[1]);
      if (start >= total) {
        res.writeHead(416, { ...headers, 'Content-Range': `bytes */${total}` }).end();
        return;
      }
      res.writeHead(206, { ...headers, 'Content-Range': `bytes ${start}-${total - 1}/${total}`, 'Content-Length': String(total - start) });
    } else {
      res.writeHead(200, { ...headers, 'Content-Length': String(total) });
    }
    const body = e.data.subarray(start);
    if (e.cutAfter !== undefined && e.cutAfter < body.length) {
      const cut = e.cutAfter;
      e.cutAfter = undefined;
      res.write(body.subarray(0, cut), () => setTimeout(() => res.socket?.destroy(), 20));
      return;
    }
    res.end(body);
  }
}

const hub = new FakeHub();
const fixture = (f: string) => readFileSync(join(FIXTURE, f));
const BIG = randomBytes(300_000);
let dest: string;

beforeAll(() => hub.start());
afterAll(() => hub.stop());
beforeEach(() => {
  dest = mkdtempSync(join(tmpdir(), 'pull-'));
  hub.hubSeen = [];
  hub.cdnSeen = [];
});

describe('pullModel', () => {
  beforeAll(() => {
    hub.put('premise/tiny', 'config.json', Buffer.from('{"model_type":"tiny"}\n'));
    hub.put('premise/tiny', 'tokenizer.json', fixture('tokenizer.json'));
    hub.put('premise/tiny', 'tokenizer_config.json', fixture('tokenizer_config.json'));
    hub.put('premise/tiny', 'onnx/model.onnx', fixture('model.onnx'));
    hub.put('premise/big', 'onnx/model.onnx', BIG);
  });

  it('downloads the default files (LFS via redirect), skips optional 404s, result loads', async () => {
    const progress: { file: string; done: number; total?: number }[] = [];
    const r = await pullModel('premise/tiny', { dest, baseUrl: hub.hubUrl, onProgress: (p) => progress.push(p) });
    expect(r.files.map((f) => f.path)).toEqual(['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx']);
    expect(r.skipped).toEqual(['special_tokens_map.json']);
    const model = r.files.find((f) => f.path === 'onnx/model.onnx')!;
    expect(model.sha256).toBe(sha256(fixture('model.onnx')));
    expect(model.bytes).toBe(fixture('model.onnx').length);
    expect(readFileSync(join(dest, 'onnx/model.onnx')).equals(fixture('model.onnx'))).toBe(true);
    expect(existsSync(join(dest, 'onnx/model.onnx.incomplete'))).toBe(false);
    // the CDN was reached through the 302
    expect(hub.cdnSeen.map((s) => s.url)).toEqual([expect.stringMatching(/^\/repos\/premise.*model\.onnx\?X-Amz/)]);
    const last = progress.filter((p) => p.file === 'onnx/model.onnx').at(-1)!;
    expect(last.done).toBe(model.bytes);
    expect(last.total).toBe(model.bytes);

    const enc = await loadEncoder(dest, { threads: 1 });
    expect(enc.dim).toBe(32);
    await enc.dispose();
  });

  it('uses HF_ENDPOINT, revision in the URL, and sends the token only to the hub origin', async () => {
    hub.put('premise/tiny', 'onnx/model.onnx', fixture('model.onnx'), {}, 'v1.0');
    const old = process.env.HF_ENDPOINT;
    process.env.HF_ENDPOINT = hub.hubUrl;
    try {
      await pullModel('premise/tiny', { dest, revision: 'v1.0', files: ['onnx/model.onnx'], token: 'hf_secret' });
    } finally {
      if (old === undefined) delete process.env.HF_ENDPOINT;
      else process.env.HF_ENDPOINT = old;
    }
    expect(hub.hubSeen).toEqual([{ url: '/premise/tiny/resolve/v1.0/onnx/model.onnx', auth: 'Bearer hf_secret' }]);
    expect(hub.cdnSeen[0]!.auth).toBeUndefined();
  });

  it('resumes a partial .incomplete file with Range: bytes=N-', async () => {
    mkdirSync(join(dest, 'onnx'), { recursive: true });
    writeFileSync(join(dest, 'onnx/model.onnx.incomplete'), BIG.subarray(0, 123_456));
    const r = await pullModel('premise/big', { dest, baseUrl: hub.hubUrl, files: ['onnx/model.onnx'] });
    expect(hub.cdnSeen.map((s) => s.range)).toEqual(['bytes=123456-']);
    expect(r.files[0]).toEqual({ path: 'onnx/model.onnx', bytes: BIG.length, sha256: sha256(BIG) });
    expect(readFileSync(join(dest, 'onnx/model.onnx')).equals(BIG)).toBe(true);
    expect(existsSync(join(dest, 'onnx/model.onnx.incomplete'))).toBe(false);
  });

  it('keeps the partial file when the connection drops, and the next pull resumes', async () => {
    hub.put('premise/cut', 'onnx/model.onnx', BIG, { cutAfter: 100_000 });
    const p = pullModel('premise/cut', { dest, baseUrl: hub.hubUrl, files: ['onnx/model.onnx'] });
    await expect(p).rejects.toThrow(DownloadError);
    await expect(p).rejects.toThrow(/interrupted .*run again to resume/);
    const partial = statSync(join(dest, 'onnx/model.onnx.incomplete')).size;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(BIG.length);
    expect(existsSync(join(dest, 'onnx/model.onnx'))).toBe(false);
    const r = await pullModel('premise/cut', { dest, baseUrl: hub.hubUrl, files: ['onnx/model.onnx'] });
    expect(hub.cdnSeen.at(-1)!.range).toBe(`bytes=${partial}-`);
    expect(r.files[0]!.sha256).toBe(sha256(BIG));
  });

  it('a complete .incomplete file (416) is verified and kept', async () => {
    mkdirSync(join(dest, 'onnx'), { recursive: true });
    writeFileSync(join(dest, 'onnx/model.onnx.incomplete'), BIG);
    const r = await pullModel('premise/big', { dest, baseUrl: hub.hubUrl, files: ['onnx/model.onnx'] });
    expect(r.files[0]!.sha256).toBe(sha256(BIG));
    expect(readFileSync(join(dest, 'onnx/model.onnx')).equals(BIG)).toBe(true);
  });

  it('a resumed file whose prefix is corrupt fails the digest check and is removed', async () => {
    mkdirSync(join(dest, 'onnx'), { recursive: true });
    const bad = Buffer.from(BIG.subarray(0, 5000));
    bad[10] ^= 0xff;
    writeFileSync(join(dest, 'onnx/model.onnx.incomplete'), bad);
    await expect(pullModel('premise/big', { dest, baseUrl: hub.hubUrl, files: ['onnx/model.onnx'] })).rejects.toThrow(
      IntegrityError,
    );
    expect(existsSync(join(dest, 'onnx/model.onnx.incomplete'))).toBe(false);
    expect(existsSync(join(dest, 'onnx/model.onnx'))).toBe(false);
  });

  it('digest mismatch with X-Linked-Etag → error, nothing under the final name', async () => {
    hub.put('premise/baddigest', 'onnx/model.onnx', BIG, { linkedEtag: 'ab'.repeat(32) });
    const p = pullModel('premise/baddigest', { dest, baseUrl: hub.hubUrl, files: ['onnx/model.onnx'] });
    await expect(p).rejects.toThrow(IntegrityError);
    await expect(p).rejects.toThrow(/SHA-256 mismatch for premise\/baddigest\/onnx\/model\.onnx.*X-Linked-Etag/);
    expect(existsSync(join(dest, 'onnx/model.onnx'))).toBe(false);
    expect(existsSync(join(dest, 'onnx/model.onnx.incomplete'))).toBe(false);
  });

  it('size mismatch with X-Linked-Size → error', async () => {
    hub.put('premise/badsize', 'onnx/model.onnx', BIG, { linkedSize: BIG.length + 1 });
    const p = pullModel('premise/badsize', { dest, baseUrl: hub.hubUrl, files: ['onnx/model.onnx'] });
    await expect(p).rejects.toThrow(/size mismatch .*X-Linked-Size says 300001/);
    expect(existsSync(join(dest, 'onnx/model.onnx'))).toBe(false);
  });

  it('checks files in the known digest table even without X-Linked-Etag', async () => {
    const repo = 'sentence-transformers/all-MiniLM-L6-v2';
    expect(knownFile(repo, 'onnx/model.onnx')?.bytes).toBe(90387606);
    hub.put(repo, 'onnx/model.onnx', Buffer.from('not the real weights'), { lfs: false });
    const p = pullModel(repo, { dest, baseUrl: hub.hubUrl, files: ['onnx/model.onnx'] });
    await expect(p).rejects.toThrow(IntegrityError);
    await expect(p).rejects.toThrow(/known digest table \(all-MiniLM-L6-v2\) says 90387606/);
    expect(existsSync(join(dest, 'onnx/model.onnx'))).toBe(false);
  });

  it('404 for the model file and unknown repositories are clear errors', async () => {
    const p = pullModel('premise/tiny', { dest, baseUrl: hub.hubUrl, files: ['config.json', 'onnx/model_fp16.onnx'] });
    await expect(p).rejects.toThrow(DownloadError);
    await expect(p).rejects.toThrow(/premise\/tiny\/onnx\/model_fp16\.onnx not found \(HTTP 404/);
    const q = pullModel('nobody/nothing', { dest, baseUrl: hub.hubUrl });
    await expect(q).rejects.toThrow(/nobody\/nothing\/onnx\/model\.onnx not found \(HTTP 401 .*Repository not found/);
    await expect(pullModel('premise/tiny', { dest, baseUrl: 'http://127.0.0.1:1', files: ['onnx/model.onnx'] })).rejects.toThrow(
      /cannot download premise\/tiny\/onnx\/model\.onnx from http:\/\/127\.0\.0\.1:1/,
    );
  });

  it('a second pull reuses verified files', async () => {
    await pullModel('premise/big', { dest, baseUrl: hub.hubUrl, files: ['onnx/model.onnx'] });
    const before = statSync(join(dest, 'onnx/model.onnx')).mtimeMs;
    const r = await pullModel('premise/big', { dest, baseUrl: hub.hubUrl, files: ['onnx/model.onnx'] });
    expect(r.files[0]!.sha256).toBe(sha256(BIG));
    expect(statSync(join(dest, 'onnx/model.onnx')).mtimeMs).toBe(before);
  });

  it('rejects bad repository names and paths', async () => {
    await expect(pullModel('../etc', { dest, baseUrl: hub.hubUrl })).rejects.toThrow(/invalid repository/);
    await expect(pullModel('a/b', { dest, baseUrl: hub.hubUrl, files: ['../x.onnx'] })).rejects.toThrow(/invalid file path/);
    await expect(pullModel('a/b', { dest, baseUrl: hub.hubUrl, files: ['/abs.onnx'] })).rejects.toThrow(/invalid file path/);
    await expect(pullModel('a/b', { dest, baseUrl: 'not a url' })).rejects.toThrow(/invalid endpoint "not a url" \(expected an http\(s\) URL/);
    await expect(pullModel('a/b', { dest, baseUrl: 'file:///etc' })).rejects.toThrow(/invalid endpoint "file:\/\/\/etc"/);
  });
});

describe('helpers', () => {
  it('resolveUrl builds the Hugging Face layout', () => {
    expect(resolveUrl('https://huggingface.co/', 'thenlper/gte-small', 'main', 'onnx/model_quantized.onnx')).toBe(
      'https://huggingface.co/thenlper/gte-small/resolve/main/onnx/model_quantized.onnx',
    );
    expect(resolveUrl('http://h', 'a/b', 'refs/pr/1', 'x y.json')).toBe('http://h/a/b/resolve/refs%2Fpr%2F1/x%20y.json');
    expect(DEFAULT_FILES).toContain('onnx/model.onnx');
  });

  it('formatPullProgress', () => {
    expect(formatPullProgress({ file: 'onnx/model.onnx', done: 512, total: 1024 })).toBe('onnx/model.onnx  512 B / 1.0 KiB  50.0%');
    expect(formatPullProgress({ file: 'config.json', done: 3 * 1024 * 1024 })).toBe('config.json  3.0 MiB');
  });
});
