/**
 * Tokenizer for a Hugging Face model directory, wrapping @huggingface/tokenizers (pure JS).
 *
 * That library has no truncation or padding of its own, so this module tokenises without special
 * tokens, truncates (longest-first for pairs), then applies the tokenizer.json post-processor
 * (e.g. `[CLS] A [SEP] B [SEP]`) and pads a batch to its longest row.
 */
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { ModelFormatError, errorMessage } from './errors.js';
import { readJson } from './model-dir.js';

/** Hard cap on sequence length (BERT-style position tables). */
export const MAX_LENGTH_CAP = 512;
/** tokenizer_config.json values above this mean "unset" (transformers writes 1e30). */
const UNSET_MODEL_MAX_LENGTH = 1_000_000;

export interface TokenizerOptions {
  /** Further cap on the sequence length (e.g. `max_length` from premise_lsp.json). */
  maxLength?: number;
}

/** One encoded sequence, special tokens included, already truncated. */
export interface EncodedText {
  ids: number[];
  typeIds: number[];
}

/** A padded batch, row-major [batchSize, seqLength], named as BERT-style ONNX inputs. */
export interface TokenBatch {
  input_ids: BigInt64Array;
  attention_mask: BigInt64Array;
  token_type_ids: BigInt64Array;
  batchSize: number;
  seqLength: number;
}

interface PostProcessed {
  tokens: string[];
  token_type_ids?: number[];
}

type PostProcessor = (a: string[], b: string[] | null, addSpecial: boolean) => PostProcessed;

export class TextTokenizer {
  /** Maximum sequence length including special tokens. */
  readonly maxLength: number;
  readonly padId: number;
  readonly unkId: number | undefined;
  private readonly post: PostProcessor | null;
  private readonly specialsSingle: number;
  private readonly specialsPair: number;

  constructor(
    private readonly tok: Tokenizer,
    /** tokenizer.json path, for error messages. */
    readonly file: string,
    maxLength: number,
    padId: number,
  ) {
    this.maxLength = maxLength;
    this.padId = padId;
    this.unkId = tok.model?.unk_token_id;
    this.post = tok.post_processor ? (tok.post_processor as unknown as PostProcessor) : null;
    this.specialsSingle = this.postProcess([], null).tokens.length;
    this.specialsPair = this.postProcess([], []).tokens.length;
    if (this.maxLength <= this.specialsPair) {
      throw new ModelFormatError(
        `${file}: max length ${this.maxLength} leaves no room for text after ${this.specialsPair} special tokens`,
        file,
      );
    }
  }

  /** Word pieces of `text`, no special tokens, no truncation. */
  tokenize(text: string): string[] {
    return this.tok.tokenize(text, { add_special_tokens: false });
  }

  tokenToId(token: string): number | undefined {
    return this.tok.token_to_id(token);
  }

  idToToken(id: number): string | undefined {
    return this.tok.id_to_token(id);
  }

  decode(ids: number[], skipSpecialTokens = true): string {
    if (ids.length === 0) return '';
    return this.tok.decode(ids, { skip_special_tokens: skipSpecialTokens });
  }

  /** Encode one text, or a (text, pair) pair, with special tokens, truncated to maxLength. */
  encode(text: string, pair?: string): EncodedText {
    let a = this.tokenize(text);
    if (pair === undefined) {
      const budget = this.maxLength - this.specialsSingle;
      if (a.length > budget) a = a.slice(0, budget);
      return this.toIds(this.postProcess(a, null));
    }
    let b = this.tokenize(pair);
    const budget = this.maxLength - this.specialsPair;
    let na = a.length;
    let nb = b.length;
    // longest_first: drop one token at a time from the longer sequence (ties: from the second)
    if (na + nb > budget) {
      const excess = na + nb - budget;
      const diff = Math.abs(na - nb);
      const fromLonger = Math.min(excess, diff);
      if (na > nb) na -= fromLonger;
      else nb -= fromLonger;
      const rest = excess - fromLonger; // now na === nb (or excess absorbed)
      nb -= Math.ceil(rest / 2);
      na -= Math.floor(rest / 2);
      a = a.slice(0, na);
      b = b.slice(0, nb);
    }
    return this.toIds(this.postProcess(a, b));
  }

  /** Encode and pad a batch; `pairs[i]` (if given) is the second sequence of row i. */
  encodeBatch(texts: string[], pairs?: string[]): TokenBatch {
    if (pairs && pairs.length !== texts.length) {
      throw new RangeError(`encodeBatch: ${texts.length} texts but ${pairs.length} pairs`);
    }
    return this.pad(texts.map((t, i) => this.encode(t, pairs?.[i])));
  }

  /** Pad encoded rows to the longest one (right padding, mask 0, type id 0). */
  pad(rows: EncodedText[]): TokenBatch {
    const batchSize = rows.length;
    let seqLength = 0;
    for (const r of rows) seqLength = Math.max(seqLength, r.ids.length);
    const n = batchSize * seqLength;
    const input_ids = new BigInt64Array(n);
    const attention_mask = new BigInt64Array(n);
    const token_type_ids = new BigInt64Array(n);
    if (this.padId !== 0) input_ids.fill(BigInt(this.padId));
    rows.forEach((r, i) => {
      const base = i * seqLength;
      for (let j = 0; j < r.ids.length; j++) {
        input_ids[base + j] = BigInt(r.ids[j]!);
        attention_mask[base + j] = 1n;
        token_type_ids[base + j] = BigInt(r.typeIds[j]!);
      }
    });
    return { input_ids, attention_mask, token_type_ids, batchSize, seqLength };
  }

  private postProcess(a: string[], b: string[] | null): PostProcessed {
    if (this.post) {
      // the library's post-processors mutate nothing but may return shared arrays: copy
      const out = this.post(a.slice(), b ? b.slice() : null, true);
      return { tokens: out.tokens, token_type_ids: out.token_type_ids };
    }
    return {
      tokens: [...a, ...(b ?? [])],
      token_type_ids: [...a.map(() => 0), ...(b ?? []).map(() => 1)],
    };
  }

  private toIds(p: PostProcessed): EncodedText {
    const ids = p.tokens.map((t) => {
      const id = this.tok.token_to_id(t) ?? this.unkId;
      if (id === undefined) {
        throw new ModelFormatError(`${this.file}: token "${t}" not in vocabulary and no unk_token`, this.file);
      }
      return id;
    });
    const typeIds =
      p.token_type_ids && p.token_type_ids.length === ids.length ? p.token_type_ids : ids.map(() => 0);
    return { ids, typeIds };
  }
}

function finitePositive(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 && v < UNSET_MODEL_MAX_LENGTH ? Math.floor(v) : undefined;
}

/** min(512, tokenizer_config.model_max_length when set, opts.maxLength). */
export function effectiveMaxLength(tokenizerConfig: Record<string, unknown>, maxLength?: number): number {
  let n = MAX_LENGTH_CAP;
  const fromConfig = finitePositive(tokenizerConfig.model_max_length);
  if (fromConfig !== undefined) n = Math.min(n, fromConfig);
  if (maxLength !== undefined) n = Math.min(n, Math.floor(maxLength));
  return n;
}

/** Load `tokenizer.json` (+ optional `tokenizer_config.json`) from a model directory. */
export async function loadTokenizer(dir: string, opts: TokenizerOptions = {}): Promise<TextTokenizer> {
  const file = join(dir, 'tokenizer.json');
  const json = await readJson(file, true);
  if (typeof json !== 'object' || json === null || Array.isArray(json) || !('model' in json)) {
    throw new ModelFormatError(`${file}: not a tokenizer.json (no "model" object)`, file);
  }
  const configFile = join(dir, 'tokenizer_config.json');
  const rawConfig = (await readJson(configFile)) ?? {};
  if (typeof rawConfig !== 'object' || rawConfig === null || Array.isArray(rawConfig)) {
    throw new ModelFormatError(`${configFile}: expected a JSON object`, configFile);
  }
  const config = rawConfig as Record<string, unknown>;
  // the library insists that these keys exist (null is fine)
  const tj = {
    normalizer: null,
    pre_tokenizer: null,
    post_processor: null,
    decoder: null,
    added_tokens: [],
    ...(json as Record<string, unknown>),
  };
  let tok: Tokenizer;
  try {
    tok = new Tokenizer(tj, config);
  } catch (e) {
    throw new ModelFormatError(`cannot load tokenizer ${file}: ${errorMessage(e)}`, file, { cause: e });
  }
  const padding = (tj as { padding?: { pad_id?: unknown } | null }).padding;
  const pt = config.pad_token as unknown;
  const padToken =
    typeof pt === 'string'
      ? pt
      : typeof pt === 'object' && pt !== null && typeof (pt as { content?: unknown }).content === 'string'
        ? (pt as { content: string }).content
        : '[PAD]';
  const padId =
    (typeof padding?.pad_id === 'number' ? padding.pad_id : undefined) ?? tok.token_to_id(padToken) ?? 0;
  return new TextTokenizer(tok, file, effectiveMaxLength(config, opts.maxLength), padId);
}
