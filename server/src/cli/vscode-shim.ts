/**
 * The `lake` shim of `premise-lsp setup vscode`: a POSIX sh script that VS Code's
 * Lean extension (vscode-lean4) finds first on its PATH through the setting
 * `lean4.envPathExtensions`. The extension starts the server as
 * `lake [+<toolchain>] serve -- <folder> [lean4.serverArgs…]`; the shim runs that
 * behind `premise-lsp serve --stdio`, and execs every other invocation (`+toolchain`
 * arguments, `--version`, `build`, `env`…) as the real lake's, so its exit status is
 * the real lake's.
 *
 * The real lake is the first `lake` on PATH outside the shim's own directory
 * (directories compared with their links resolved) that is not a premise-lsp shim
 * (SHIM_MARKER on its second line), so a shim never runs itself or another shim,
 * and premise-lsp never runs in front of itself; none: a message on stderr and exit
 * status 127. Until it execs, the shim runs shell built-ins only, so a PATH without
 * the usual tools cannot turn it into a loop. premise-lsp is named by the absolute
 * paths of the installation that wrote the shim (node and dist/cli.js), so VS Code's
 * PATH need not have it; when that installation is gone, `lake serve` runs without it.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

/** What makes a file a premise-lsp shim (on its second line; `setup vscode` overwrites only such a `lake`). */
export const SHIM_MARKER = 'premise-lsp lake shim';

/** `$XDG_DATA_HOME/premise-lsp/vscode-shim`, else `~/.local/share/premise-lsp/vscode-shim`. */
export function defaultShimDir(env: NodeJS.ProcessEnv = process.env): string {
  const data = env.XDG_DATA_HOME && env.XDG_DATA_HOME.startsWith('/') ? env.XDG_DATA_HOME : join(homedir(), '.local', 'share');
  return join(data, 'premise-lsp', 'vscode-shim');
}

/** `s` as one sh word, in single quotes. */
export function shQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The shim's text: `node` and `cli` are absolute paths (the running node, this installation's dist/cli.js). */
export function shimScript(node: string, cli: string, version: string): string {
  return `#!/bin/sh
# ${SHIM_MARKER}, written by \`premise-lsp setup vscode\` (premise-lsp ${version}).
# VS Code's Lean extension finds this \`lake\` first on its PATH (setting "lean4.envPathExtensions").
# \`lake [+toolchain] serve ...\` runs behind premise-lsp serve; any other call is the real lake's.
# To undo: remove the setting and delete this directory.
premise_lsp_node=${shQuote(node)}
premise_lsp_cli=${shQuote(cli)}

# only shell built-ins until lake runs: VS Code's PATH may lack the usual tools
case $0 in
  */*) shim_dir=\${0%/*} ;;
  *) shim_dir=. ;;
esac
shim_dir=$(CDPATH= cd -P -- "$shim_dir" 2>/dev/null && pwd -P)
if [ -z "$shim_dir" ]; then
  echo "${SHIM_MARKER}: cannot find its own directory from $0" >&2
  exit 127
fi
# a premise-lsp shim: its first two lines (read with the shell's own read, whatever the file holds)
is_shim() {
  { IFS= read -r first && IFS= read -r second; } < "$1" 2>/dev/null || return 1
  case "$first $second" in
    "#!/bin/sh # ${SHIM_MARKER}"*) return 0 ;;
  esac
  return 1
}

# the real lake: the first lake on PATH outside this directory that is not a premise-lsp shim
real_lake=
set -f
saved_ifs=$IFS
IFS=:
for dir in $PATH; do
  [ -n "$dir" ] || dir=.
  resolved=$(CDPATH= cd -P -- "$dir" 2>/dev/null && pwd -P) || continue
  [ "$resolved" = "$shim_dir" ] && continue
  if [ -f "$resolved/lake" ] && [ -x "$resolved/lake" ] && ! is_shim "$resolved/lake"; then
    real_lake=$resolved/lake
    break
  fi
done
IFS=$saved_ifs
set +f

if [ -z "$real_lake" ]; then
  echo "${SHIM_MARKER} ($shim_dir/lake): no other lake on PATH; install Lean with elan, or put the directory of lake on PATH" >&2
  exit 127
fi

case $1 in
  +*) command=$2 ;;
  *) command=$1 ;;
esac
if [ "$command" = serve ]; then
  if [ -x "$premise_lsp_node" ] && [ -f "$premise_lsp_cli" ]; then
    # the Lean extension shows anything on the server's stderr as an error: only errors go there
    PREMISE_LSP_LOG=\${PREMISE_LSP_LOG:-error}
    export PREMISE_LSP_LOG
    exec "$premise_lsp_node" "$premise_lsp_cli" serve --stdio -- "$real_lake" "$@"
  fi
  echo "${SHIM_MARKER}: $premise_lsp_cli is gone; lake serve runs without premise-lsp (run premise-lsp setup vscode again, or remove the shim)" >&2
fi
exec "$real_lake" "$@"
`;
}
