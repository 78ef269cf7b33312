#!/usr/bin/env bash
# Retrain the premise-lsp feature reranker (models/reranker) end to end.
#   models/train/reranker/train.sh <index-dir> <records.jsonl> [out_dir=models/reranker]
# The index must be the first stage the reranker will rerank (build it with the
# shipped encoder: `premise-lsp index … --encoder models/default`).
# Scratch data (Mathlib-derived feature dumps) goes to $WORK (default
# /work/corpus/rerank), never into the repo.
# Env knobs: LIMIT (train queries, default 12000), VAL_LIMIT (default 2000),
# NO_CONTEXT (percent of training queries searched without their file's earlier declarations, default 50),
# EPOCHS (default 6), DEFAULT (auto|true|false, default false: see train.py --default and MODEL_CARD.md "Decision"), PYTHON (default /usr/bin/python3: needs torch + onnx),
# HOLDOUT (default ../shared/data/holdout_theorems.txt).
set -euo pipefail
if [ $# -lt 2 ]; then echo "usage: $0 <index-dir> <records.jsonl> [out_dir]" >&2; exit 2; fi
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
INDEX="$(realpath "$1")"
RECORDS="$(realpath "$2")"
OUT="$(realpath -m "${3:-$ROOT/models/reranker}")"
WORK="${WORK:-/work/corpus/rerank}"
PY="${PYTHON:-/usr/bin/python3}"
TAG="$(basename "$INDEX")"
mkdir -p "$WORK"
T0=$(date +%s)
stamp() { echo "[reranker/train.sh] $1: $(( $(date +%s) - T0 ))s elapsed"; }

HOLDOUT_ARGS=()
if [ -n "${HOLDOUT:-}" ]; then HOLDOUT_ARGS=(--holdout "$HOLDOUT"); fi
(cd "$ROOT" && node dist/cli.js rerank-data --index "$INDEX" --records "$RECORDS" \
  --out "$WORK/feats-$TAG.jsonl" --limit "${LIMIT:-12000}" --val-limit "${VAL_LIMIT:-2000}" --no-context "${NO_CONTEXT:-50}" \
  --val-dojo "$WORK/val-dojo-$TAG.jsonl" "${HOLDOUT_ARGS[@]}")
stamp "features"
if [ -z "${HOLDOUT_FILES:-}" ]; then
  export HOLDOUT_FILES="$WORK/holdout-files.txt"
  (cd "$ROOT" && node dist/cli.js holdout-files --records "$RECORDS" --out "$HOLDOUT_FILES")
fi
export HOLDOUT_FILES
"$PY" "$HERE/train.py" "$WORK/feats-$TAG.jsonl" --out "$OUT" --hidden 64 --epochs "${EPOCHS:-6}" --default "${DEFAULT:-false}" --probe "$WORK/probe-$TAG.json"
stamp "training + export"
ls -la "$OUT"/model.onnx "$OUT"/reranker.json
echo "[reranker/train.sh] end-to-end check on the validation slice (first stage, then reranked):"
(cd "$ROOT" && node dist/cli.js eval --index "$INDEX" --reranker "$OUT" --dataset leandojo "$WORK/val-dojo-$TAG.jsonl" \
  && node dist/cli.js eval --index "$INDEX" --reranker "$OUT" --rerank --dataset leandojo "$WORK/val-dojo-$TAG.jsonl")
stamp "done"
