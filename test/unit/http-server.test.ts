/** The HTTP transport (../../server/src/http/server.ts) with a stand-in API: what a stalled client costs others. */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { LeanHammerApi } from '../../server/src/http/leanhammer.js';
import {
  createApiServer,
  HEADERS_TIMEOUT_MS,
  IDLE_TIMEOUT_MS,
  KEEP_ALIVE_TIMEOUT_MS,
  MAX_CONNECTIONS,
  REQUEST_TIMEOUT_MS,
} from '../../server/src/http/server.js';

/** A stand-in API: echoes the body's length; `/slow` takes 600 ms; `/boom` fails as a corrupt index does. */
const api = {
  handle: async (_m: string, path: string, body: string) => {
    if (path === '/boom') throw new Error('corrupt or unreadable index file /srv/secret-place/index/premises.bin');
    if (path === '/slow') await new Promise((res) => setTimeout(res, 600));
    return { status: 200, body: { got: body.length } };
  },
} as unknown as LeanHammerApi;
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

  it('reads bodies before taking a work place: clients stalled mid-body keep no other caller waiting, then get 408', async () => {
    const port = await start({ maxActive: 1, maxQueued: 4, bodyTimeoutMs: 2000 });
    // two clients each send half a body, then nothing (before: the first held the only place until
    // its 408, the second then held it as long, and the next caller waited for both)
    const stalled = [0, 1].map(() => {
      const sock = connect(port, '127.0.0.1');
      let reply = '';
      sock.setEncoding('utf8');
      sock.on('error', () => undefined);
      const taken = new Promise<void>((res) => sock.on('data', (d: string) => (reply += d).includes('100 Continue') && res()));
      const closed = once(sock, 'close');
      sock.write('POST /retrieve HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n');
      return { sock, taken, closed, reply: () => reply };
    });
    await Promise.all(stalled.map((c) => c.taken));
    for (const c of stalled) c.sock.write('{"state":');
    const r = await fetch(`http://127.0.0.1:${port}/retrieve`, { method: 'POST', body: '{"state":"x"}' });
    expect(r.status).toBe(200);
    // answered while the stalled ones still wait for their body timeout
    for (const c of stalled) expect(c.reply()).not.toMatch(/HTTP\/1\.1 408/);
    await Promise.all(stalled.map((c) => c.closed));
    for (const c of stalled) expect(c.reply()).toMatch(/\r\n\r\nHTTP\/1\.1 408 /);
  }, 15_000);

  it('closes a connection that never sends a byte, and one that never finishes its headers', async () => {
    // before: neither was ever closed within the hang guard (node's defaults: a 60 s header timeout,
    // checked every 30 s; no idle timeout). Each mechanism has its own server, the other's timeout far
    // off, so that which one closes a connection is no race between two timers of the same length.
    // The idle timeout closes the silent one (with nothing written)...
    const idlePort = await start({ idleTimeoutMs: 300, headersTimeoutMs: 20_000 });
    const silent = connect(idlePort, '127.0.0.1');
    let silentReply = '';
    silent.setEncoding('utf8');
    // read what comes: a socket with unread input never sees the server's close, so never closes
    silent.on('data', (d: string) => (silentReply += d));
    silent.on('error', () => undefined);
    await once(silent, 'close');
    expect(silentReply).toBe('');
    // ... the header timeout the one that keeps sending a header byte now and then (never idle for its
    // idle timeout) and never the end of its headers: 408
    const headersPort = await start({ idleTimeoutMs: 20_000, headersTimeoutMs: 300 });
    const half = connect(headersPort, '127.0.0.1');
    let reply = '';
    half.setEncoding('utf8');
    half.on('data', (d: string) => (reply += d));
    half.on('error', () => undefined);
    const closed = once(half, 'close');
    const drip = setInterval(() => half.writable && half.write('x'), 100);
    half.write('POST /retrieve HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    await closed;
    clearInterval(drip);
    expect(reply).toMatch(/^HTTP\/1\.1 408 /);
  }, 30_000); // a hang guard, loose for a loaded machine

  it('idle connections give way to a new caller at the connection cap; one being answered does not (issue 36 item 4)', async () => {
    // before: node refused every connection past the cap, so idle ones, reopened when closed, locked every caller out
    const port = await start({ maxConnections: 5, idleTimeoutMs: 60_000, headersTimeoutMs: 60_000 });
    const idle = await Promise.all(
      [0, 1, 2, 3, 4].map(async (i) => {
        const sock = connect(port, '127.0.0.1');
        sock.on('error', () => undefined);
        sock.on('data', () => undefined);
        const closed = once(sock, 'close');
        await once(sock, 'connect');
        // one that sent part of its headers is idle too
        if (i === 1) sock.write('GET /retrieve HTTP/1.1\r\nHost: x\r\n');
        return { sock, closed };
      }),
    );
    const server = servers.at(-1)!;
    while ((await new Promise<number>((res) => server.getConnections((_e, n) => res(n)))) < 5) await new Promise((res) => setTimeout(res, 10));
    const r = await fetch(`http://127.0.0.1:${port}/retrieve`, { method: 'POST', body: '{"state":"x"}' });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ got: 13 });
    await idle[0]!.closed; // the oldest made room
    expect(idle.slice(1).every((c) => !c.sock.destroyed)).toBe(true);
    for (const c of idle) c.sock.destroy();

    // at a cap of 1, a connection whose request is being worked on is never the one closed
    const one = await start({ maxConnections: 1 });
    const slow = connect(one, '127.0.0.1');
    let reply = '';
    slow.setEncoding('utf8');
    slow.on('error', () => undefined);
    // (100 Continue: its request is taken in)
    const taken = new Promise<void>((res) => slow.on('data', (d: string) => (reply += d).includes('100 Continue') && res()));
    slow.write('POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n');
    await taken;
    await expect(fetch(`http://127.0.0.1:${one}/retrieve`, { method: 'POST', body: '{}' })).rejects.toThrow();
    const closed = once(slow, 'close');
    slow.write('{}');
    await closed;
    expect(reply).toMatch(/\r\n\r\nHTTP\/1\.1 200 /);
  });

  it('leaves a connection alone while its request is worked on, however long past the idle timeout', async () => {
    const port = await start({ idleTimeoutMs: 200 });
    const r = await fetch(`http://127.0.0.1:${port}/slow`, { method: 'POST', body: '{}' });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ got: 2 });
  });

  it('sets the header, request, keep-alive and idle timeouts and the connection cap explicitly', async () => {
    const server = createApiServer(api, () => undefined);
    expect(server.headersTimeout).toBe(HEADERS_TIMEOUT_MS);
    expect(server.requestTimeout).toBe(REQUEST_TIMEOUT_MS);
    expect(server.keepAliveTimeout).toBe(KEEP_ALIVE_TIMEOUT_MS);
    expect(server.timeout).toBe(IDLE_TIMEOUT_MS);
    expect(server.maxConnections).toBe(2 * MAX_CONNECTIONS); // node's backstop; ours is MAX_CONNECTIONS, idle ones giving way
    expect(HEADERS_TIMEOUT_MS).toBeLessThanOrEqual(REQUEST_TIMEOUT_MS);
    // an idle connection is closed before a half-sent header would be: idle ones give way first
    expect(IDLE_TIMEOUT_MS).toBeLessThan(HEADERS_TIMEOUT_MS);
  });

  it('answers an internal error with a generic 500 and logs the detail (a path on this machine) only to the log', async () => {
    const port = await start({});
    logged.length = 0;
    const r = await fetch(`http://127.0.0.1:${port}/boom`, { method: 'POST', body: '{}' });
    expect(r.status).toBe(500);
    const text = await r.text();
    expect(text).not.toMatch(/secret-place|premises\.bin|corrupt/);
    expect(JSON.parse(text)).toEqual({ error: expect.stringMatching(/internal error/) });
    expect(logged.join('\n')).toMatch(/corrupt or unreadable index file \/srv\/secret-place\/index\/premises\.bin/);
  });

  it('refuses a body that would take the bodies held at once past their bound with 503 and Retry-After', async () => {
    const port = await start({ maxBufferedBytes: 1000 });
    const r = await fetch(`http://127.0.0.1:${port}/retrieve`, { method: 'POST', body: 'x'.repeat(2000) });
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('1');
    // and the bytes are given back: the next (small) request is read
    const ok = await fetch(`http://127.0.0.1:${port}/retrieve`, { method: 'POST', body: 'x'.repeat(500) });
    expect(await ok.json()).toEqual({ got: 500 });
  });
});
