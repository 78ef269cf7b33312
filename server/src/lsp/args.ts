/**
 * Command-line options of `premise-lsp serve`.
 *
 *   serve --stdio [--lean <root> | --isabelle [isabelle opts…] | --upstream-cmd "<cmd>" | -- <cmd…>]
 *         [--index DIR] [--fake-engine FILE [--fake-engine-delay-ms N]] [--flavor lean|isabelle|generic]
 *         [--restart-delay-ms N] [--hang-timeout-ms N] [--initialize-timeout-ms N] [--project-commands]
 */
import { customCommand, isabelleCommand, leanCommand, type Flavor } from '../upstream/command.js';
import type { ChildSpec } from '../upstream/child.js';

export interface ServeArgs {
  stdio: boolean;
  upstream?: ChildSpec;
  flavor?: Flavor;
  /** `--lean ROOT`: the Lean project (also the root of its automatic index). */
  leanRoot?: string;
  index?: string;
  fakeEngine?: string;
  /** Test aid: delay the fixture engine's load (to observe progress). */
  fakeEngineDelayMs?: number;
  restartDelayMs?: number;
  hangTimeoutMs?: number;
  /** The bound on the prover's initialize reply (default: the `upstreamInitializeTimeoutMs` setting's). */
  initializeTimeoutMs?: number;
  /**
   * `--project-commands`: advertise the commands under names of this project's own
   * (`premise-lsp.search.<id>`, capabilities.ts `withCommandSuffix`), for an editor that
   * refuses a command name two of its servers advertise (VS Code; the shim passes it).
   */
  projectCommands?: boolean;
}

/** The options of `serve` (for a usage error's "did you mean"). */
export const SERVE_OPTIONS = ['--stdio', '--lean', '--isabelle', '--upstream-cmd', '--index', '--fake-engine', '--fake-engine-delay-ms', '--flavor', '--restart-delay-ms', '--hang-timeout-ms', '--initialize-timeout-ms', '--project-commands'] as const;
const LONG = new Set<string>(SERVE_OPTIONS);

/** Split a command string on whitespace, honouring simple quotes. */
export function splitCommand(s: string): string[] {
  const out: string[] = [];
  for (const m of s.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)) out.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? m[3]));
  return out;
}

export function parseServeArgs(argv: string[]): ServeArgs {
  const a = argv[0] === 'serve' ? argv.slice(1) : argv.slice();
  const out: ServeArgs = { stdio: false };
  const given = new Set<string>();
  const value = (i: number, flag: string): string => {
    const v = a[i + 1];
    if (v === undefined) throw new Error(`${flag} needs a value`);
    // one value each: a second one is refused, not silently taken (--lean and the other upstreams: setUpstream)
    if (given.has(flag)) throw new Error(`${flag} is given twice; it takes one value`);
    given.add(flag);
    return v;
  };
  const number = (s: string, flag: string): number => {
    const n = Number(s);
    if (!Number.isFinite(n) || n < 0) throw new Error(`${flag} needs a non-negative number, got ${s}`);
    return n;
  };
  const setUpstream = (spec: ChildSpec) => {
    if (out.upstream) throw new Error('give only one of --lean, --isabelle, --upstream-cmd, -- <cmd>');
    out.upstream = spec;
  };
  for (let i = 0; i < a.length; i++) {
    const arg = a[i];
    switch (arg) {
      case '--stdio':
        out.stdio = true;
        break;
      case '--lean':
        setUpstream(leanCommand(value(i, arg)));
        out.leanRoot = a[i + 1];
        out.flavor ??= 'lean';
        i++;
        break;
      case '--isabelle': {
        const extra: string[] = [];
        while (i + 1 < a.length && !LONG.has(a[i + 1]) && a[i + 1] !== '--') extra.push(a[++i]);
        setUpstream(isabelleCommand(extra));
        out.flavor ??= 'isabelle';
        break;
      }
      case '--upstream-cmd':
        setUpstream(customCommand(splitCommand(value(i, arg))));
        i++;
        break;
      case '--index':
        out.index = value(i, arg);
        i++;
        break;
      case '--fake-engine':
        out.fakeEngine = value(i, arg);
        i++;
        break;
      case '--fake-engine-delay-ms':
        out.fakeEngineDelayMs = number(value(i, arg), arg);
        i++;
        break;
      case '--flavor': {
        const f = value(i, arg);
        if (f !== 'lean' && f !== 'isabelle' && f !== 'generic') throw new Error(`--flavor must be lean, isabelle or generic`);
        out.flavor = f;
        i++;
        break;
      }
      case '--restart-delay-ms':
        out.restartDelayMs = number(value(i, arg), arg);
        i++;
        break;
      case '--hang-timeout-ms':
        out.hangTimeoutMs = number(value(i, arg), arg);
        i++;
        break;
      case '--initialize-timeout-ms':
        out.initializeTimeoutMs = number(value(i, arg), arg);
        i++;
        break;
      case '--project-commands':
        out.projectCommands = true;
        break;
      case '--':
        setUpstream(customCommand(a.slice(i + 1)));
        i = a.length;
        break;
      default:
        throw new Error(`unknown option ${arg}`);
    }
  }
  if (!out.stdio) throw new Error('serve needs --stdio (it talks LSP over stdin and stdout)');
  return out;
}
