/**
 * The shims of `premise-lsp setup vscode`: POSIX sh scripts named `lake` and `lean`
 * that VS Code's Lean extension (vscode-lean4) finds first on its PATH through the
 * setting `lean4.envPathExtensions`. The extension starts the server of a Lake
 * project as `lake [+<toolchain>] serve -- <folder> [lean4.serverArgs…]` and that of
 * a folder without a lakefile as `lean [+<toolchain>] --server …`; each shim runs its
 * tool's server behind `premise-lsp serve --stdio --project-commands` (command names
 * of the project's own, so two projects in one window do not collide), and execs
 * every other invocation (`+toolchain` arguments, `--version`, `build`, `env`,
 * `--print-prefix`…) as the real tool's, so its exit status is the real tool's.
 *
 * The real tool is the first one of its name on PATH outside the shim's own directory
 * (directories compared with their links resolved) that is not a premise-lsp shim
 * (`# premise-lsp … shim` on its second line), so a shim never runs itself or another
 * shim; none: a message on stderr and exit status 127. premise-lsp never runs in front
 * of itself: a shim run by a server already behind premise-lsp (PREMISE_LSP_SHIMMED in
 * its environment: Lake starting `lean --server` through PATH) execs the real tool.
 * Until it execs, a shim runs shell built-ins only, so a PATH without the usual tools
 * cannot turn it into a loop. premise-lsp is named by the absolute paths of the
 * installation that wrote the shim (node and dist/cli.js), so VS Code's PATH need not
 * have it; when that installation is gone, the server runs without it.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The tools with a shim, and the argument that starts each one's language server. */
export const SHIM_TOOLS = { lake: 'serve', lean: '--server' } as const;
export type ShimTool = keyof typeof SHIM_TOOLS;

/** What makes a file a premise-lsp shim of `tool` (on its second line; `setup vscode` overwrites only such a file). */
export function shimMarker(tool: ShimTool): string {
  return `premise-lsp ${tool} shim`;
}
/** The `lake` shim's marker. */
export const SHIM_MARKER = shimMarker('lake');

/** `$XDG_DATA_HOME/premise-lsp/vscode-shim`, else `~/.local/share/premise-lsp/vscode-shim`. */
export function defaultShimDir(env: NodeJS.ProcessEnv = process.env): string {
  const data = env.XDG_DATA_HOME && env.XDG_DATA_HOME.startsWith('/') ? env.XDG_DATA_HOME : join(homedir(), '.local', 'share');
  return join(data, 'premise-lsp', 'vscode-shim');
}

/** `s` as one sh word, in single quotes. */
export function shQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A shim's text: `node` and `cli` are absolute paths (the running node, this installation's dist/cli.js). */
export function shimScript(node: string, cli: string, version: string, tool: ShimTool = 'lake'): string {
  const marker = shimMarker(tool);
  const server = SHIM_TOOLS[tool];
  const hint = tool === 'lake' ? 'install Lean with elan, or put the directory of lake on PATH' : 'install Lean with elan, or put the directory of lean on PATH';
  return `#!/bin/sh
# ${marker}, written by \`premise-lsp setup vscode\` (premise-lsp ${version}).
# VS Code's Lean extension finds this \`${tool}\` first on its PATH (setting "lean4.envPathExtensions").
# \`${tool} [+toolchain] ${server} ...\` runs behind premise-lsp serve; any other call is the real ${tool}'s.
# To undo: remove the setting and delete this directory.
premise_lsp_node=${shQuote(node)}
premise_lsp_cli=${shQuote(cli)}

# only shell built-ins until ${tool} runs: VS Code's PATH may lack the usual tools
case $0 in
  */*) shim_dir=\${0%/*} ;;
  *) shim_dir=. ;;
esac
shim_dir=$(CDPATH= cd -P -- "$shim_dir" 2>/dev/null && pwd -P)
if [ -z "$shim_dir" ]; then
  echo "${marker}: cannot find its own directory from $0" >&2
  exit 127
fi
# a premise-lsp shim (of either tool): its first two lines (read with the shell's own read, whatever the file holds)
is_shim() {
  { IFS= read -r first && IFS= read -r second; } < "$1" 2>/dev/null || return 1
  case "$first $second" in
    "#!/bin/sh # premise-lsp "*" shim"*) return 0 ;;
  esac
  return 1
}

# the real ${tool}: the first ${tool} on PATH outside this directory that is not a premise-lsp shim
real_tool=
set -f
saved_ifs=$IFS
IFS=:
for dir in $PATH; do
  [ -n "$dir" ] || dir=.
  resolved=$(CDPATH= cd -P -- "$dir" 2>/dev/null && pwd -P) || continue
  [ "$resolved" = "$shim_dir" ] && continue
  if [ -f "$resolved/${tool}" ] && [ -x "$resolved/${tool}" ] && ! is_shim "$resolved/${tool}"; then
    real_tool=$resolved/${tool}
    break
  fi
done
IFS=$saved_ifs
set +f

if [ -z "$real_tool" ]; then
  echo "${marker} ($shim_dir/${tool}): no other ${tool} on PATH; ${hint}" >&2
  exit 127
fi

case $1 in
  +*) command=$2 ;;
  *) command=$1 ;;
esac
# a server already behind premise-lsp (Lake starting \`lean --server\` through PATH) is not proxied twice
if [ "$command" = ${server} ] && [ -z "\${PREMISE_LSP_SHIMMED:-}" ]; then
  if [ -x "$premise_lsp_node" ] && [ -f "$premise_lsp_cli" ]; then
    # the Lean extension shows anything on the server's stderr as an error: only errors go there
    PREMISE_LSP_LOG=\${PREMISE_LSP_LOG:-error}
    PREMISE_LSP_SHIMMED=1
    export PREMISE_LSP_LOG PREMISE_LSP_SHIMMED
    exec "$premise_lsp_node" "$premise_lsp_cli" serve --stdio --project-commands -- "$real_tool" "$@"
  fi
  echo "${marker}: $premise_lsp_cli is gone; ${tool} ${server} runs without premise-lsp (run premise-lsp setup vscode again, or remove the shim)" >&2
fi
exec "$real_tool" "$@"
`;
}
