import { describe, expect, it } from 'vitest';
import { Logger } from '../../server/src/lsp/log.js';

describe('Logger.alert', () => {
  it('logs every alert, shows each message once, and holds those made before the editor is attached', () => {
    const lines: string[] = [];
    const shown: Array<[number, string]> = [];
    const log = new Logger((l) => lines.push(l), 'info');
    log.alert('error', 'early: do this');
    expect(shown).toEqual([]);
    log.attachAlerts((type, message) => shown.push([type, message]));
    log.alert('warn', 'later: do that');
    log.alert('error', 'early: do this');
    expect(shown).toEqual([
      [1, 'premise-lsp: early: do this'],
      [2, 'premise-lsp: later: do that'],
    ]);
    expect(lines).toEqual(['[premise-lsp] error: early: do this', '[premise-lsp] warn: later: do that', '[premise-lsp] error: early: do this']);
  });

  it('survives an editor that is gone', () => {
    const log = new Logger(() => {}, 'info');
    log.attachAlerts(() => {
      throw new Error('EPIPE');
    });
    expect(() => log.alert('error', 'x')).not.toThrow();
  });
});
