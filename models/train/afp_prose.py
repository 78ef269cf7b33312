#!/usr/bin/env python3
"""AFP prose queries: the `text` block written right before a lemma, as an English
query for that lemma, in the MathlibQR format (`eval --dataset mathlibqr`, style
`natural`). A check of the Isabelle English path (prose and section context on
the informal side), not a formal benchmark: the prose is in the index too.

    node dist/cli.js holdout-files --index /tmp/afp/idx --out /tmp/afp/holdout-files.txt
    HOLDOUT_FILES=/tmp/afp/holdout-files.txt python3 models/train/afp_prose.py /work/corpus/afp/thys --out /tmp/afp/prose.json
    node dist/cli.js eval --index /tmp/afp/idx --dataset mathlibqr /tmp/afp/prose.json

Same held-out theories as `eval --dataset afp`: those on the one hold-out rule's list
(HOLDOUT_FILES, written by `premise-lsp holdout-files --index AFP_INDEX`; paths read inside
thys/); a block
qualifies when a lemma/theorem/corollary/proposition follows it (one blank line
at most) and it has at least 5 words; the first 20 words, antiquotations read as
their text, are the query; the first --max by sha1(name). Derived data: keep it
out of the repository.
"""
import argparse
import glob
import hashlib
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import heldout_files

BLOCK = re.compile(
    r"^[ \t]*text\s*(?:\{\*((?:(?!\*\}).)*)\*\}|\\<open>((?:(?!\\<open>|\\<close>).)*)\\<close>)[ \t]*\n"
    r"(?:[ \t]*\n)?[ \t]*(?:lemma|theorem|corollary|proposition)\s+(?:\([^)]*\)\s*)?([A-Za-z][\w']*)",
    re.S | re.M,
)


def h(s: str) -> int:
    return int(hashlib.sha1(s.encode('utf-8')).hexdigest(), 16)


def words(body: str) -> str:
    body = re.sub(r'@\{\w+\s*"([^"]*)"\}', r'\1', body)
    body = re.sub(r'@\{\w+\s+([^}]*)\}', r'\1', body)
    return ' '.join(re.sub(r'\\<\^?\w+>|[$`]', ' ', body).split()[:20])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('thys', help='the AFP thys/ directory')
    ap.add_argument('--out', required=True)
    ap.add_argument('--max', type=int, default=150)
    a = ap.parse_args()
    held = {f[len('thys/'):] if f.startswith('thys/') else f for f in heldout_files()}
    rows = {}
    for path in sorted(glob.glob('**/*.thy', root_dir=a.thys, recursive=True)):
        if path not in held:
            continue
        thy = os.path.basename(path)[:-4]
        src = open(os.path.join(a.thys, path), encoding='utf-8', errors='replace').read()
        for m in BLOCK.finditer(src):
            q = words(m.group(1) or m.group(2) or '')
            name = f'{thy}.{m.group(3)}'
            if len(q.split()) >= 5 and name not in rows:
                rows[name] = {'id': name, 'full_name': name, 'q1c_natural': q}
    out = sorted(rows.values(), key=lambda r: h(r['id']))[: a.max]
    json.dump(out, open(a.out, 'w', encoding='utf-8'), ensure_ascii=False)
    print(f'{len(out)} prose queries (of {len(rows)}) -> {a.out}', file=sys.stderr)
    return 0


if __name__ == '__main__':
    sys.exit(main())
