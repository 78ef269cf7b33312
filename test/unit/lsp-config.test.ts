import { describe, expect, it } from 'vitest';
import { applyConfig, defaultConfig, initializeWaitMs, sectionOf } from '../../server/src/lsp/config.js';

describe('settings', () => {
  it('has the documented defaults', () => {
    expect(defaultConfig()).toMatchObject({ k: 20, mode: 'hybrid', goalTimeoutMs: 3000, completion: { enabled: true }, codeActions: { max: 5 } });
    expect(defaultConfig().rerank).toBeUndefined(); // the engine's default
  });
  it('applies valid keys, nested or dotted, and keeps the previous value for invalid ones', () => {
    const r = applyConfig(defaultConfig(), { k: 0, mode: 'dense', 'completion.enabled': false, codeActions: { max: 2 }, upstreamCommand: 'lean --server', other: 1 });
    expect(r.config).toMatchObject({ k: 20, mode: 'dense', completion: { enabled: false }, codeActions: { max: 2 }, upstreamCommand: ['lean', '--server'] });
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatch(/premise-lsp\.k must be an integer from 1 to 500 \(got 0\); keeping the previous value/);
    expect(r.changed.sort()).toEqual(['codeActions.max', 'completion.enabled', 'mode', 'upstreamCommand']);
  });
  it('imports: prefer by default; prefer, only or any; anything else refused, the previous value kept', () => {
    expect(defaultConfig().imports).toBe('prefer');
    const r = applyConfig(defaultConfig(), { imports: 'only' });
    expect(r.config.imports).toBe('only');
    expect(r.changed).toEqual(['imports']);
    const bad = applyConfig(r.config, { imports: 'never' });
    expect(bad.config.imports).toBe('only');
    expect(bad.errors[0]).toMatch(/premise-lsp\.imports must be one of prefer, only, any \(got "never"\)/);
  });
  it('upstreamInitializeTimeoutMs: 120 s unset (Isabelle: no limit), else what is set', () => {
    expect(initializeWaitMs(defaultConfig(), 'lean')).toBe(120_000);
    expect(initializeWaitMs(defaultConfig(), 'generic')).toBe(120_000);
    expect(initializeWaitMs(defaultConfig(), 'isabelle')).toBe(0);
    const r = applyConfig(defaultConfig(), { upstreamInitializeTimeoutMs: 5000 });
    expect(r.changed).toEqual(['upstreamInitializeTimeoutMs']);
    expect(initializeWaitMs(r.config, 'isabelle')).toBe(5000);
    expect(applyConfig(defaultConfig(), { upstreamInitializeTimeoutMs: -1 }).errors).toHaveLength(1);
  });
  it('rejects a non-object section', () => {
    expect(applyConfig(defaultConfig(), 'x').errors).toHaveLength(1);
    expect(applyConfig(defaultConfig(), null).errors).toHaveLength(0);
    expect(applyConfig(defaultConfig(), [1]).errors).toHaveLength(1);
  });
  it('refuses an LLM URL with a password, without repeating the password', () => {
    const r = applyConfig(defaultConfig(), { llm: { url: 'http://me:s3cret@localhost:11434' } });
    expect(r.config.llm.url).toBeUndefined();
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatch(/user name or password/);
    expect(r.errors[0]).not.toContain('s3cret');
  });
  it('reads an empty list as no settings (Lua clients encode an empty table as [])', () => {
    const r = applyConfig(defaultConfig(), []);
    expect(r.errors).toEqual([]);
    expect(r.config).toEqual(defaultConfig());
  });
  it('finds our section in initializationOptions', () => {
    expect(sectionOf({ 'premise-lsp': { k: 3 }, editDelay: 10 }, false)).toEqual({ k: 3 });
    expect(sectionOf({ editDelay: 10 }, false)).toBeUndefined();
    expect(sectionOf({ k: 3 }, true)).toEqual({ k: 3 });
  });
});
