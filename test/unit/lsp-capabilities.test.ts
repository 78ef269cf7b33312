import { describe, expect, it } from 'vitest';
import { mergeCapabilities, ownCapabilities, upstreamAdvertises } from '../../server/src/lsp/capabilities.js';
import { utf16Only } from '../../server/src/lsp/lifecycle.js';
import { COMMANDS, ourCommand, projectCommandSuffix, withCommandSuffix } from '../../server/src/lsp/capabilities.js';

const lean = {
  textDocumentSync: { openClose: true, change: 2 },
  completionProvider: { triggerCharacters: ['.'], resolveProvider: true },
  codeActionProvider: { resolveProvider: true },
  hoverProvider: true,
  experimental: { rpcProvider: {} },
};
const isabelle = { textDocumentSync: 2, completionProvider: { resolveProvider: false, triggerCharacters: ['\\'] }, hoverProvider: true, codeActionProvider: true, definitionProvider: true };

describe('mergeCapabilities', () => {
  it('adds ours and keeps the rest', () => {
    const m = mergeCapabilities(lean);
    expect(m.completionProvider).toEqual({ triggerCharacters: ['.', '[', ' ', ','], resolveProvider: true });
    expect(m.experimental).toEqual({ rpcProvider: {} });
    expect(m.textDocumentSync).toEqual(lean.textDocumentSync);
    expect(m.executeCommandProvider).toEqual({ commands: ['premise-lsp.search', 'premise-lsp.insert', 'premise-lsp.try'] });
  });
  it('turns on resolve where the upstream had none', () => {
    const m = mergeCapabilities(isabelle);
    expect(m.completionProvider).toMatchObject({ resolveProvider: true });
    expect(m.codeActionProvider).toEqual({ codeActionKinds: ['quickfix'], resolveProvider: true });
    expect(m.textDocumentSync).toBe(2);
  });
  it('does not mutate its input', () => {
    const copy = JSON.parse(JSON.stringify(lean));
    mergeCapabilities(lean);
    expect(lean).toEqual(copy);
  });
});

describe('upstreamAdvertises', () => {
  it('checks standard methods against capabilities', () => {
    expect(upstreamAdvertises('textDocument/references', isabelle, 'isabelle')).toBe(false);
    expect(upstreamAdvertises('textDocument/definition', isabelle, 'isabelle')).toBe(true);
    expect(upstreamAdvertises('completionItem/resolve', isabelle, 'isabelle')).toBe(false);
    expect(upstreamAdvertises('completionItem/resolve', lean, 'lean')).toBe(true);
    expect(upstreamAdvertises('workspace/executeCommand', lean, 'lean', { command: 'x' })).toBe(false);
  });
  it('sends non-standard requests to Lean but only PIDE/ ones to Isabelle', () => {
    expect(upstreamAdvertises('$/lean/plainGoal', lean, 'lean')).toBe(true);
    expect(upstreamAdvertises('$/lean/plainGoal', isabelle, 'isabelle')).toBe(false);
    expect(upstreamAdvertises('PIDE/state_init', isabelle, 'isabelle')).toBe(true);
    expect(upstreamAdvertises('shutdown', isabelle, 'isabelle')).toBe(true);
  });
});

describe('position encoding', () => {
  it('is UTF-16 in our capabilities and in the merged ones', () => {
    expect(ownCapabilities().positionEncoding).toBe('utf-16');
    expect(mergeCapabilities({ ...lean, positionEncoding: 'utf-8' }).positionEncoding).toBe('utf-16');
  });
  it('narrows an offer to UTF-16 and leaves params without one as they are', () => {
    const plain = { capabilities: { window: {} } };
    expect(utf16Only(plain)).toBe(plain);
    const only = { capabilities: { general: { positionEncodings: ['utf-16'] } } };
    expect(utf16Only(only)).toBe(only);
    const offer = { rootUri: 'file:///p', capabilities: { general: { positionEncodings: ['utf-8', 'utf-16'], staleRequestSupport: { cancel: true } } } };
    expect(utf16Only(offer)).toEqual({ rootUri: 'file:///p', capabilities: { general: { positionEncodings: ['utf-16'], staleRequestSupport: { cancel: true } } } });
    expect(offer.capabilities.general.positionEncodings).toEqual(['utf-8', 'utf-16']);
  });
});

describe('command names of a project of its own (--project-commands)', () => {
  it('suffixes our commands alone, and reads either name back', () => {
    const suffix = projectCommandSuffix('/home/me/proj');
    expect(suffix).toMatch(/^[0-9a-f]{8}$/);
    expect(projectCommandSuffix('/home/me/other')).not.toBe(suffix);
    const caps = withCommandSuffix(mergeCapabilities({ ...lean, executeCommandProvider: { commands: ['lean.own'] } }), suffix);
    const plain = Object.values(COMMANDS) as string[];
    expect(caps.executeCommandProvider).toEqual({ commands: ['lean.own', ...plain.map((c) => `${c}.${suffix}`)] });
    expect(plain).toContain('premise-lsp.search');
    expect(withCommandSuffix(ownCapabilities(), undefined).executeCommandProvider).toEqual({ commands: plain });
    expect(ourCommand(`premise-lsp.search.${suffix}`, suffix)).toBe('premise-lsp.search');
    expect(ourCommand('premise-lsp.insert', suffix)).toBe('premise-lsp.insert');
    expect(ourCommand('premise-lsp.search.00000000', suffix)).toBeUndefined();
    expect(ourCommand('lean.own', suffix)).toBeUndefined();
  });
});
