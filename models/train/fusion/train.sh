#!/usr/bin/env bash
# Retrain the learned first-stage fusion (models/fusion) end to end.
#   models/train/fusion/train.sh <index-dir> <records.jsonl> <out_dir>   (then: --fusion <out_dir>)
# The index must be built with the encoder the fusion will serve (its cosines are features).
# Scratch data (Mathlib-derived candidate pools) goes to $WORK (default /tmp/premise-lsp-fusion),
# never into the repo. Env knobs: LIMIT (training queries, default 6000), DEV_LIMIT (1000),
# NO_CONTEXT (percent of training queries without their file's earlier declarations, 50),
# BETAS (0,0.5,1), EPOCHS (12), PYTHON (default /usr/bin/python3: needs torch), HOLDOUT.
set -euo pipefail
if [ $# -lt 3 ]; then echo "usage: $0 <index-dir> <records.jsonl> <out_dir>" >&2; exit 2; fi
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
INDEX="$(realpath "$1")"
RECORDS="$(realpath "$2")"
OUT="$(realpath -m "$3")"
WORK="${WORK:-/tmp/premise-lsp-fusion}"
PY="${PYTHON:-/usr/bin/python3}"
mkdir -p "$WORK"
T0=$(date +%s)
stamp() { echo "[fusion/train.sh] $1: $(( $(date +%s) - T0 ))s elapsed"; }

HOLDOUT_ARGS=()
if [ -n "${HOLDOUT:-}" ]; then HOLDOUT_ARGS=(--holdout "$HOLDOUT"); fi
(cd "$ROOT" && node dist/cli.js fusion-data --index "$INDEX" --records "$RECORDS" --out "$WORK/pools.jsonl" \
  --limit "${LIMIT:-6000}" --dev-limit "${DEV_LIMIT:-1000}" --no-context "${NO_CONTEXT:-50}" "${HOLDOUT_ARGS[@]}")
stamp "candidate pools"
if [ -z "${HOLDOUT_FILES:-}" ]; then
  export HOLDOUT_FILES="$WORK/holdout-files.txt"
  (cd "$ROOT" && node dist/cli.js holdout-files --records "$RECORDS" --out "$HOLDOUT_FILES")
fi
export HOLDOUT_FILES
ENCODER_ID="$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["encoder"]["id"])' "$INDEX/manifest.json")"
"$PY" "$HERE/train.py" "$WORK/pools.jsonl" --out "$OUT" --encoder-id "$ENCODER_ID" --betas "${BETAS:-0,0.5,1}" --epochs "${EPOCHS:-12}"
stamp "training"
