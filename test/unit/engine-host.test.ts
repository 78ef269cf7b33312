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

  it('takes an upgrade from its own load (sparse → hybrid), tells listeners, and ignores one from a superseded load', async () => {
    const sparse = new FixtureEngine([]);
    const hybrid = new FixtureEngine([]);
    const other = new FixtureEngine([]);
    let upgrade!: (e: FixtureEngine) => void;
    const host = new EngineHost(async (req) => {
      if (req?.index === 'other') return other;
      upgrade = req!.upgrade!;
      return sparse;
    }, new Logger(() => {}));
    const upgraded: unknown[] = [];
    host.onUpgrade((e) => upgraded.push(e));
    await host.load({ autoIndex: true, workspaceRoot: '/p' });
    expect(host.now()).toBe(sparse);
    upgrade(hybrid);
    expect(host.now()).toBe(hybrid);
    expect(upgraded).toEqual([hybrid]);
    await host.load('other');
    upgrade(sparse); // the automatic index's late upgrade after the user chose another index
    expect(host.now()).toBe(other);
    expect(upgraded).toEqual([hybrid]);
  });
});
