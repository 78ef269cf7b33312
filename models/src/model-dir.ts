/** Reading a Hugging Face style model directory: JSON side files and the ONNX file's location. */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ModelFileMissingError, ModelFormatError, errorMessage } from './errors.js';

export type Pooling = 'mean' | 'cls' | 'none';

/** Our per-model settings, `premise_lsp.json` in the model directory. All fields optional. */
export interface ModelSettings {
  pooling?: Pooling;
  query_prefix?: string;
  document_prefix?: string;
  max_length?: number;
  /** Name of the ONNX output to use (default: sentence_embedding, else last_hidden_state). */
  output?: string;
  /** ONNX file relative to the directory (default: model.onnx, else onnx/model.onnx). */
  model_file?: string;
}

export const SETTINGS_FILE = 'premise_lsp.json';
export const DEFAULT_MODEL_FILES = ['model.onnx', 'onnx/model.onnx'];

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** Parse a JSON file; `undefined` when it does not exist and is optional. */
export async function readJson(path: string, required: true): Promise<unknown>;
export async function readJson(path: string, required?: boolean): Promise<unknown | undefined>;
export async function readJson(path: string, required = false): Promise<unknown | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' && !required) return undefined;
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ModelFileMissingError(`missing required file ${path}`, path);
    }
    throw new ModelFormatError(`cannot read ${path}: ${errorMessage(e)}`, path, { cause: e });
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ModelFormatError(`invalid JSON in ${path}: ${errorMessage(e)}`, path, { cause: e });
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Read and validate `premise_lsp.json` (absent → `{}`). */
export async function readSettings(dir: string): Promise<ModelSettings> {
  const path = join(dir, SETTINGS_FILE);
  const raw = await readJson(path);
  if (raw === undefined) return {};
  if (!isObject(raw)) throw new ModelFormatError(`${path}: expected a JSON object`, path);
  const bad = (field: string, want: string): never => {
    throw new ModelFormatError(`${path}: "${field}" must be ${want}`, path);
  };
  const out: ModelSettings = {};
  if (raw.pooling !== undefined) {
    if (raw.pooling !== 'mean' && raw.pooling !== 'cls' && raw.pooling !== 'none') {
      bad('pooling', '"mean", "cls" or "none"');
    }
    out.pooling = raw.pooling as Pooling;
  }
  for (const key of ['query_prefix', 'document_prefix', 'output', 'model_file'] as const) {
    if (raw[key] === undefined) continue;
    if (typeof raw[key] !== 'string') bad(key, 'a string');
    out[key] = raw[key] as string;
  }
  if (raw.max_length !== undefined) {
    if (typeof raw.max_length !== 'number' || !Number.isInteger(raw.max_length) || raw.max_length < 2) {
      bad('max_length', 'an integer ≥ 2');
    }
    out.max_length = raw.max_length as number;
  }
  return out;
}

/** `config.json` as a plain object (absent → `{}`). */
export async function readConfig(dir: string): Promise<Record<string, unknown>> {
  const path = join(dir, 'config.json');
  const raw = await readJson(path);
  if (raw === undefined) return {};
  if (!isObject(raw)) throw new ModelFormatError(`${path}: expected a JSON object`, path);
  return raw;
}

/** Check that `dir` is a directory; throws ModelFileMissingError naming it otherwise. */
export async function assertDir(dir: string): Promise<void> {
  let ok = false;
  try {
    ok = (await stat(dir)).isDirectory();
  } catch {
    ok = false;
  }
  if (!ok) throw new ModelFileMissingError(`model directory ${dir} does not exist`, dir);
}

/**
 * Locate the ONNX file: an explicit name (option, then `model_file` in premise_lsp.json) must
 * exist; otherwise the first of model.onnx, onnx/model.onnx.
 */
export async function resolveModelFile(dir: string, explicit?: string): Promise<string> {
  if (explicit) {
    const path = join(dir, explicit);
    if (!(await isFile(path))) throw new ModelFileMissingError(`model file ${path} not found`, path);
    return path;
  }
  for (const name of DEFAULT_MODEL_FILES) {
    const path = join(dir, name);
    if (await isFile(path)) return path;
  }
  const first = join(dir, DEFAULT_MODEL_FILES[0]!);
  throw new ModelFileMissingError(
    `model file ${first} not found (also looked for ${DEFAULT_MODEL_FILES.slice(1)
      .map((f) => join(dir, f))
      .join(', ')}; set "model_file" in ${SETTINGS_FILE} to use another name)`,
    first,
  );
}
