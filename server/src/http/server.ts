/** node:http transport for the LeanHammer-compatible API: bodies, limits, JSON, errors that never stop the server. */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { LeanHammerApi } from './leanhammer.js';

/** Largest request body (new premises with their signatures can be long). */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

class TooLarge extends Error {}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reject(new TooLarge());
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function createApiServer(api: LeanHammerApi, log: (line: string) => void): Server {
  return createServer(async (req, res) => {
    const send = (status: number, body: unknown) => {
      if (res.headersSent || res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
    };
    try {
      const body = req.method === 'POST' ? await readBody(req) : '';
      const r = await api.handle(req.method ?? 'GET', req.url ?? '/', body);
      send(r.status, r.body);
    } catch (e) {
      if (e instanceof TooLarge) return send(413, { error: `request body over ${MAX_BODY_BYTES} bytes` });
      log(`${req.method} ${req.url}: ${(e as Error).stack ?? e}`);
      send(500, { error: (e as Error).message });
    }
  });
}
