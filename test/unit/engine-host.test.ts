import { describe, expect, it } from 'vitest';
import { EngineHost, type LoadRequest } from '../../server/src/lsp/engine-host.js';
import { FixtureEngine } from '../../server/src/engine/fixture-engine.js';
import { Logger } from '../../server/src/lsp/log.js';

describe('EngineHost', () => {
  it('keeps the newest load when an older, slower one (an index build) finishes later', async () => {
    const slow = new FixtureEngine([]);
    const fast = new FixtureEngine([]);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const seen: (LoadRequest | undefined)[] = [];
    const host = new EngineHost(async (req) => {
      seen.push(req);
      if (req?.index === 'fast') return fast;
      await gate;
      return slow;
    }, new Logger(() => {}));
    const first = host.load({ autoIndex: true, workspaceRoot: '/p' });
    expect(host.load({ autoIndex: true, workspaceRoot: '/p' })).toBe(first); // same request: same load
    await host.load('fast');
    expect(host.now()).toBe(fast);
    release();
    await first;
    expect(host.now()).toBe(fast);
    expect(seen.map((r) => r?.index)).toEqual([undefined, 'fast']);
    expect(seen[0]?.log).toBeDefined(); // the loader gets the session logger
  });
});
