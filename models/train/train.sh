#!/usr/bin/env bash
# One-command retraining of the premise-lsp default encoder.
#   models/train/train.sh <records.jsonl> [out_dir=models/default]
# Scratch data goes to $WORK (default /work/corpus/train/work), never into the repo.
# Env knobs (see train.py): TRAIN_SECONDS (default 2600), BATCH, LR, DIM, LAYERS, TAU, VOCAB_SIZE,
# PYTHON (default /usr/bin/python3: needs torch + onnx), HOLDOUT, HOLDOUT_FILES, LEANDOJO, NO_EVAL=1, THREADS.
set -euo pipefail
if [ $# -lt 1 ]; then echo "usage: $0 <records.jsonl> [out_dir]" >&2; exit 2; fi
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
RECORDS="$(realpath "$1")"
OUT="$(realpath -m "${2:-$ROOT/models/default}")"
WORK="${WORK:-/work/corpus/train/work}"
PY="${PYTHON:-/usr/bin/python3}"
mkdir -p "$OUT" "$WORK"
T0=$(date +%s)
stamp() { echo "[train.sh] $1: $(( $(date +%s) - T0 ))s elapsed"; }

# the one hold-out rule's file list (server/src/eval/holdout.ts); HOLDOUT_FILES=FILE reuses one
if [ -z "${HOLDOUT_FILES:-}" ]; then
  export HOLDOUT_FILES="$WORK/holdout-files.txt"
  (cd "$ROOT" && node dist/cli.js holdout-files --records "$RECORDS" --out "$HOLDOUT_FILES"); stamp "held-out files"
fi
export HOLDOUT_FILES
"$PY" "$HERE/prep.py" "$RECORDS" "$WORK"; stamp "data prep"
VOCAB_SIZE="${VOCAB_SIZE:-16000}" "$PY" "$HERE/build_tokenizer.py" "$WORK/texts.jsonl" "$OUT/tokenizer.json"; stamp "tokenizer"
(cd "$ROOT" && node "$HERE/tokenize.mjs" "$OUT/tokenizer.json" "$WORK/texts.jsonl" "$WORK/tok" 256); stamp "JS tokenisation"
"$PY" "$HERE/train.py" "$WORK" "$OUT"; stamp "training + export + validation"
T1=$(date +%s)
echo "[train.sh] total wall clock: $(( T1 - T0 ))s ($(( (T1 - T0) / 60 )) min)"
du -ch "$OUT"/model.onnx "$OUT"/tokenizer.json | tail -1 | sed 's/^/[train.sh] model size (onnx + tokenizer): /'
if [ -f "$WORK/metrics.json" ]; then
  "$PY" - "$WORK/metrics.json" "$(( T1 - T0 ))" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1])); m['wall_clock_seconds'] = int(sys.argv[2])
json.dump(m, open(sys.argv[1], 'w'), indent=1)
print('[train.sh] metrics (R@10 / R@100 / MRR):')
for s in ('heldout', 'leandojo'):
    for k, v in m[s].items():
        if isinstance(v, dict):
            print(f"  {s:9s} {k:12s} {v['R@10']:.3f} / {v['R@100']:.3f} / {v['MRR']:.3f}   (queries {m[s]['queries']})")
EOF
fi
