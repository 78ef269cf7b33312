#!/usr/bin/env python3
"""The learned ranker (`ranker.json`, used with `--ranker DIR`; server/src/engine/tree-ranker.ts):
LambdaMART trees (xgboost `rank:pairwise` or `rank:ndcg`) over the pipeline's feature vector
(server/src/engine/pipeline/rank-features.ts) of the hand-set fusion's head.

usage: train.py <pools.jsonl>... --out DIR --encoder-id ID [--objectives rank:pairwise,rank:ndcg]
                [--depths 6] [--trees 150] [--eta 0.1] [--threads 1] [--project-weight 1]

<pools.jsonl>: `premise-lsp fusion-data --ranker` output (library statements, or a Lake project's
theorems with --project): per search the head's rows (features, then a 0/1 label), its split
(`train` or `dev`, by the one hold-out rule's dev files) and how many gold premises it has.
Every (objective, depth) is trained on the train searches (a Lake project's searches weigh
--project-weight each); the one with the best dev R@10 + nDCG@10 (mean over the library's dev
searches, with and without file context, plus the projects' dev searches when there are any)
is written, with the hand-set
order's and its own dev numbers. Searches from held-out files (HOLDOUT_FILES) are dropped. Needs
Debian's python3-xgboost and numpy (no torch).
"""
import argparse, json, math, os, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from common import heldout_files

HELD_FILES = heldout_files()  # the one hold-out rule's list (premise-lsp holdout-files)
import numpy as np
import xgboost as xgb

ap = argparse.ArgumentParser()
ap.add_argument('pools', nargs='+')
ap.add_argument('--out', required=True)
ap.add_argument('--encoder-id', required=True)
ap.add_argument('--objectives', default='rank:pairwise,rank:ndcg')
ap.add_argument('--depths', default='6')
ap.add_argument('--trees', type=int, default=150)
ap.add_argument('--eta', type=float, default=0.1)
ap.add_argument('--threads', type=int, default=1)
ap.add_argument('--dependency-label', type=float, default=1.0,
                help="a Lake project's gold premise from its dependencies (entry 0) is labelled this (graded relevance; its own lemmas 1)")
ap.add_argument('--project-weight', type=float, default=1.0, help="weight of a Lake project's search against a library statement's")
args = ap.parse_args()
T0 = time.time()


def log(*a):
    print(f'[ranker {time.time() - T0:6.1f}s]', *a, flush=True)


features = query = top = None
searches = {'train': [], 'dev': []}
dropped = 0
for path in args.pools:
    with open(path, encoding='utf-8') as f:
        header = json.loads(next(f))
        assert header.get('header') and header.get('ranker'), f'{path}: not a fusion-data --ranker file'
        if features is None:
            features, query, top = header['features'], header['query'], header['top']
        assert (header['features'], header['query']) == (features, query), f'{path}: other features than {args.pools[0]}'
        for line in f:
            s = json.loads(line)
            if not s['rows'] or s['split'] not in searches:
                continue
            if s.get('file') in HELD_FILES:
                dropped += 1  # never trained or chosen on
                continue
            a = np.array([[np.nan if v is None else v for v in r] for r in s['rows']], dtype=np.float32)
            if 'project' in header and args.dependency_label != 1:
                dep = a[:, features.index('entry')] == 0
                a[dep, -1] *= args.dependency_label  # training labels only: the metrics below count hits (> 0)
            searches[s['split']].append({'x': a[:, :-1], 'y': a[:, -1], 'gold': max(1, s.get('nGold', 1)), 'context': s.get('context', True),
                                         'project': 'project' in header, 'weight': args.project_weight if 'project' in header else 1.0})
NF = len(features) + len(query)
log(f"{len(searches['train'])} train and {len(searches['dev'])} dev searches ({dropped} from held-out files dropped), {NF} features")


def dmatrix(ss, positives_only):
    ss = [s for s in ss if not positives_only or s['y'].any()]
    d = xgb.DMatrix(np.concatenate([s['x'] for s in ss]), label=np.concatenate([s['y'] for s in ss]), missing=np.nan)
    d.set_group([len(s['y']) for s in ss])
    d.set_weight(np.array([s['weight'] for s in ss], dtype=np.float32))  # one weight per search (group)
    return d


def metrics(ss, scores_of):
    """R@10, R@100 and nDCG@10 (binary) over all of each search's gold, as eval reads them."""
    out = {'R@10': 0.0, 'R@100': 0.0, 'nDCG@10': 0.0}
    for s in ss:
        order = np.argsort(-scores_of(s), kind='stable')
        hits = (s['y'][order] > 0).astype(np.float32)
        g = s['gold']
        out['R@10'] += hits[:10].sum() / g
        out['R@100'] += hits[:100].sum() / g
        dcg = sum(1 / math.log2(i + 2) for i in np.nonzero(hits[:10])[0])
        out['nDCG@10'] += dcg / sum(1 / math.log2(i + 2) for i in range(min(g, 10)))
    return {k: round(v / max(1, len(ss)), 4) for k, v in out.items()}


def views(scores_of):
    dev = [s for s in searches['dev'] if not s['project']]
    out = {'all': metrics(dev, scores_of), 'context': metrics([s for s in dev if s['context']], scores_of),
           'no_context': metrics([s for s in dev if not s['context']], scores_of)}
    proj = [s for s in searches['dev'] if s['project']]
    if proj:
        out['project'] = metrics(proj, scores_of)
    return out


FUSED_RANK = features.index('fused_rank')
hand = views(lambda s: -s['x'][:, FUSED_RANK])
log('hand-set order, dev:', json.dumps(hand))
dtrain = dmatrix(searches['train'], True)
best = None
for objective in args.objectives.split(','):
    for depth in (int(d) for d in args.depths.split(',')):
        params = {'objective': objective, 'max_depth': depth, 'eta': args.eta, 'min_child_weight': 1, 'subsample': 0.8,
                  'colsample_bytree': 0.8, 'seed': 0, 'nthread': args.threads, 'eval_metric': 'ndcg@10', 'tree_method': 'hist'}
        model = xgb.train(params, dtrain, num_boost_round=args.trees)
        got = views(lambda s: model.predict(xgb.DMatrix(s['x'], missing=np.nan), output_margin=True))
        score = got['all']['R@10'] + got['all']['nDCG@10'] + (got['project']['R@10'] + got['project']['nDCG@10'] if 'project' in got else 0)
        log(f'{objective} depth {depth}, {args.trees} trees, dev:', json.dumps(got))
        if best is None or score > best[0]:
            best = (score, objective, depth, model, got)

_, objective, depth, model, got = best
os.makedirs(args.out, exist_ok=True)
tmp = os.path.join(args.out, 'xgb.json')
model.save_model(tmp)
trees = json.load(open(tmp))
os.remove(tmp)
out = {'format': 'premise-lsp-ranker', 'version': 1, 'encoder_id': args.encoder_id, 'features': features, 'query': query, 'top': top,
       'trained': {'objective': objective, 'max_depth': depth, 'trees': args.trees, 'eta': args.eta, 'train_searches': len(searches['train']),
                   'dev_searches': len(searches['dev']), 'project_weight': args.project_weight, 'dependency_label': args.dependency_label, 'dev_hand': hand, 'dev_learned': got, 'pools': [os.path.basename(p) for p in args.pools]},
       'model': trees}
with open(os.path.join(args.out, 'ranker.json'), 'w') as f:
    json.dump(out, f, separators=(',', ':'))
log(f"chose {objective} depth {depth}: wrote {os.path.join(args.out, 'ranker.json')}")
