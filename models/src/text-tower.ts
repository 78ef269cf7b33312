/**
 * The English text tower: English search terms (english.ts's lemmatized, stemmed
 * words, with their query weights) → a unit vector in the premise space of the
 * index built with one particular encoder (`encoder_id`), so that an English query
 * searches the index's existing vectors. A weighted bag of term vectors, computed
 * here directly (no ONNX session, no tokenizer):
 *   a_t = c_t·exp(s_t) / Σ_u c_u·exp(s_u),  q = Σ_t a_t·E_t,  q̂ = q/‖q‖.
 * Files: `tower.json` (format, dim, encoder_id, terms, bin_bytes, bin_sha256,
 * training metrics) and `tower.bin` (E: terms × dim float32 little-endian, then s:
 * terms float32). Trained by models/train/text_tower.py (models/text-tower/MODEL_CARD.md).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ModelFileMissingError, ModelFormatError } from './errors.js';

export const TOWER_FORMAT = 'premise-lsp-text-tower';

export interface TextTower {
  /** The encoder whose premise vectors the tower was trained against. */
  readonly encoderId: string;
  readonly dim: number;
  /** How many English terms it knows. */
  readonly size: number;
  /** The unit query vector of these terms (weights ≥ 0), or undefined when it knows none of them. */
  embed(terms: ReadonlyMap<string, number>): Float32Array | undefined;
}

interface TowerJson {
  format: string;
  version: number;
  dim: number;
  encoder_id: string;
  terms: string[];
  bin_bytes: number;
  bin_sha256: string;
}

class BagTower implements TextTower {
  private readonly index: Map<string, number>;

  constructor(
    readonly encoderId: string,
    readonly dim: number,
    terms: string[],
    private readonly vectors: Float32Array,
    private readonly importance: Float32Array,
  ) {
    this.index = new Map(terms.map((t, i) => [t, i]));
  }

  get size(): number {
    return this.index.size;
  }

  embed(terms: ReadonlyMap<string, number>): Float32Array | undefined {
    const known: { id: number; logit: number }[] = [];
    for (const [t, c] of terms) {
      const id = this.index.get(t);
      if (id !== undefined && c > 0) known.push({ id, logit: this.importance[id]! + Math.log(c) });
    }
    if (!known.length) return undefined;
    const max = Math.max(...known.map((k) => k.logit));
    const q = new Float32Array(this.dim);
    let total = 0;
    for (const k of known) {
      const a = Math.exp(k.logit - max);
      total += a;
      const row = k.id * this.dim;
      for (let j = 0; j < this.dim; j++) q[j]! += a * this.vectors[row + j]!;
    }
    let norm = 0;
    for (let j = 0; j < this.dim; j++) norm += (q[j]! / total) ** 2;
    norm = Math.sqrt(norm);
    if (!(norm > 0)) return undefined;
    for (let j = 0; j < this.dim; j++) q[j] = q[j]! / total / norm;
    return q;
  }
}

/**
 * Loads a tower directory; every fault is a ModelError naming the file. With
 * `onlyFor`, a tower trained for another encoder is not read past its tower.json
 * (undefined).
 */
export function loadTextTower(dir: string): TextTower;
export function loadTextTower(dir: string, onlyFor: string): TextTower | undefined;
export function loadTextTower(dir: string, onlyFor?: string): TextTower | undefined {
  const jsonFile = join(dir, 'tower.json');
  const binFile = join(dir, 'tower.bin');
  for (const f of [jsonFile, binFile]) if (!existsSync(f)) throw new ModelFileMissingError(`text tower file missing: ${f}`, f);
  let meta: TowerJson;
  try {
    meta = JSON.parse(readFileSync(jsonFile, 'utf8')) as TowerJson;
  } catch (e) {
    throw new ModelFormatError(`text tower ${jsonFile} is not valid JSON: ${(e as Error).message}`, jsonFile, { cause: e });
  }
  const bad = (why: string, file = jsonFile) => new ModelFormatError(`text tower ${file}: ${why}`, file);
  if (meta?.format !== TOWER_FORMAT || meta.version !== 1) throw bad(`not a ${TOWER_FORMAT} v1 file`);
  if (!Number.isInteger(meta.dim) || meta.dim <= 0) throw bad('dim must be a positive integer');
  if (typeof meta.encoder_id !== 'string' || !meta.encoder_id) throw bad('encoder_id missing');
  if (onlyFor !== undefined && meta.encoder_id !== onlyFor) return undefined;
  if (!Array.isArray(meta.terms) || !meta.terms.every((t) => typeof t === 'string')) throw bad('terms must be a list of strings');
  const bin = readFileSync(binFile);
  const want = meta.terms.length * (meta.dim + 1) * 4;
  if (bin.length !== want || meta.bin_bytes !== want) throw bad(`${bin.length} bytes, expected ${want} (${meta.terms.length} terms × (${meta.dim} + 1) float32)`, binFile);
  if (createHash('sha256').update(bin).digest('hex') !== meta.bin_sha256) throw bad('checksum mismatch (the file is corrupt)', binFile);
  // one copy into an aligned buffer, read as little-endian float32 (as the index store reads its vectors)
  const floats = new Float32Array(bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.length));
  for (let i = 0; i < floats.length; i++) if (!Number.isFinite(floats[i]!)) throw bad('weights are not all finite numbers', binFile);
  const split = meta.terms.length * meta.dim;
  return new BagTower(meta.encoder_id, meta.dim, meta.terms, floats.subarray(0, split), floats.subarray(split));
}
