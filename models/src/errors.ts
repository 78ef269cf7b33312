/** Errors raised by the model runtime and the downloader. Every message names the file involved. */

export class ModelError extends Error {
  constructor(
    message: string,
    /** The file (or directory) the error is about. */
    readonly file: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A required file of a model directory is missing. */
export class ModelFileMissingError extends ModelError {}

/** A file exists but cannot be parsed or loaded (bad JSON, corrupt ONNX, unsupported graph). */
export class ModelFormatError extends ModelError {}

/** ONNX inference failed. */
export class InferenceError extends ModelError {}

/** A download failed (HTTP error, network error, 404). */
export class DownloadError extends ModelError {
  constructor(
    message: string,
    file: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, file, options);
  }
}

/** A downloaded file does not have the expected size or SHA-256 digest. */
export class IntegrityError extends ModelError {
  constructor(
    message: string,
    file: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(message, file);
  }
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
