/**
 * One resumable, verified HTTP download: follows redirects by hand (to keep Hugging Face's
 * X-Linked-Etag / X-Linked-Size from the first hop), writes `<dest>.incomplete`, resumes it with
 * `Range: bytes=N-`, checks size and SHA-256, and only then renames it to `<dest>`.
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { DownloadError, IntegrityError, errorMessage } from './errors.js';
import { sha256File } from './fingerprint.js';

export interface ExpectedDigest {
  bytes?: number;
  sha256?: string;
  /** Where these values come from, for messages (e.g. "known model table"). */
  source: string;
}

export interface DownloadSpec {
  url: string;
  /** Final path on disk. */
  dest: string;
  /** Name used in messages and progress (e.g. the path inside the repository). */
  label: string;
  /** Values from a trusted table, checked in addition to what the server announces. */
  expected?: ExpectedDigest;
  /** Bearer token, sent only to `authOrigin`. */
  token?: string;
  authOrigin?: string;
  signal?: AbortSignal;
  onProgress?: (done: number, total?: number) => void;
  fetch?: typeof fetch;
}

export interface DownloadResult {
  bytes: number;
  sha256: string;
  /** True when `dest` already held the expected content and nothing was transferred. */
  reused: boolean;
}

const MAX_REDIRECTS = 10;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

interface Linked {
  sha256?: string;
  size?: number;
}

/** A 64-hex SHA-256 from an ETag-like header value (`W/"…"`, quotes stripped), else undefined. */
export function parseSha256Etag(v: string | null): string | undefined {
  if (!v) return undefined;
  const s = v.trim().replace(/^W\//, '').replace(/^"|"$/g, '').toLowerCase();
  return /^[0-9a-f]{64}$/.test(s) ? s : undefined;
}

function parseSize(v: string | null): number | undefined {
  if (v === null || !/^\d+$/.test(v.trim())) return undefined;
  return Number(v.trim());
}

// "bytes start-end/total" or "bytes */total"
function parseContentRange(v: string | null): { start?: number; total?: number } {
  const m = v?.match(/^bytes\s+(?:(\d+)-\d+|\*)\/(\d+|\*)$/i);
  if (!m) return {};
  return { start: m[1] !== undefined ? Number(m[1]) : undefined, total: m[2] === '*' ? undefined : Number(m[2]) };
}

async function sizeOf(path: string): Promise<number | undefined> {
  try {
    const s = await stat(path);
    return s.isFile() ? s.size : undefined;
  } catch {
    return undefined;
  }
}

async function hashPrefix(hash: Hash, path: string): Promise<void> {
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
}

async function discard(res: Response): Promise<void> {
  try {
    await res.body?.cancel();
  } catch {
    /* already closed */
  }
}

async function request(spec: DownloadSpec, rangeStart: number): Promise<{ res: Response; linked: Linked; url: string }> {
  const doFetch = spec.fetch ?? fetch;
  const linked: Linked = {};
  let url = spec.url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const headers: Record<string, string> = { 'accept-encoding': 'identity', 'user-agent': 'premise-lsp' };
    if (rangeStart > 0) headers.range = `bytes=${rangeStart}-`;
    if (spec.token && spec.authOrigin && new URL(url).origin === spec.authOrigin) {
      headers.authorization = `Bearer ${spec.token}`;
    }
    let res: Response;
    try {
      res = await doFetch(url, { headers, redirect: 'manual', signal: spec.signal });
    } catch (e) {
      throw new DownloadError(`cannot download ${spec.label} from ${url}: ${errorMessage(e)}`, spec.dest, undefined, {
        cause: e,
      });
    }
    linked.sha256 ??= parseSha256Etag(res.headers.get('x-linked-etag'));
    linked.size ??= parseSize(res.headers.get('x-linked-size'));
    if (!REDIRECTS.has(res.status)) return { res, linked, url };
    const location = res.headers.get('location');
    await discard(res);
    if (!location) {
      throw new DownloadError(`HTTP ${res.status} without Location for ${spec.label} (${url})`, spec.dest, res.status);
    }
    url = new URL(location, url).toString();
  }
  throw new DownloadError(`too many redirects downloading ${spec.label} from ${spec.url}`, spec.dest);
}

interface Check {
  value: string | number | undefined;
  source: string;
}

async function verify(spec: DownloadSpec, incomplete: string, bytes: number, sha256: string, sizes: Check[], digests: Check[]) {
  for (const c of sizes) {
    if (c.value !== undefined && c.value !== bytes) {
      await rm(incomplete, { force: true });
      throw new IntegrityError(
        `size mismatch for ${spec.label} (${spec.dest}): got ${bytes} bytes, ${c.source} says ${c.value}`,
        spec.dest,
        String(c.value),
        String(bytes),
      );
    }
  }
  for (const c of digests) {
    if (c.value !== undefined && c.value !== sha256) {
      await rm(incomplete, { force: true });
      throw new IntegrityError(
        `SHA-256 mismatch for ${spec.label} (${spec.dest}): got ${sha256}, ${c.source} says ${c.value}`,
        spec.dest,
        String(c.value),
        sha256,
      );
    }
  }
}

export async function downloadFile(spec: DownloadSpec): Promise<DownloadResult> {
  const incomplete = `${spec.dest}.incomplete`;
  await mkdir(dirname(spec.dest), { recursive: true });
  const known = spec.expected;
  const knownSha = known?.sha256?.toLowerCase();

  // an existing final file is kept if the server (or the table) vouches for its digest
  const existingSize = await sizeOf(spec.dest);
  const existingSha = existingSize !== undefined ? await sha256File(spec.dest) : undefined;
  let offset = existingSize !== undefined ? 0 : ((await sizeOf(incomplete)) ?? 0);

  for (let attempt = 0; ; attempt++) {
    const { res, linked, url } = await request(spec, offset);
    const expectedSha = linked.sha256 ?? knownSha;
    const expectedSize = linked.size ?? known?.bytes;

    if (res.status === 404 || (res.status === 401 && res.headers.get('x-error-code') === 'RepoNotFound')) {
      await discard(res);
      const why = res.headers.get('x-error-message');
      throw new DownloadError(
        `${spec.label} not found (HTTP ${res.status} from ${url})${why ? `: ${why}` : ''}`,
        spec.dest,
        404,
      );
    }

    if (res.status === 416 && offset > 0) {
      // the partial file may already be complete; otherwise start over
      await discard(res);
      const total = expectedSize ?? parseContentRange(res.headers.get('content-range')).total;
      if (total === offset) {
        const sha256 = await sha256File(incomplete);
        await verify(spec, incomplete, offset, sha256, [{ value: known?.bytes, source: known?.source ?? '' }], [
          { value: linked.sha256, source: 'X-Linked-Etag' },
          { value: knownSha, source: known?.source ?? '' },
        ]);
        await rename(incomplete, spec.dest);
        spec.onProgress?.(offset, offset);
        return { bytes: offset, sha256, reused: false };
      }
      if (attempt > 0) throw new DownloadError(`HTTP 416 for ${spec.label} from ${url}`, spec.dest, 416);
      await rm(incomplete, { force: true });
      offset = 0;
      continue;
    }

    if (!res.ok) {
      await discard(res);
      throw new DownloadError(`HTTP ${res.status} ${res.statusText} downloading ${spec.label} from ${url}`, spec.dest, res.status);
    }

    if (
      existingSha !== undefined &&
      expectedSha !== undefined &&
      existingSha === expectedSha &&
      (expectedSize === undefined || expectedSize === existingSize) &&
      (knownSha === undefined || knownSha === existingSha)
    ) {
      await discard(res);
      await rm(incomplete, { force: true });
      spec.onProgress?.(existingSize!, existingSize);
      return { bytes: existingSize!, sha256: existingSha, reused: true };
    }

    let start = 0;
    let announced: number | undefined;
    if (res.status === 206) {
      const cr = parseContentRange(res.headers.get('content-range'));
      if (cr.start !== offset) {
        await discard(res);
        if (attempt > 0) throw new DownloadError(`bad Content-Range for ${spec.label} from ${url}`, spec.dest, 206);
        await rm(incomplete, { force: true });
        offset = 0;
        continue;
      }
      start = offset;
      announced = cr.total;
    } else {
      const len = parseSize(res.headers.get('content-length'));
      announced = len;
    }
    const total = linked.size ?? announced ?? known?.bytes;

    const hash = createHash('sha256');
    if (start > 0) await hashPrefix(hash, incomplete);
    const fh = await open(incomplete, start > 0 ? 'a' : 'w');
    let done = start;
    spec.onProgress?.(done, total);
    try {
      if (res.body) {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          hash.update(chunk);
          await fh.write(chunk);
          done += chunk.byteLength;
          spec.onProgress?.(done, total);
        }
      }
    } catch (e) {
      throw new DownloadError(
        `download of ${spec.label} interrupted after ${done} bytes (partial file kept at ${incomplete}; run again to resume): ${errorMessage(e)}`,
        spec.dest,
        undefined,
        { cause: e },
      );
    } finally {
      await fh.close();
    }

    const sha256 = hash.digest('hex');
    await verify(
      spec,
      incomplete,
      done,
      sha256,
      [
        { value: linked.size, source: 'X-Linked-Size' },
        { value: announced, source: res.status === 206 ? 'Content-Range' : 'Content-Length' },
        { value: known?.bytes, source: known?.source ?? '' },
      ],
      [
        { value: linked.sha256, source: 'X-Linked-Etag' },
        { value: knownSha, source: known?.source ?? '' },
      ],
    );
    await rename(incomplete, spec.dest);
    return { bytes: done, sha256, reused: false };
  }
}
