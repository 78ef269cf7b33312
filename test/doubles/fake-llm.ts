/** A fake OpenAI-compatible chat-completions endpoint on 127.0.0.1:0, for the LLM tests. */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: { model?: string; messages?: { role: string; content: string }[] };
}

/** What to answer: the assistant's content (a string), a whole reply, 'hang' (never answer) or 'flood' (200, then 1 MiB chunks until the client leaves). */
export type Behaviour = (req: FakeRequest) => string | { status: number; body: string; headers?: Record<string, string> } | { refusal: string } | 'hang' | 'flood';

export interface FakeLlm {
  url: string;
  requests: FakeRequest[];
  behaviour: Behaviour;
  close(): Promise<void>;
}

export const chatReply = (content: string) => JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });

export async function fakeLlm(behaviour: Behaviour): Promise<FakeLlm> {
  const hanging = new Set<ServerResponse>();
  const fake: FakeLlm = { url: '', requests: [], behaviour, close: async () => {} };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: FakeRequest['body'] = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        /* recorded as {} */
      }
      const r: FakeRequest = { path: req.url ?? '', headers: req.headers, body };
      fake.requests.push(r);
      const answer = fake.behaviour(r);
      if (answer === 'hang') return void hanging.add(res);
      if (answer === 'flood') {
        hanging.add(res);
        const chunk = Buffer.alloc(1 << 20, 0x20);
        const pump = () => {
          while (!res.destroyed) if (!res.write(chunk)) return void res.once('drain', pump);
        };
        return void (res.writeHead(200, { 'content-type': 'application/json' }), pump());
      }
      if (typeof answer === 'string') return void res.writeHead(200, { 'content-type': 'application/json' }).end(chatReply(answer));
      if ('refusal' in answer) {
        const reply = { choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: answer.refusal }, finish_reason: 'stop' }] };
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
      }
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(answer.body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return fake;
}
