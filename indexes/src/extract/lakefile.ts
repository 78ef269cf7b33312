/**
 * The libraries a lakefile declares (`lean_lib`, `@[default_target]`; in
 * lakefile.toml, `[[lean_lib]]` tables' `name` and `defaultTargets`), read in
 * time linear in the file's length: lakefiles are read on the server's main
 * thread (the automatic index's keys, `cache list`, `doctor`), so a crafted one
 * must not stall it (a lakefile.lean of repeated `lean_lib «` took 44 s at
 * 880 KB with an unbounded name pattern). Every pattern here is anchored to a
 * line or bounded in length; no scan goes back over text it has read. Not a
 * Lean or TOML parser: what `lake build` builds by default, as far as a
 * source-level reading can tell. Each library counts once however often it is
 * declared, and at most MAX_LIBRARIES are kept (the rest counted in `omitted`): the
 * walk looks at each library's file and directory (95,000 `lean_lib P` held a hover
 * for 9 s). The server reads them in steps (`…Steps`, ./steps.ts) that give its
 * thread back every slice. Test: test/unit/lakefile.test.ts.
 */
import { runSteps, type Steps } from './steps.js';

export interface LakefileLibraries {
  /** Every library declared, in order. */
  all: string[];
  /** Those marked as default targets. */
  defaults: string[];
  /** Distinct libraries declared past MAX_LIBRARIES, not kept (absent when none). */
  omitted?: number;
}

/** The most libraries kept of one lakefile: far above real ones (Mathlib declares a handful). */
export const MAX_LIBRARIES = 1024;

/** Each name once, in order of first declaration, the first MAX_LIBRARIES; defaults among those kept. */
function bounded(all: string[], defaults: string[]): LakefileLibraries {
  const unique = [...new Set(all)];
  const kept = unique.slice(0, MAX_LIBRARIES);
  const keep = new Set(kept);
  const out: LakefileLibraries = { all: kept, defaults: [...new Set(defaults)].filter((n) => keep.has(n)) };
  return unique.length > kept.length ? { ...out, omitted: unique.length - kept.length } : out;
}

/** A library name longer than this is no real one (Mathlib's longest is 20 characters). */
const NAME_MAX = 256;

/** Declarations read between two steps (./steps.ts). */
const PER_STEP = 256;

/** `lean_lib X` / `lean_lib «X»`, optionally after `@[default_target]`, in a lakefile.lean. */
export function leanLakefileLibraries(text: string): LakefileLibraries {
  return runSteps(leanLakefileSteps(text));
}

/** leanLakefileLibraries in steps. */
export function* leanLakefileSteps(text: string): Steps<LakefileLibraries> {
  const all: string[] = [];
  const defaults: string[] = [];
  // «…» bounded and on one line: an unclosed « is not scanned to the end of the file at every lean_lib
  const re = new RegExp(String.raw`(@\[default_target\][ \t\r\n]*)?lean_lib[ \t\r\n]+(«[^«»\n]{1,${NAME_MAX}}»|[A-Za-z_][\w.]{0,${NAME_MAX}})`, 'g');
  for (const m of text.matchAll(re)) {
    const name = m[2]!.replace(/^«|»$/g, '');
    all.push(name);
    if (m[1]) defaults.push(name);
    if (all.length % PER_STEP === 0) yield;
  }
  return bounded(all, defaults);
}

/** `[[lean_lib]]` tables' `name`, and the top-level `defaultTargets` array, in a lakefile.toml. */
export function tomlLakefileLibraries(text: string): LakefileLibraries {
  return runSteps(tomlLakefileSteps(text));
}

/** tomlLakefileLibraries in steps. */
export function* tomlLakefileSteps(text: string): Steps<LakefileLibraries> {
  const all: string[] = [];
  let defaults: string[] | undefined;
  let table: 'lean_lib' | 'other' | 'top' = 'top';
  let named = false;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (i % PER_STEP === PER_STEP - 1) yield;
    const line = lines[i]!.trim();
    if (!line || line.startsWith('#')) continue;
    if (line.startsWith('[')) {
      table = /^\[\[[ \t]*lean_lib[ \t]*\]\][ \t]*(#.*)?$/.test(line) ? 'lean_lib' : 'other';
      named = false;
      continue;
    }
    if (table === 'lean_lib' && !named) {
      const m = /^name[ \t]*=[ \t]*(?:"([^"]*)"|'([^']*)')/.exec(line);
      const name = m ? (m[1] ?? m[2])! : undefined;
      if (name && name.length <= NAME_MAX) {
        all.push(name);
        named = true;
      }
    } else if (table === 'top' && defaults === undefined && /^defaultTargets[ \t]*=/.test(line)) {
      // the array, up to its first `]`, possibly over several lines: read once (the lines are still read as keys and tables)
      const parts = [line.slice(line.indexOf('=') + 1)];
      for (let j = i + 1; !parts[parts.length - 1]!.includes(']') && j < lines.length; j++) parts.push(lines[j]!);
      const value = parts.join('\n');
      const open = value.indexOf('[');
      const close = value.indexOf(']');
      defaults = open < 0 || close < open ? [] : [...value.slice(open + 1, close).matchAll(/"([^"\n]*)"|'([^'\n]*)'/g)].map((x) => (x[1] ?? x[2])!).filter((n) => n);
    }
  }
  return bounded(all, defaults ?? []);
}
