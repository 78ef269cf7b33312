#!/usr/bin/env python3
"""AFP held-out lemmas: "statement -> facts its proof uses", in the format of
`premise-lsp eval --dataset leandojo` (one JSON object a line: id, theorem, split,
state_before, premises[].full_name).

    node dist/cli.js extract /work/corpus/afp/thys --out /tmp/afp/afp.jsonl
    python3 models/train/afp_heldout.py /tmp/afp/afp.jsonl --out /tmp/afp/heldout.jsonl

Deterministic: a theory file is held out when sha1(its path) mod 20 == 0; in it,
every lemma/theorem/corollary/proposition whose proof references at least one
resolved fact (a name that is a declaration of the corpus, not itself) is a query.
Queries are ordered by sha1(name) and the first --max kept; `split` is `dev` or
`test` by the parity of sha1(name) (tune on dev, report test). The query text is
the statement as Isabelle prints a goal (`goal (1 subgoal):\n 1. ⟦A; B⟧ ⟹ C`).
The output is derived from the corpus: keep it out of the repository.
"""
import argparse
import hashlib
import json
import sys

FACT_KINDS = {'lemma', 'theorem', 'corollary', 'proposition'}


def h(s: str) -> int:
    return int(hashlib.sha1(s.encode('utf-8')).hexdigest(), 16)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('records', help='JSON lines from `premise-lsp extract`')
    ap.add_argument('--out', required=True)
    ap.add_argument('--max', type=int, default=500)
    ap.add_argument('--mod', type=int, default=20, help='hold out files with sha1(path) mod N == 0')
    a = ap.parse_args()
    recs = [json.loads(l) for l in open(a.records, encoding='utf-8') if l.strip()]
    names = {r['name'] for r in recs}
    rows = []
    for r in recs:
        if r['kind'] not in FACT_KINDS or not r.get('goal') or h(r['file']) % a.mod:
            continue
        gold = sorted({n for n in r.get('refs', []) if n in names and n != r['name']})
        if not gold:
            continue
        prop = f"⟦{'; '.join(r['args'])}⟧ ⟹ {r['goal']}" if r['args'] else r['goal']
        rows.append({
            'id': r['name'],
            'theorem': r['name'],
            'split': 'dev' if h(r['name']) % 2 == 0 else 'test',
            'state_before': f"goal (1 subgoal):\n 1. {prop}",
            'premises': [{'full_name': n} for n in gold],
        })
    rows.sort(key=lambda x: h(x['id']))
    rows = rows[: a.max]
    with open(a.out, 'w', encoding='utf-8') as f:
        for x in rows:
            f.write(json.dumps(x, ensure_ascii=False) + '\n')
    files = len({r['file'] for r in recs if h(r['file']) % a.mod == 0})
    dev = sum(x['split'] == 'dev' for x in rows)
    print(f'{len(rows)} queries ({dev} dev, {len(rows) - dev} test) from {files} held-out files -> {a.out}', file=sys.stderr)
    return 0


if __name__ == '__main__':
    sys.exit(main())
