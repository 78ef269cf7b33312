/**
 * The channel to the editor: raw forwarding, replies, notifications, and our own
 * server→client requests (ids `"premise-lsp:N"`, never seen by the prover).
 */
import { FrameWriter } from '../jsonrpc/writer.js';
import {
  ErrorCodes,
  failure,
  idKey,
  notification,
  request,
  RpcError,
  success,
  type ResponseMessage,
  type WireId,
} from '../jsonrpc/messages.js';

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
  timer?: NodeJS.Timeout;
}

export class EditorChannel {
  private next = 1;
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly writer: FrameWriter) {}

  sendRaw(raw: Buffer): void {
    this.writer.write(raw);
  }
  send(msg: object): void {
    this.writer.write(msg);
  }
  reply(id: WireId, result: unknown): void {
    this.writer.write(success(id, result));
  }
  replyError(id: WireId, code: number, message: string, data?: unknown): void {
    this.writer.write(failure(id, code, message, data));
  }
  notify(method: string, params?: unknown): void {
    this.writer.write(notification(method, params));
  }

  request<T = unknown>(method: string, params: unknown, timeoutMs = 10_000): Promise<T> {
    const id = `premise-lsp:${this.next++}`;
    return new Promise<T>((resolve, reject) => {
      const p: Pending = { resolve: resolve as (v: unknown) => void, reject };
      if (timeoutMs > 0) {
        p.timer = setTimeout(() => {
          this.pending.delete(idKey(id));
          reject(new RpcError(ErrorCodes.RequestCancelled, `${method}: no reply from the editor`));
        }, timeoutMs);
        p.timer.unref?.();
      }
      this.pending.set(idKey(id), p);
      this.writer.write(request(id, method, params));
    });
  }

  /** Settle one of our own requests; false if the response is not ours. */
  handleResponse(msg: ResponseMessage): boolean {
    const key = idKey(msg.id);
    const p = this.pending.get(key);
    if (!p) return false;
    this.pending.delete(key);
    if (p.timer) clearTimeout(p.timer);
    if (msg.error) p.reject(new RpcError(msg.error.code, msg.error.message, msg.error.data));
    else p.resolve(msg.result);
    return true;
  }

  showMessage(type: 1 | 2 | 3 | 4, message: string): void {
    this.notify('window/showMessage', { type, message });
  }
}
