/**
 * `models pull`: fetch a model's files from a Hugging Face style server
 * (`<base>/<repo>/resolve/<revision>/<path>`) into a directory, verified and resumable.
 */
import { isAbsolute, join, normalize, sep } from 'node:path';
import { downloadFile } from './download.js';
import { DownloadError } from './errors.js';
import { knownFile } from './known-models.js';

export const DEFAULT_ENDPOINT = 'https://huggingface.co';
export const DEFAULT_REVISION = 'main';
export const DEFAULT_FILES: readonly string[] = [
  'config.json',
  'tokenizer.json',
  'tokenizer_config.json',
  'special_tokens_map.json',
  'onnx/model.onnx',
];

export interface PullProgress {
  file: string;
  done: number;
  total?: number;
}

export interface PullOptions {
  revision?: string;
  /** Paths inside the repository (default DEFAULT_FILES). `.onnx` files are required; others are skipped on 404. */
  files?: string[];
  /** Directory to write into (created if needed); files keep their repository paths. */
  dest: string;
  /** Server base URL (default: env HF_ENDPOINT, else https://huggingface.co). */
  baseUrl?: string;
  onProgress?: (p: PullProgress) => void;
  /** Bearer token for gated repositories (default: env HF_TOKEN); sent to the base URL's origin only. */
  token?: string;
  signal?: AbortSignal;
}

export interface PulledFile {
  path: string;
  bytes: number;
  sha256: string;
}

export interface PullResult {
  files: PulledFile[];
  /** Optional files the repository does not have (404). */
  skipped: string[];
}

const REPO_RE = /^(?:[A-Za-z0-9][\w.-]*\/)?[A-Za-z0-9][\w.-]*$/;

/** The download URL of `path` in `repo` at `revision`. */
export function resolveUrl(baseUrl: string, repo: string, revision: string, path: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  const enc = (p: string) => p.split('/').map(encodeURIComponent).join('/');
  return `${base}/${enc(repo)}/resolve/${encodeURIComponent(revision)}/${enc(path)}`;
}

function checkRepoPath(path: string): void {
  const n = normalize(path);
  if (!path || isAbsolute(path) || n.startsWith('..') || n.split(sep).includes('..') || path.includes('\\')) {
    throw new DownloadError(`invalid file path "${path}" (must be relative, inside the repository)`, path);
  }
}

/** A file counts as the model (so a 404 is an error) when it is an ONNX file. */
export function isRequiredFile(path: string): boolean {
  return path.endsWith('.onnx');
}

export async function pullModel(repo: string, opts: PullOptions): Promise<PullResult> {
  if (!REPO_RE.test(repo) || repo.includes('..')) {
    throw new DownloadError(`invalid repository name "${repo}" (expected owner/name)`, repo);
  }
  const files = opts.files ?? [...DEFAULT_FILES];
  files.forEach(checkRepoPath);
  const revision = opts.revision ?? DEFAULT_REVISION;
  const baseUrl = opts.baseUrl ?? process.env.HF_ENDPOINT ?? DEFAULT_ENDPOINT;
  const token = opts.token ?? process.env.HF_TOKEN ?? undefined;
  let authOrigin: string;
  try {
    const u = new URL(baseUrl);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
    authOrigin = u.origin;
  } catch {
    throw new DownloadError(`invalid endpoint "${baseUrl}" (expected an http(s) URL such as ${DEFAULT_ENDPOINT})`, baseUrl);
  }

  const out: PullResult = { files: [], skipped: [] };
  for (const path of files) {
    const known = knownFile(repo, path);
    try {
      const r = await downloadFile({
        url: resolveUrl(baseUrl, repo, revision, path),
        dest: join(opts.dest, path),
        label: `${repo}/${path}`,
        expected: known && {
          bytes: known.bytes,
          sha256: known.sha256,
          source: `the known digest table (${known.model})`,
        },
        token: token || undefined,
        authOrigin,
        signal: opts.signal,
        onProgress: opts.onProgress && ((done, total) => opts.onProgress!({ file: path, done, total })),
      });
      out.files.push({ path, bytes: r.bytes, sha256: r.sha256 });
    } catch (e) {
      if (e instanceof DownloadError && e.status === 404 && !isRequiredFile(path)) {
        out.skipped.push(path);
        continue;
      }
      throw e;
    }
  }
  return out;
}

function fmtBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(1)} ${units[u]}`;
}

/** One-line progress text, e.g. `onnx/model.onnx  12.0 MiB / 86.2 MiB  13.9%`. */
export function formatPullProgress(p: PullProgress): string {
  if (p.total === undefined || p.total === 0) return `${p.file}  ${fmtBytes(p.done)}`;
  const pct = ((100 * p.done) / p.total).toFixed(1);
  return `${p.file}  ${fmtBytes(p.done)} / ${fmtBytes(p.total)}  ${pct}%`;
}
