#!/usr/bin/env bash
# Train the learned ranker (models/ranker/ranker.json, used with --ranker DIR) end to end.
#   models/train/ranker/train.sh <index-dir> <records.jsonl> <out_dir> [extra pools.jsonl...]
# The index must be built with the encoder the ranker will serve (its cosines are features).
# Extra pools: `fusion-data --ranker --project DIR --half dev --out X.jsonl` of Lake projects.
# Scratch data (Mathlib-derived pools) goes to $WORK (default /tmp/premise-lsp-ranker), never into
# the repo. Env knobs: LIMIT (training searches, 4000), DEV_LIMIT (2000), NO_CONTEXT (50),
# OBJECTIVES (rank:pairwise,rank:ndcg), DEPTHS (6), TREES (150), THREADS (1), PROJECT_WEIGHT (1),
# HOLDOUT, SHARED.
set -euo pipefail
if [ $# -lt 3 ]; then echo "usage: $0 <index-dir> <records.jsonl> <out_dir> [pools.jsonl...]" >&2; exit 2; fi
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
INDEX="$(realpath "$1")"; RECORDS="$(realpath "$2")"; OUT="$(realpath -m "$3")"; shift 3
WORK="${WORK:-/tmp/premise-lsp-ranker}"
PY="${PYTHON:-/usr/bin/python3}"
mkdir -p "$WORK"
T0=$(date +%s)
stamp() { echo "[ranker/train.sh] $1: $(( $(date +%s) - T0 ))s elapsed"; }
ARGS=()
if [ -n "${HOLDOUT:-}" ]; then ARGS+=(--holdout "$HOLDOUT"); fi
if [ -n "${SHARED:-}" ]; then ARGS+=(--shared "$SHARED"); fi
(cd "$ROOT" && node dist/cli.js fusion-data --ranker --index "$INDEX" --records "$RECORDS" --out "$WORK/pools.jsonl" \
  --limit "${LIMIT:-4000}" --dev-limit "${DEV_LIMIT:-2000}" --no-context "${NO_CONTEXT:-50}" "${ARGS[@]}")
stamp "candidate pools"
if [ -z "${HOLDOUT_FILES:-}" ]; then
  export HOLDOUT_FILES="$WORK/holdout-files.txt"
  SH=(); if [ -n "${SHARED:-}" ]; then SH=(--shared "$SHARED"); fi
  (cd "$ROOT" && node dist/cli.js holdout-files --records "$RECORDS" "${SH[@]}" --out "$HOLDOUT_FILES")
fi
export HOLDOUT_FILES
ENCODER_ID="$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["encoder"]["id"])' "$INDEX/manifest.json")"
"$PY" "$HERE/train.py" "$WORK/pools.jsonl" "$@" --out "$OUT" --encoder-id "$ENCODER_ID" \
  --objectives "${OBJECTIVES:-rank:pairwise,rank:ndcg}" --depths "${DEPTHS:-6}" --trees "${TREES:-150}" --threads "${THREADS:-1}" \
  --project-weight "${PROJECT_WEIGHT:-1}"
stamp "training"
