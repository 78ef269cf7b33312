/**
 * premise-lsp's own capabilities, merging them into the upstream's `initialize`
 * result, and deciding whether the upstream advertised a request method.
 *
 * Invariant: positions are UTF-16 code units on both sides of the proxy. The
 * reply to `initialize` says so, and the prover is offered nothing else
 * (`utf16Only` in lifecycle.ts).
 */
import { createHash } from 'node:crypto';
import type { Flavor } from '../upstream/command.js';

export const COMMANDS = { search: 'premise-lsp.search', insert: 'premise-lsp.insert', try: 'premise-lsp.try' } as const;
export const TRIGGER_CHARACTERS = ['[', ' ', ','];
export const CODE_ACTION_KIND = 'quickfix';

/** Positions are UTF-16 code units, whatever the editor offers (see `utf16Only` in lifecycle.ts). */
export const POSITION_ENCODING = 'utf-16';

/**
 * The suffix of a project's command names: 8 hex digits of the SHA-256 of its root.
 * VS Code refuses a command name already registered, and its Lean extension runs one
 * language server per project in one window, so each advertises names of its own
 * (`premise-lsp.search.1a2b3c4d`); `--project-commands` (the shims') turns it on.
 * Test: test/protocol/vscode-shim.test.ts ("two Lake projects in one window").
 */
export function projectCommandSuffix(root: string): string {
  return createHash('sha256').update(root, 'utf8').digest('hex').slice(0, 8);
}

/** The command a name stands for: a plain name, or one with this session's suffix; undefined for any other. */
export function ourCommand(name: unknown, suffix?: string): string | undefined {
  for (const c of Object.values(COMMANDS) as string[]) if (name === c || (suffix && name === `${c}.${suffix}`)) return c;
  return undefined;
}

/** Capabilities with our commands named with this project's suffix; as they are without one. */
export function withCommandSuffix(caps: Caps, suffix: string | undefined): Caps {
  const ex = obj(caps.executeCommandProvider);
  if (!suffix || !ex || !Array.isArray(ex.commands)) return caps;
  const plain = Object.values(COMMANDS) as unknown[];
  return { ...caps, executeCommandProvider: { ...ex, commands: ex.commands.map((c) => (plain.includes(c) ? `${c}.${suffix}` : c)) } };
}

type Caps = Record<string, unknown>;

export function ownCapabilities(): Caps {
  return {
    positionEncoding: POSITION_ENCODING,
    textDocumentSync: { openClose: true, change: 2 },
    completionProvider: { triggerCharacters: [...TRIGGER_CHARACTERS], resolveProvider: true },
    codeActionProvider: { codeActionKinds: [CODE_ACTION_KIND], resolveProvider: true },
    hoverProvider: true,
    executeCommandProvider: { commands: Object.values(COMMANDS) },
  };
}

function obj(v: unknown): Caps | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Caps) : undefined;
}
function union(a: unknown, b: string[]): string[] {
  const out = Array.isArray(a) ? a.filter((x): x is string => typeof x === 'string') : [];
  for (const x of b) if (!out.includes(x)) out.push(x);
  return out;
}

/** The upstream's capabilities with ours added; everything else is left as it was. */
export function mergeCapabilities(upstream: unknown): Caps {
  const up = { ...(obj(upstream) ?? {}) };
  up.positionEncoding = POSITION_ENCODING;
  if (up.textDocumentSync === undefined) up.textDocumentSync = { openClose: true, change: 2 };

  const comp = obj(up.completionProvider) ?? {};
  up.completionProvider = { ...comp, triggerCharacters: union(comp.triggerCharacters, TRIGGER_CHARACTERS), resolveProvider: true };

  const ca = obj(up.codeActionProvider);
  if (ca) {
    up.codeActionProvider = {
      ...ca,
      ...(Array.isArray(ca.codeActionKinds) ? { codeActionKinds: union(ca.codeActionKinds, [CODE_ACTION_KIND]) } : {}),
      resolveProvider: true,
    };
  } else up.codeActionProvider = { codeActionKinds: [CODE_ACTION_KIND], resolveProvider: true };

  if (!up.hoverProvider) up.hoverProvider = true;

  const ex = obj(up.executeCommandProvider) ?? {};
  up.executeCommandProvider = { ...ex, commands: union(ex.commands, Object.values(COMMANDS)) };
  return up;
}

/** Upstream trigger characters (those not in this list are ours alone). */
export function upstreamTriggerCharacters(upstream: unknown): string[] {
  const comp = obj(obj(upstream)?.completionProvider);
  return Array.isArray(comp?.triggerCharacters) ? (comp!.triggerCharacters as string[]) : [];
}

const BY_METHOD: Record<string, string> = {
  'textDocument/completion': 'completionProvider',
  'textDocument/hover': 'hoverProvider',
  'textDocument/signatureHelp': 'signatureHelpProvider',
  'textDocument/declaration': 'declarationProvider',
  'textDocument/definition': 'definitionProvider',
  'textDocument/typeDefinition': 'typeDefinitionProvider',
  'textDocument/implementation': 'implementationProvider',
  'textDocument/references': 'referencesProvider',
  'textDocument/documentHighlight': 'documentHighlightProvider',
  'textDocument/documentSymbol': 'documentSymbolProvider',
  'textDocument/codeAction': 'codeActionProvider',
  'textDocument/codeLens': 'codeLensProvider',
  'textDocument/documentLink': 'documentLinkProvider',
  'textDocument/documentColor': 'colorProvider',
  'textDocument/colorPresentation': 'colorProvider',
  'textDocument/formatting': 'documentFormattingProvider',
  'textDocument/rangeFormatting': 'documentRangeFormattingProvider',
  'textDocument/rangesFormatting': 'documentRangeFormattingProvider',
  'textDocument/onTypeFormatting': 'documentOnTypeFormattingProvider',
  'textDocument/rename': 'renameProvider',
  'textDocument/foldingRange': 'foldingRangeProvider',
  'textDocument/selectionRange': 'selectionRangeProvider',
  'textDocument/prepareCallHierarchy': 'callHierarchyProvider',
  'callHierarchy/incomingCalls': 'callHierarchyProvider',
  'callHierarchy/outgoingCalls': 'callHierarchyProvider',
  'textDocument/semanticTokens/full': 'semanticTokensProvider',
  'textDocument/semanticTokens/full/delta': 'semanticTokensProvider',
  'textDocument/semanticTokens/range': 'semanticTokensProvider',
  'textDocument/linkedEditingRange': 'linkedEditingRangeProvider',
  'textDocument/moniker': 'monikerProvider',
  'textDocument/prepareTypeHierarchy': 'typeHierarchyProvider',
  'typeHierarchy/supertypes': 'typeHierarchyProvider',
  'typeHierarchy/subtypes': 'typeHierarchyProvider',
  'textDocument/inlineValue': 'inlineValueProvider',
  'textDocument/inlayHint': 'inlayHintProvider',
  'textDocument/diagnostic': 'diagnosticProvider',
  'workspace/diagnostic': 'diagnosticProvider',
  'workspace/symbol': 'workspaceSymbolProvider',
  'textDocument/inlineCompletion': 'inlineCompletionProvider',
};
const RESOLVE: Record<string, string> = {
  'completionItem/resolve': 'completionProvider',
  'codeAction/resolve': 'codeActionProvider',
  'codeLens/resolve': 'codeLensProvider',
  'documentLink/resolve': 'documentLinkProvider',
  'inlayHint/resolve': 'inlayHintProvider',
  'workspaceSymbol/resolve': 'workspaceSymbolProvider',
};
const FILE_OPS: Record<string, string> = {
  'workspace/willCreateFiles': 'willCreate',
  'workspace/willRenameFiles': 'willRename',
  'workspace/willDeleteFiles': 'willDelete',
};

/**
 * May this request be sent to the upstream? Standard methods need the matching
 * capability. Non-standard ones go to Lean and unknown servers, but Isabelle
 * (which never answers unknown requests) only gets its own `PIDE/…` requests.
 */
export function upstreamAdvertises(method: string, caps: unknown, flavor: Flavor, params?: unknown): boolean {
  if (method === 'initialize' || method === 'shutdown') return true;
  const c = obj(caps) ?? {};
  const key = BY_METHOD[method];
  if (key) return Boolean(c[key]);
  const rkey = RESOLVE[method];
  if (rkey) return Boolean(obj(c[rkey])?.resolveProvider);
  if (method === 'textDocument/prepareRename') return Boolean(obj(c.renameProvider)?.prepareProvider);
  if (method === 'textDocument/willSaveWaitUntil') return Boolean(obj(c.textDocumentSync)?.willSaveWaitUntil);
  if (method === 'workspace/executeCommand') {
    const cmds = obj(c.executeCommandProvider)?.commands;
    const cmd = obj(params)?.command;
    return Array.isArray(cmds) && cmds.includes(cmd);
  }
  const fop = FILE_OPS[method];
  if (fop) return Boolean(obj(obj(obj(c.workspace)?.fileOperations))?.[fop]);
  if (flavor === 'isabelle') return method.startsWith('PIDE/');
  return true;
}
