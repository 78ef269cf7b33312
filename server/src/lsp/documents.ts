/**
 * The documents the editor has open, kept current from didOpen/didChange/didClose
 * (full or incremental sync), so that features can read text and so that a
 * restarted prover can be handed the current text.
 */
import { TextDocument } from 'vscode-languageserver-textdocument';

export interface OpenDocument {
  doc: TextDocument;
  languageId: string;
}

export class DocumentStore {
  private readonly docs = new Map<string, OpenDocument>();

  open(p: unknown): void {
    const td = (p as { textDocument?: { uri?: unknown; languageId?: unknown; version?: unknown; text?: unknown } })?.textDocument;
    if (!td || typeof td.uri !== 'string' || typeof td.text !== 'string') return;
    const version = typeof td.version === 'number' ? td.version : 0;
    const languageId = typeof td.languageId === 'string' ? td.languageId : '';
    this.docs.set(td.uri, { doc: TextDocument.create(td.uri, languageId, version, td.text), languageId });
  }

  change(p: unknown): void {
    const params = p as { textDocument?: { uri?: unknown; version?: unknown }; contentChanges?: unknown };
    const uri = params?.textDocument?.uri;
    if (typeof uri !== 'string' || !Array.isArray(params.contentChanges)) return;
    const entry = this.docs.get(uri);
    if (!entry) return;
    const version = typeof params.textDocument!.version === 'number' ? (params.textDocument!.version as number) : entry.doc.version + 1;
    const changes = params.contentChanges
      .filter((c): c is { text: string; range?: unknown } => typeof c === 'object' && c !== null && typeof (c as { text?: unknown }).text === 'string')
      // a missing or unreadable range (null, half a position) is the whole text, as Lean reads it; rangeLength is ignored
      .map((c) => (isRange(c.range) ? { range: c.range, text: c.text } : { text: c.text }));
    entry.doc = TextDocument.update(entry.doc, changes as Parameters<typeof TextDocument.update>[1], version);
  }

  close(p: unknown): void {
    const uri = (p as { textDocument?: { uri?: unknown } })?.textDocument?.uri;
    if (typeof uri === 'string') this.docs.delete(uri);
  }

  get(uri: unknown): TextDocument | undefined {
    return typeof uri === 'string' ? this.docs.get(uri)?.doc : undefined;
  }

  /** `didOpen` params re-creating every open document with its current text. */
  reopenParams(): Array<{ textDocument: { uri: string; languageId: string; version: number; text: string } }> {
    return [...this.docs.values()].map(({ doc, languageId }) => ({
      textDocument: { uri: doc.uri, languageId, version: doc.version, text: doc.getText() },
    }));
  }
}

const isPosition = (p: unknown): boolean => {
  const { line, character } = (p ?? {}) as { line?: unknown; character?: unknown };
  return Number.isInteger(line) && (line as number) >= 0 && Number.isInteger(character) && (character as number) >= 0;
};
const isRange = (r: unknown): boolean => typeof r === 'object' && r !== null && isPosition((r as { start?: unknown }).start) && isPosition((r as { end?: unknown }).end);
