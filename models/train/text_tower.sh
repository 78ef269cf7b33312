#!/usr/bin/env bash
# One-command training of the English text tower for the vectors of one index.
#   models/train/text_tower.sh <index-dir> [out_dir=models/text-tower]
# The index must be built with the encoder the tower is for (the shipped one: models/default).
# Scratch data goes to $WORK (default /tmp/premise-lsp-tower), never into the repo.
# Env knobs (see text_tower.py): TRAIN_SECONDS (default 900), BATCH, NEG, TAU, LR, VAL_MOD,
# PYTHON (default /usr/bin/python3: needs torch + numpy), HOLDOUT (default ../shared/data/holdout_theorems.txt).
set -euo pipefail
if [ $# -lt 1 ]; then echo "usage: $0 <index-dir> [out_dir]" >&2; exit 2; fi
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
INDEX="$(realpath "$1")"
OUT="$(realpath -m "${2:-$ROOT/models/text-tower}")"
WORK="${WORK:-/tmp/premise-lsp-tower}"
PY="${PYTHON:-/usr/bin/python3}"
T0=$(date +%s)
stamp() { echo "[text_tower.sh] $1: $(( $(date +%s) - T0 ))s elapsed"; }
(cd "$ROOT" && npx tsup >/dev/null && node dist/cli.js tower-data --index "$INDEX" --out "$WORK" ${HOLDOUT:+--holdout "$HOLDOUT"}); stamp "pairs"
if [ -z "${HOLDOUT_FILES:-}" ]; then
  export HOLDOUT_FILES="$WORK/holdout-files.txt"
  (cd "$ROOT" && node dist/cli.js holdout-files --index "$INDEX" --out "$HOLDOUT_FILES"); stamp "held-out files"
fi
export HOLDOUT_FILES
"$PY" "$HERE/text_tower.py" "$WORK" "$OUT"; stamp "training + export"
du -ch "$OUT"/tower.json "$OUT"/tower.bin | tail -1 | sed 's/^/[text_tower.sh] model size: /'
