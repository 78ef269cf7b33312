/**
 * The boundaries ARCHITECTURE.md states, checked on the TypeScript import graph
 * of server/src, indexes/src and models/src (every `import`, `export … from` and
 * `import()`, type-only ones included):
 * - no import circles;
 * - outside server/src/engine, only the engine's public surface (types.ts,
 *   open.ts) is imported from it;
 * - the engine (server/src/engine, indexes, models) imports nothing of the server
 *   around it, indexes and models nothing of server/, models nothing of indexes;
 * - vscode-languageserver* only in server/src/lsp;
 * - child_process only in server/src/upstream (provers), the indexer launcher
 *   (server/src/indexing/auto-index.ts), the benchmark and doctor's probes
 *   (server/src/cli/doctor-probe.ts);
 * - the engine never writes to stdout (the LSP channel);
 * - onnxruntime-node (an optional dependency) is loaded only by
 *   models/src/onnx-runtime.ts; other files import its types only;
 * - ARCHITECTURE.md's code map names every source folder.
 * The rules are pure functions of the graph, so each is also shown to fire on a
 * small made-up graph.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SOURCE_DIRS = ['server/src', 'indexes/src', 'models/src'];

/** A source file (path relative to the repository root) with what it imports and its text. */
interface Module {
  imports: string[];
  text: string;
}
type Graph = Map<string, Module>;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(ROOT, dir))) {
    const rel = `${dir}/${e}`;
    if (statSync(join(ROOT, rel)).isDirectory()) out.push(...sourceFiles(rel));
    else if (e.endsWith('.ts') && !e.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

/** Relative specifiers become repository paths (`./x.js` → `dir/x.ts`); packages stay as written. */
function resolveSpecifier(from: string, spec: string): string {
  if (!spec.startsWith('.')) return spec;
  return relative(ROOT, resolve(ROOT, dirname(from), spec)).split('\\').join('/').replace(/\.js$/, '.ts');
}

function readGraph(): Graph {
  const g: Graph = new Map();
  for (const file of SOURCE_DIRS.flatMap(sourceFiles)) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const info = ts.preProcessFile(text, true, true);
    g.set(file, { imports: info.importedFiles.map((f) => resolveSpecifier(file, f.fileName)), text });
  }
  return g;
}

/** Import circles: strongly connected components of more than one file, or a file importing itself. */
function circles(g: Graph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of g.get(v)!.imports) {
      if (!g.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || g.get(v)!.imports.includes(v)) out.push(scc.sort());
    }
  };
  for (const v of [...g.keys()].sort()) if (!index.has(v)) visit(v);
  return out;
}

const ENGINE = 'server/src/engine/';
const ENGINE_SURFACE = new Set([`${ENGINE}types.ts`, `${ENGINE}open.ts`]);
const isEngine = (f: string) => f.startsWith(ENGINE) || f.startsWith('indexes/') || f.startsWith('models/');
const SPAWN_ALLOWED = ['server/src/upstream/', 'server/src/indexing/auto-index.ts', 'server/src/bench/', 'server/src/cli/doctor-probe.ts'];
const STDOUT_CONSOLE = new Set(['log', 'info', 'debug', 'dir', 'table']);

/** Uses of `process.stdout` and of the console methods that print to stdout (the LSP channel of `serve`), in code, not comments. */
function stdoutWrites(file: string, text: string): string[] {
  const hits: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isPropertyAccessExpression(n) && ts.isIdentifier(n.expression)) {
      const [obj, prop] = [n.expression.text, n.name.text];
      if ((obj === 'process' && prop === 'stdout') || (obj === 'console' && STDOUT_CONSOLE.has(prop))) hits.push(`${obj}.${prop}`);
    }
    ts.forEachChild(n, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest));
  return hits;
}

const ORT = 'onnxruntime-node';
const ORT_LOADER = 'models/src/onnx-runtime.ts';

/** Whether `text` loads onnxruntime-node at run time: an import that is not `import type`, or an `import()`. */
function loadsOrt(file: string, text: string): boolean {
  let found = false;
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier) && n.moduleSpecifier.text === ORT && !n.importClause?.isTypeOnly) found = true;
    if (ts.isExportDeclaration(n) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier) && n.moduleSpecifier.text === ORT && !n.isTypeOnly) found = true;
    if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments.some((a) => ts.isStringLiteral(a) && a.text === ORT)) found = true;
    ts.forEachChild(n, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest));
  return found;
}

/** Every broken boundary, as `file → import: rule`. */
function violations(g: Graph): string[] {
  const out: string[] = [];
  for (const [file, m] of g) {
    for (const imp of m.imports) {
      const say = (rule: string) => out.push(`${file} → ${imp}: ${rule}`);
      if (!file.startsWith(ENGINE) && imp.startsWith(ENGINE) && !ENGINE_SURFACE.has(imp)) say('engine internals are used only inside the engine (use types.ts / open.ts)');
      if (file.startsWith(ENGINE) && imp.startsWith('server/src/') && !imp.startsWith(ENGINE) && imp !== 'server/src/paths.ts') say('the engine imports nothing of the server around it');
      if ((file.startsWith('indexes/') || file.startsWith('models/')) && imp.startsWith('server/')) say('indexes/ and models/ never import server/');
      if (file.startsWith('models/') && imp.startsWith('indexes/')) say('models/ never imports indexes/');
      if (/^vscode-languageserver/.test(imp) && !file.startsWith('server/src/lsp/')) say('vscode-languageserver is used only in server/src/lsp');
      if (/^(node:)?child_process$/.test(imp) && !SPAWN_ALLOWED.some((p) => file.startsWith(p))) say('processes are spawned only by upstream/, the indexer launcher, the benchmark and doctor\'s probes');
      if (imp === ORT && file !== ORT_LOADER && loadsOrt(file, m.text)) say(`the optional onnxruntime-node is loaded only by ${ORT_LOADER} (import its types only)`);
    }
    if (isEngine(file)) for (const w of stdoutWrites(file, m.text)) out.push(`${file}: ${w}: the engine never writes to stdout (the LSP channel)`);
  }
  return out.sort();
}

describe('import graph', () => {
  const g = readGraph();

  it('reads the whole source tree', () => {
    expect(g.size).toBeGreaterThan(100);
    expect(g.get('server/src/lsp/router.ts')!.imports).toContain('server/src/lsp/handlers.ts');
    expect(g.get('server/src/cli/index-opener.ts')!.imports).toContain('server/src/engine/open.ts');
  });

  it('has no import circles', () => {
    expect(circles(g)).toEqual([]);
  });

  it('keeps every boundary ARCHITECTURE.md states', () => {
    expect(violations(g)).toEqual([]);
  });

  it("ARCHITECTURE.md's code map names every source folder", () => {
    const map = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');
    const folders = new Set([...g.keys()].map((f) => dirname(f)).filter((d) => !SOURCE_DIRS.includes(d)));
    // named relative to the top folder, as the code map's sections do: `src/lsp/goals/`
    const missing = [...folders].filter((d) => !map.includes('`' + d.slice(d.indexOf('/') + 1) + '/`')).sort();
    expect(missing).toEqual([]);
  });

  it('would catch each kind of break (the rules on a made-up graph)', () => {
    const made: Graph = new Map(
      Object.entries({
        'server/src/cli/a.ts': { imports: ['server/src/engine/engine.ts', 'vscode-languageserver', 'node:child_process'], text: '' },
        'server/src/engine/engine.ts': { imports: ['server/src/lsp/log.ts'], text: 'console.log("hi")' },
        'indexes/src/x.ts': { imports: ['server/src/paths.ts', 'indexes/src/y.ts'], text: '// process.stdout in a comment is fine\n' },
        'indexes/src/y.ts': { imports: ['indexes/src/x.ts'], text: '' },
        'models/src/z.ts': { imports: ['indexes/src/x.ts'], text: 'process.stdout.write("x")' },
        'server/src/lsp/log.ts': { imports: [], text: '' },
        'models/src/ort-user.ts': { imports: ['onnxruntime-node'], text: "import * as ort from 'onnxruntime-node';" },
        'models/src/ort-types.ts': { imports: ['onnxruntime-node'], text: "import type * as ort from 'onnxruntime-node';" },
      }),
    );
    expect(circles(made)).toEqual([['indexes/src/x.ts', 'indexes/src/y.ts']]);
    const v = violations(made).join('\n');
    for (const rule of [
      'a.ts → server/src/engine/engine.ts: engine internals',
      'a.ts → vscode-languageserver: vscode-languageserver is used only',
      'a.ts → node:child_process: processes are spawned only',
      'engine.ts → server/src/lsp/log.ts: the engine imports nothing',
      'engine.ts: console.log: the engine never writes to stdout',
      'x.ts → server/src/paths.ts: indexes/ and models/ never import server/',
      'z.ts → indexes/src/x.ts: models/ never imports indexes/',
      'z.ts: process.stdout: the engine never writes',
      'ort-user.ts → onnxruntime-node: the optional onnxruntime-node is loaded only by',
    ]) {
      expect(v).toContain(rule);
    }
    expect(v).not.toContain('x.ts: process.stdout');
    expect(v).not.toContain('ort-types.ts');
  });
});
