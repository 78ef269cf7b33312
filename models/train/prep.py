#!/usr/bin/env python3
"""Step 1 of the recipe: PremiseRecord JSONL -> training/eval texts and pairs.

Writes into WORK:
  texts.jsonl   one JSON string per line (every text the model will ever see in training/eval)
  meta.pkl      pairs, premise table, eval queries (indices into texts.jsonl)

Text formats (the engine must produce the same strings at query/index time):
  query (proof state)   hypotheses one per line, then '⊢ goal'  (see render_state)
  premise args side Γp  `${name} ${args.join(' ')}`  (just the name when there are no args)
  premise goal side Gp  goal, or the name when the goal is empty
"""
import sys, os, json, re, hashlib, pickle, random, collections, time

from common import render_state, premise_args_text, premise_goal_text, name_words, doc_query, heldout_files

t0 = time.time()
records_path, work = sys.argv[1], sys.argv[2]
held_files = heldout_files()
holdout_path = os.environ.get('HOLDOUT', '/work/shared/data/holdout_theorems.txt')
leandojo_path = os.environ.get('LEANDOJO', '/work/shared/data/leandojo/dev_steps.jsonl')
os.makedirs(work, exist_ok=True)
rng = random.Random(0)

holdout = set()
if os.path.exists(holdout_path):
    holdout = {l.strip() for l in open(holdout_path) if l.strip()}

recs = []
seen = set()
for line in open(records_path, encoding='utf-8'):
    line = line.strip()
    if not line:
        continue
    r = json.loads(line)
    if r.get('lang', 'lean') != 'lean' or r['name'] in seen:
        continue
    seen.add(r['name'])
    recs.append(r)
name2id = {r['name']: i for i, r in enumerate(recs)}
N = len(recs)
print(f'[prep] {N} declarations', flush=True)

texts = []
text_idx = {}


def tid(s):
    i = text_idx.get(s)
    if i is None:
        i = text_idx[s] = len(texts)
        texts.append(s)
    return i


prem_args = [tid(premise_args_text(r)) for r in recs]
prem_goal = [tid(premise_goal_text(r)) for r in recs]
prem_file = [r.get('file', '') for r in recs]
heldfile = [f in held_files for f in prem_file]
banned = [heldfile[i] or recs[i]['name'] in holdout for i in range(N)]

# refs -> premise ids
refs = []
for i, r in enumerate(recs):
    out = []
    for n in r.get('refs', []) or []:
        j = name2id.get(n)
        if j is not None and j != i and j not in out:
            out.append(j)
    refs.append(out)

THEOREM_KINDS = {'theorem', 'lemma'}
freq = collections.Counter(j for i in range(N) if recs[i]['kind'] in THEOREM_KINDS and not banned[i] for j in refs[i])

state_pairs = []  # (query_text, premise, query_decl)
val_queries = []  # (query_text, [premise ids], decl)
n_q = 0
def is_alias(r):
    # `alias a := b` restates b (the extractor gives it b's statement): its only ref is b itself
    return r.get('origin') is not None and r.get('statement', '').startswith('alias ')


for i, r in enumerate(recs):
    if r['kind'] not in THEOREM_KINDS or not r.get('goal') or not refs[i] or is_alias(r):
        continue
    if heldfile[i]:
        val_queries.append((tid(render_state(r)), refs[i], i))
        continue
    if r['name'] in holdout:
        continue
    pos = [j for j in refs[i] if not banned[j]]
    if not pos:
        continue
    q = tid(render_state(r))
    n_q += 1
    for j in pos:
        state_pairs.append((q, j, i))

doc_pairs, name_pairs = [], []
for i, r in enumerate(recs):
    if banned[i]:
        continue
    d = doc_query(r)
    if d:
        doc_pairs.append((tid(d), i, -1))
    if rng.random() < 0.35:
        doc_pairs_name = name_words(r['name'])
        if doc_pairs_name:
            name_pairs.append((tid(doc_pairs_name), i, -1))

# validation subset: cap for speed
rng.shuffle(val_queries)
val_queries = val_queries[:1500]

# LeanDojo
dojo = []
if os.path.exists(leandojo_path):
    for line in open(leandojo_path):
        ex = json.loads(line)
        gold = list(dict.fromkeys(p['full_name'] for p in ex['premises']))
        ids = [name2id[g] for g in gold if g in name2id]
        dojo.append((tid(ex['state_before']), ids, len(gold)))

parity_texts = [
    'a b : ℕ\n⊢ a + b = b + a',
    'G : Type u_1\ninst✝ : Group G\na b : G\n⊢ (a * b)⁻¹ = b⁻¹ * a⁻¹',
    'Nat.add_comm (n m : ℕ)',
    '∀ ε > 0, ∃ δ > 0, ∀ x ∈ Set.Icc 0 1, |f x - f y| < ε → ∑ i ∈ Finset.range n, x ^ i ≤ ∏ i, ‖g i‖',
    'continuous function on a compact space is bounded',
]
parity = [tid(s) for s in parity_texts]

# hard-negative pools: premises in the same file / same namespace
by_file = collections.defaultdict(list)
for i in range(N):
    if not banned[i]:
        by_file[prem_file[i]].append(i)
ns_of = [r['name'].rsplit('.', 1)[0] if '.' in r['name'] else '' for r in recs]

with open(os.path.join(work, 'texts.jsonl'), 'w', encoding='utf-8') as f:
    for s in texts:
        f.write(json.dumps(s, ensure_ascii=False) + '\n')
meta = dict(names=[r['name'] for r in recs], kinds=[r['kind'] for r in recs], files=prem_file,
            prem_args=prem_args, prem_goal=prem_goal, banned=banned, refs=refs, freq=dict(freq),
            state_pairs=state_pairs, doc_pairs=doc_pairs, name_pairs=name_pairs,
            val_queries=val_queries, dojo=dojo, parity=parity, parity_texts=parity_texts,
            by_file={k: v for k, v in by_file.items()}, ns_of=ns_of,
            statements=[r.get('statement', '') for r in recs])
pickle.dump(meta, open(os.path.join(work, 'meta.pkl'), 'wb'))
print(f'[prep] texts={len(texts)} state_pairs={len(state_pairs)} (queries {n_q}) doc_pairs={len(doc_pairs)} '
      f'name_pairs={len(name_pairs)} val_queries={len(val_queries)} dojo={len(dojo)} '
      f'heldout_files={len({prem_file[i] for i in range(N) if heldfile[i]})} holdout_names_in_corpus={sum(1 for r in recs if r["name"] in holdout)} '
      f'({time.time()-t0:.1f}s)', flush=True)
