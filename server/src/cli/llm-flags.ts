/** The `--llm*` options (query, http, index) and the client they make; the API key comes from PREMISE_LSP_LLM_KEY. */
import { LlmClient } from '../llm/client.js';
import { intOption, UsageError } from './args.js';

export const LLM_FLAGS = {
  llm: { type: 'string' },
  'llm-model': { type: 'string' },
  'llm-timeout': { type: 'string' },
} as const;

export const LLM_INDEX_FLAGS = {
  ...LLM_FLAGS,
  'llm-rate': { type: 'string' },
  'llm-max': { type: 'string' },
} as const;

const MAX_TIMEOUT_MS = 3_600_000;

interface LlmFlagValues {
  llm?: string;
  'llm-model'?: string;
  'llm-timeout'?: string;
  'llm-rate'?: string;
}

/** The client for `--llm URL`, or undefined without it; `timeoutMs` is the default for `--llm-timeout`. */
export function llmClientFromFlags(values: LlmFlagValues, timeoutMs: number, retries: number, defaultRate?: number): LlmClient | undefined {
  for (const f of ['llm-model', 'llm-timeout', 'llm-rate'] as const) {
    if (values[f] !== undefined && values.llm === undefined) throw new UsageError(`--${f} needs --llm <url>`);
  }
  if (values.llm === undefined) return undefined;
  let rate = defaultRate;
  if (values['llm-rate'] !== undefined) {
    rate = Number(values['llm-rate'].replace(/\/s$/, ''));
    if (!Number.isFinite(rate) || rate <= 0) throw new UsageError(`--llm-rate takes requests per second (e.g. 4 or 0.5/s), got ${JSON.stringify(values['llm-rate'])}`);
  }
  const timeout = intOption(values['llm-timeout'], 'llm-timeout', timeoutMs);
  // a timer takes at most 2³¹-1 ms; past it Node warns on stderr and fires after 1 ms
  if (timeout > MAX_TIMEOUT_MS) throw new UsageError(`--llm-timeout is in milliseconds, at most ${MAX_TIMEOUT_MS} (1 h), got ${timeout}`);
  try {
    return new LlmClient({
      url: values.llm,
      model: values['llm-model'],
      timeoutMs: timeout,
      retries,
      ratePerSecond: rate,
    });
  } catch (e) {
    throw new UsageError(`--llm: ${(e as Error).message}`);
  }
}
