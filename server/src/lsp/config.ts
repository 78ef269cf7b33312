/**
 * Settings (section `premise-lsp`), from `initializationOptions` and
 * `workspace/didChangeConfiguration`. Each key is validated on its own: a bad
 * value produces an error message and keeps the previous value.
 */
import type { Mode } from '../engine/types.js';
import { IMPORT_POLICIES, type ImportPolicy } from '../../../indexes/src/module-imports.js';
import { TRIAL_MODES, type TrialSettings } from './trials/runner.js';

export type { ImportPolicy };

export interface PremiseConfig {
  index?: string;
  k: number;
  mode: Mode;
  /** Unset: the engine's default (the shipped reranker says whether it helps). */
  rerank?: boolean;
  goalTimeoutMs: number;
  upstreamCommand?: string[];
  /** Silence while requests wait this long counts as a hang (0 = never). */
  upstreamHangTimeoutMs: number;
  /**
   * How long the prover may stay silent before answering the editor's initialize
   * (0 = wait for ever), and a fifth of how long it may take in all however much it
   * writes meanwhile (INITIALIZE_TOTAL_FACTOR); then premise-lsp answers it and goes
   * on without the prover.
   * Unset: `INITIALIZE_WAIT_MS`, or for ever for Isabelle (it builds its session first).
   */
  upstreamInitializeTimeoutMs?: number;
  completion: { enabled: boolean };
  codeActions: { max: number };
  /** Index the declarations of open documents as they are edited. */
  liveIndex: boolean;
  /** Without an index: build (once, cached) and serve one for the Lean project being edited. */
  autoIndex: boolean;
  /**
   * Optional LLM help for the `premise-lsp.search` command only (completion never
   * waits on it): an OpenAI-compatible endpoint, its model, and the deadline.
   */
  llm: { url?: string; model?: string; timeoutMs: number };
  /**
   * Premises of modules outside the file's import closure: `prefer` ranks them
   * after the others, `only` leaves them out, `any` ranks them alike. Picking
   * one adds its import in every case.
   */
  imports: ImportPolicy;
  /**
   * Trying the top premises against the Lean server (docs/trials.md): `mode`
   * `auto` (in the background when code actions or the goal are asked at a tactic step),
   * `on request` (the `premise-lsp.try` command only) or `off`; how many
   * premises, the wall-clock limit and heartbeats of one trial, and how long the
   * trial document stays open after the last one.
   */
  trials: TrialSettings;
}


export const SECTION = 'premise-lsp';

/** The default bound on the prover's initialize reply (Lean, other provers): a first `lake serve` may take a while. */
export const INITIALIZE_WAIT_MS = 120_000;

/** The bound on the prover's initialize reply under `cfg` (0: none). */
export function initializeWaitMs(cfg: PremiseConfig, flavor: 'lean' | 'isabelle' | 'generic'): number {
  return cfg.upstreamInitializeTimeoutMs ?? (flavor === 'isabelle' ? 0 : INITIALIZE_WAIT_MS);
}

export function defaultConfig(): PremiseConfig {
  return {
    k: 20,
    mode: 'hybrid',
    goalTimeoutMs: 3000,
    upstreamHangTimeoutMs: 300_000,
    completion: { enabled: true },
    codeActions: { max: 5 },
    liveIndex: true,
    autoIndex: true,
    llm: { timeoutMs: 8000 },
    imports: 'prefer',
    trials: { mode: 'on request', premises: 8, timeoutMs: 10_000, heartbeats: 100_000, keepOpenMs: 60_000 },
  };
}

type Check = (v: unknown) => string | undefined;
const int = (lo: number, hi: number): Check => (v) =>
  typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi ? undefined : `must be an integer from ${lo} to ${hi}`;
const bool: Check = (v) => (typeof v === 'boolean' ? undefined : 'must be true or false');
const str: Check = (v) => (typeof v === 'string' && v.length > 0 ? undefined : 'must be a non-empty string');
const oneOf = (xs: string[]): Check => (v) => (typeof v === 'string' && xs.includes(v) ? undefined : `must be one of ${xs.join(', ')}`);
const httpUrl: Check = (v) => {
  if (v === '') return undefined; // empty: LLM help off
  try {
    const u = new URL(v as string);
    if (u.username || u.password) return 'must not hold a user name or password (put the API key in PREMISE_LSP_LLM_KEY)';
    return u.protocol === 'http:' || u.protocol === 'https:' ? undefined : 'must be an http(s) URL';
  } catch {
    return 'must be an http(s) URL (or "" for none)';
  }
};
const command: Check = (v) =>
  (typeof v === 'string' && v.trim().length > 0) || (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string'))
    ? undefined
    : 'must be a command line (string or list of strings)';

const KEYS: Record<string, { check: Check; set(c: PremiseConfig, v: unknown): void }> = {
  index: { check: str, set: (c, v) => (c.index = v as string) },
  k: { check: int(1, 500), set: (c, v) => (c.k = v as number) },
  mode: { check: oneOf(['bm25', 'dense', 'hybrid']), set: (c, v) => (c.mode = v as Mode) },
  rerank: { check: bool, set: (c, v) => (c.rerank = v as boolean) },
  goalTimeoutMs: { check: int(0, 600_000), set: (c, v) => (c.goalTimeoutMs = v as number) },
  upstreamHangTimeoutMs: { check: int(0, 86_400_000), set: (c, v) => (c.upstreamHangTimeoutMs = v as number) },
  upstreamInitializeTimeoutMs: { check: int(0, 86_400_000), set: (c, v) => (c.upstreamInitializeTimeoutMs = v as number) },
  upstreamCommand: {
    check: command,
    set: (c, v) => (c.upstreamCommand = typeof v === 'string' ? v.trim().split(/\s+/) : (v as string[])),
  },
  'completion.enabled': { check: bool, set: (c, v) => (c.completion = { enabled: v as boolean }) },
  'codeActions.max': { check: int(0, 50), set: (c, v) => (c.codeActions = { max: v as number }) },
  liveIndex: { check: bool, set: (c, v) => (c.liveIndex = v as boolean) },
  autoIndex: { check: bool, set: (c, v) => (c.autoIndex = v as boolean) },
  'llm.url': { check: httpUrl, set: (c, v) => (c.llm = { ...c.llm, url: (v as string) || undefined }) },
  'llm.model': { check: str, set: (c, v) => (c.llm = { ...c.llm, model: v as string }) },
  imports: { check: oneOf([...IMPORT_POLICIES]), set: (c, v) => (c.imports = v as ImportPolicy) },
  'llm.timeoutMs': { check: int(100, 120_000), set: (c, v) => (c.llm = { ...c.llm, timeoutMs: v as number }) },
  // `"trials": "off"` is short for `"trials": {"mode": "off"}`
  trials: { check: oneOf([...TRIAL_MODES]), set: (c, v) => (c.trials = { ...c.trials, mode: v as TrialSettings['mode'] }) },
  'trials.mode': { check: oneOf([...TRIAL_MODES]), set: (c, v) => (c.trials = { ...c.trials, mode: v as TrialSettings['mode'] }) },
  'trials.premises': { check: int(1, 50), set: (c, v) => (c.trials = { ...c.trials, premises: v as number }) },
  'trials.timeoutMs': { check: int(100, 600_000), set: (c, v) => (c.trials = { ...c.trials, timeoutMs: v as number }) },
  'trials.heartbeats': { check: int(0, 100_000_000), set: (c, v) => (c.trials = { ...c.trials, heartbeats: v as number }) },
  'trials.keepOpenMs': { check: int(0, 3_600_000), set: (c, v) => (c.trials = { ...c.trials, keepOpenMs: v as number }) },
};

/** Flatten `{completion: {enabled: x}}` and `{"completion.enabled": x}` alike. */
function flatten(input: Record<string, unknown>, prefix = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const [k, v] of Object.entries(input)) {
    const key = prefix + k;
    // (a key may take a word or a table: `trials: "off"`, `trials: {mode: "off"}`)
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) flatten(v as Record<string, unknown>, key + '.', out);
    else out[key] = v;
  }
  return out;
}

export interface ConfigResult {
  config: PremiseConfig;
  errors: string[];
  changed: string[];
}

/** Apply `input` (the section's object; `null`/absent values mean "unset": keep). */
export function applyConfig(prev: PremiseConfig, input: unknown): ConfigResult {
  const config: PremiseConfig = { ...prev, completion: { ...prev.completion }, codeActions: { ...prev.codeActions }, llm: { ...prev.llm }, trials: { ...prev.trials } };
  const errors: string[] = [];
  const changed: string[] = [];
  // (an empty list is an empty table as Lua clients encode it: no settings)
  if (input === undefined || input === null || (Array.isArray(input) && input.length === 0)) return { config, errors, changed };
  if (typeof input !== 'object' || Array.isArray(input)) {
    return { config, errors: [`settings "${SECTION}" must be an object`], changed };
  }
  for (const [key, value] of Object.entries(flatten(input as Record<string, unknown>))) {
    if (value === undefined || value === null) continue;
    const spec = KEYS[key];
    if (!spec) continue; // other tools' settings may share the object
    const err = spec.check(value);
    if (err) {
      // (credentials in a URL are not repeated back)
      const shown = JSON.stringify(value)?.slice(0, 80).replace(/\/\/[^/@"]*@/, '//…@');
      errors.push(`${SECTION}.${key} ${err} (got ${shown}); keeping the previous value`);
      continue;
    }
    const before = JSON.stringify(getKey(config, key));
    spec.set(config, value);
    if (JSON.stringify(getKey(config, key)) !== before) changed.push(key);
  }
  return { config, errors, changed };
}

function getKey(c: PremiseConfig, key: string): unknown {
  return key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], c);
}

/** Our section from `initializationOptions` (`{"premise-lsp": {...}}`, or the whole object when standalone). */
export function sectionOf(options: unknown, wholeObjectIsOurs: boolean): unknown {
  if (typeof options !== 'object' || options === null) return undefined;
  const o = options as Record<string, unknown>;
  if (SECTION in o) return o[SECTION];
  if ('premiseLsp' in o) return o.premiseLsp;
  return wholeObjectIsOurs ? o : undefined;
}
