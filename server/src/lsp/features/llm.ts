/** The LLM client for the `llm` settings (one per url/model/timeout, so its rate limit holds across searches); undefined when off. */
import { LlmClient } from '../../llm/client.js';
import type { PremiseConfig } from '../config.js';

let memo: { key: string; client: LlmClient } | undefined;

export function llmClientFor(cfg: PremiseConfig['llm']): LlmClient | undefined {
  if (!cfg.url) return undefined;
  const key = JSON.stringify([cfg.url, cfg.model, cfg.timeoutMs]);
  // the whole search waits at most timeoutMs: no retries within it
  if (memo?.key !== key) memo = { key, client: new LlmClient({ url: cfg.url, model: cfg.model, timeoutMs: cfg.timeoutMs, retries: 0 }) };
  return memo.client;
}
