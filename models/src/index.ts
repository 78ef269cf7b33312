/** Model runtime: tokenizer, ONNX sentence encoder, cross-encoder, and the `models pull` downloader. */
export { loadEncoder, loadOnnxEncoder, OnnxEncoder, DEFAULT_BATCH_SIZE } from './encoder.js';
export type { Encoder, EncoderOptions, EmbedRole } from './encoder.js';
export { loadCrossEncoder, OnnxCrossEncoder, DEFAULT_CROSS_BATCH_SIZE } from './cross-encoder.js';
export type { CrossEncoder, CrossEncoderOptions } from './cross-encoder.js';
export { loadTokenizer, TextTokenizer, effectiveMaxLength, MAX_LENGTH_CAP } from './tokenizer.js';
export type { EncodedText, TokenBatch, TokenizerOptions } from './tokenizer.js';
export { readSettings, resolveModelFile, SETTINGS_FILE, DEFAULT_MODEL_FILES } from './model-dir.js';
export type { ModelSettings, Pooling } from './model-dir.js';
export {
  pullModel,
  formatPullProgress,
  resolveUrl,
  isRequiredFile,
  DEFAULT_FILES,
  DEFAULT_ENDPOINT,
  DEFAULT_REVISION,
} from './pull.js';
export type { PullOptions, PullProgress, PullResult, PulledFile } from './pull.js';
export { KNOWN_FILES, knownFile } from './known-models.js';
export type { KnownFile } from './known-models.js';
export { sha256File } from './fingerprint.js';
export {
  ModelError,
  ModelFileMissingError,
  ModelFormatError,
  InferenceError,
  DownloadError,
  IntegrityError,
} from './errors.js';
