/** The HTTP transport (../../server/src/http/server.ts) with a stand-in API: what a stalled client costs others. */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { LeanHammerApi } from '../../server/src/http/leanhammer.js';
import { createApiServer } from '../../server/src/http/server.js';

const api = { handle: async (_m: string, _p: string, body: string) => ({ status: 200, body: { got: body.length } }) } as unknown as LeanHammerApi;
const servers: import('node:http').Server[] = [];
afterEach(() => servers.splice(0).forEach((s) => s.close()));

const logged: string[] = [];
async function start(opts: Parameters<typeof createApiServer>[2]): Promise<number> {
  const server = createApiServer(api, (line) => logged.push(line), opts);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

describe('API server transport', () => {
  it('answers a client that stalls mid-body with 408 and frees its place for the next caller', async () => {
    const port = await start({ maxActive: 1, maxQueued: 4, bodyTimeoutMs: 200 });
    // takes the only place, sends half its body, then nothing
    const stalled = connect(port, '127.0.0.1');
    let reply = '';
    stalled.setEncoding('utf8');
    // (100 Continue: the server has taken the request in, and so its place)
    const taken = new Promise<void>((res) => stalled.on('data', (d: string) => (reply += d).includes('100 Continue') && res()));
    stalled.on('error', () => undefined);
    const closed = once(stalled, 'close');
    stalled.write('POST /retrieve HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n');
    await taken;
    stalled.write('{"state":');
    // the next caller is answered (before the fix it waited for node's 300 s request timeout)
    const r = await fetch(`http://127.0.0.1:${port}/retrieve`, { method: 'POST', body: '{"state":"x"}' });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ got: 13 });
    await closed;
    expect(reply).toMatch(/\r\n\r\nHTTP\/1\.1 408 /);
    expect(reply).toMatch(/"error":"request body not received within 0.2 s"/);
  });

  it('lets a client leave mid-body without logging an error, and frees its place', async () => {
    const port = await start({ maxActive: 1, maxQueued: 4 });
    logged.length = 0;
    const leaving = connect(port, '127.0.0.1');
    leaving.setEncoding('utf8');
    const taken = new Promise<void>((res) => leaving.on('data', (d: string) => d.includes('100 Continue') && res()));
    leaving.on('error', () => undefined);
    leaving.write('POST /retrieve HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n');
    await taken;
    leaving.end('{"state":'); // half the body, then gone
    // the only place is handed on once the one that left is done with (and has logged, if it does)
    const r = await fetch(`http://127.0.0.1:${port}/retrieve`, { method: 'POST', body: '{}' });
    expect(r.status).toBe(200);
    expect(logged).toEqual([]);
  });
});
