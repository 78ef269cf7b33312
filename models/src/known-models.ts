/**
 * Sizes and SHA-256 digests of known model files (from shared/models/README.md). The downloader
 * checks any file listed here in addition to the digest the server announces (X-Linked-Etag).
 */

export interface KnownFile {
  /** Short model name. */
  model: string;
  /** Hugging Face repositories that serve this file. */
  repos: readonly string[];
  /** Path inside the repository. */
  path: string;
  bytes: number;
  sha256: string;
}

export const KNOWN_FILES: readonly KnownFile[] = [
  {
    model: 'all-MiniLM-L6-v2',
    repos: ['sentence-transformers/all-MiniLM-L6-v2'],
    path: 'onnx/model.onnx',
    bytes: 90387606,
    sha256: '759c3cd2b7fe7e93933ad23c4c9181b7396442a2ed746ec7c1d46192c469c46e',
  },
  {
    model: 'all-MiniLM-L6-v2',
    repos: ['sentence-transformers/all-MiniLM-L6-v2'],
    path: 'onnx/model_quantized.onnx',
    bytes: 22972370,
    sha256: 'afdb6f1a0e45b715d0bb9b11772f032c399babd23bfc31fed1c170afc848bdb1',
  },
  {
    model: 'gte-small',
    repos: ['thenlper/gte-small', 'Supabase/gte-small'],
    path: 'onnx/model_quantized.onnx',
    bytes: 34014427,
    sha256: '34440558460f3d0d05fda102ade2d2a0672d112dd8c05b540c8fc3bc2051db90',
  },
  {
    model: 'ms-marco-MiniLM-L12-v2',
    repos: ['cross-encoder/ms-marco-MiniLM-L12-v2'],
    path: 'model.onnx',
    bytes: 133743863,
    sha256: '2ac389ab6abe08dcbddf2c41a69b6a18853e0dca440adbc2abc1adfcee46483f',
  },
  {
    model: 'ms-marco-MiniLM-L12-v2',
    repos: ['cross-encoder/ms-marco-MiniLM-L12-v2'],
    path: 'model_quint8_avx2.onnx',
    bytes: 34311898,
    sha256: '0a9906ae940e137b83d512c8d0f5c6ce9980bf487b168d40b9522b4747c4c89b',
  },
];

/** The known entry for `path` in `repo` (repository names compare case-insensitively). */
export function knownFile(repo: string, path: string): KnownFile | undefined {
  const r = repo.toLowerCase();
  return KNOWN_FILES.find((k) => k.path === path && k.repos.some((x) => x.toLowerCase() === r));
}
