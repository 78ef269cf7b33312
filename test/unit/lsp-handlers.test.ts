/** The one handler table: every capability premise-lsp advertises has its handler there, and lifecycle methods go to the lifecycle. */
import { describe, expect, it } from 'vitest';
import { ownCapabilities } from '../../server/src/lsp/capabilities.js';
import type { HandlerContext } from '../../server/src/lsp/handler-context.js';
import { BEFORE_INITIALIZE, handlerTable } from '../../server/src/lsp/handlers.js';
import type { Lifecycle } from '../../server/src/lsp/lifecycle.js';

/** The request methods a server must answer for each capability it advertises. */
const METHODS_OF: Record<string, (cap: Record<string, unknown>) => string[]> = {
  completionProvider: (c) => ['textDocument/completion', ...(c.resolveProvider ? ['completionItem/resolve'] : [])],
  codeActionProvider: (c) => ['textDocument/codeAction', ...(c.resolveProvider ? ['codeAction/resolve'] : [])],
  hoverProvider: () => ['textDocument/hover'],
  executeCommandProvider: () => ['workspace/executeCommand'],
};

function table() {
  const calls: string[] = [];
  const lifecycle = {
    initialize: () => calls.push('initialize'),
    shutdown: () => calls.push('shutdown'),
    exit: async () => void calls.push('exit'),
    configurationChanged: () => calls.push('configurationChanged'),
  } as unknown as Lifecycle;
  const ctx = { session: {} } as unknown as HandlerContext;
  return { t: handlerTable(ctx, lifecycle), calls };
}

describe('handler table', () => {
  it('has a handler for every request method of every advertised capability', () => {
    const { t } = table();
    const caps = ownCapabilities();
    const wanted = Object.entries(caps).flatMap(([k, v]) => (k === 'textDocumentSync' || k === 'positionEncoding' ? [] : METHODS_OF[k]!(typeof v === 'object' && v ? (v as Record<string, unknown>) : {})));
    expect(wanted.length).toBeGreaterThanOrEqual(6);
    for (const m of wanted) expect(t.requests.has(m), m).toBe(true);
    for (const m of ['textDocument/didOpen', 'textDocument/didChange', 'textDocument/didClose']) expect(t.notifications.has(m), m).toBe(true);
  });

  it('sends initialize, shutdown, exit and settings changes to the lifecycle', () => {
    const { t, calls } = table();
    const req = (method: string) => ({ jsonrpc: '2.0' as const, id: 1, method });
    t.requests.get('initialize')!(req('initialize'), Buffer.alloc(0));
    t.requests.get('shutdown')!(req('shutdown'), Buffer.alloc(0));
    t.notifications.get('exit')!({ jsonrpc: '2.0', method: 'exit' }, Buffer.alloc(0));
    expect(calls).toEqual(['initialize', 'shutdown', 'exit']);
    expect([...BEFORE_INITIALIZE].sort()).toEqual(['initialize', 'shutdown']);
  });
});
