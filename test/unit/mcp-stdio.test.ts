/** The MCP stdio transport's reading of an over-long message's id from its first and last bytes (server/src/mcp/stdio.ts). */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { idOf, LineTransport } from '../../server/src/mcp/stdio.js';

describe('idOf', () => {
  it('finds a top-level id at the start, never one nested in params', () => {
    expect(idOf('{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"arguments":{"query":"xx', '')).toBe(12);
    expect(idOf('{"params":{"id":5,"arguments":{"query":"x', 'xx"}}}')).toBeNull();
    expect(idOf('{"method":"id","params":{"query":"x', 'x"}},"id":"req-3"}')).toBe('req-3');
  });

  it('finds an id written last, as the SDK writes it', () => {
    expect(idOf('{"method":"tools/call","params":{"arguments":{"query":"xx', 'xxx"}},"jsonrpc":"2.0","id":41}\r')).toBe(41);
    expect(idOf('{"method":"x","params":{"q":"', 'a"}}')).toBeNull();
  });
});

describe('LineTransport', () => {
  it('takes messages split across chunks and several in one chunk, multi-byte characters included', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const t = new LineTransport({ isMessage: () => true, stdin, stdout });
    const got: unknown[] = [];
    t.onmessage = (m) => got.push(m);
    await t.start();
    const line = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'm', params: { q: '⊢ a ≤ b' } }) + '\n');
    const cut = line.indexOf(Buffer.from('⊢')) + 1; // inside a multi-byte character
    stdin.write(line.subarray(0, cut));
    stdin.write(line.subarray(cut, cut + 1));
    stdin.write(Buffer.concat([line.subarray(cut + 1), line]));
    await new Promise((r) => setImmediate(r));
    expect(got).toEqual([JSON.parse(line.toString()), JSON.parse(line.toString())]);
    await t.close();
  });
});
