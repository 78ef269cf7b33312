#!/usr/bin/env python3
"""A learned first-stage fusion (`fusion.json`, used with `--fusion DIR`; server/src/engine/learned-fusion.ts).

usage: train.py <pools.jsonl> --out DIR --encoder-id ID [--betas 0,0.5,1] [--epochs 12] [--lr 0.003]

<pools.jsonl>: `premise-lsp fusion-data` output. Per search, every candidate of the hybrid's pool
with the inputs `fusionInputs` computes (BASE then EXTRA features), its uses and a 0/1 label;
per search the QUERY features. The model is
    score = base · (w + U · q) + extra · v
started from the hand-set weights (w = 0.3/0.9/0.2/0.8/0.3, U = 0, v = 0: exactly the hand fusion)
and trained with a listwise softmax over each pool; the positives' target mass is ∝ (1 + uses)^-β,
so that popular premises are not rewarded for their popularity alone.
Selection, on the dev searches only (files whose stable hash is 1 mod 20, each searched with and
without its file context): the (β, epoch) with the largest sum of R@10 + nDCG@10 over three views
(with context; without; without, scoring only new premises, < 5 uses: a proxy for statements whose
premises are new, as MathlibMPR's); epoch 0 (the hand-set weights) competes too.
"""
import argparse, os, sys, json, math, random, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from common import heldout_files

HELD_FILES = heldout_files()  # the one hold-out rule's list (premise-lsp holdout-files)
import numpy as np
import torch

ap = argparse.ArgumentParser()
ap.add_argument('pools')
ap.add_argument('--out', required=True)
ap.add_argument('--encoder-id', required=True)
ap.add_argument('--betas', default='0,0.5,1')
ap.add_argument('--epochs', type=int, default=12)
ap.add_argument('--lr', type=float, default=0.003)
ap.add_argument('--batch', type=int, default=64)
ap.add_argument('--seed', type=int, default=0)
ap.add_argument('--no-new-view', action='store_true', help='choose on the two dev views only, not the new-premise proxy')
args = ap.parse_args()
T0 = time.time()
HAND = [0.3, 0.9, 0.2, 0.8, 0.3]
LOW_USES = 5


def log(*a):
    print(f'[fusion {time.time() - T0:6.1f}s]', *a, flush=True)


lines = open(args.pools)
header = json.loads(next(lines))
assert header.get('header'), 'not a fusion-data file'
NB, NE, NQ = len(header['base']), len(header['extra']), len(header['query'])
data, dropped = [], 0
for line in lines:
    q = json.loads(line)
    if not q['rows']:
        continue
    if q.get('file') is None:
        sys.exit('fusion-data lines have no file: write them again with premise-lsp fusion-data')
    if q['file'] in HELD_FILES:
        dropped += 1  # data written under another rule: a held-out file's query is never trained on
        continue
    R = np.array(q['rows'], dtype=np.float32)
    data.append(dict(split=q['split'], context=q['context'], n_gold=q['nGold'], x=torch.from_numpy(R[:, :NB + NE].copy()),
                     q=torch.tensor(q['query'], dtype=torch.float32), uses=R[:, NB + NE], y=R[:, NB + NE + 1]))
train = [d for d in data if d['split'] == 'train']
dev = [d for d in data if d['split'] == 'dev']
views = {'context': [d for d in dev if d['context']], 'no context': [d for d in dev if not d['context']]}
log(f'{dropped} searches from held-out files dropped (HOLDOUT_FILES)')
log(f'{len(train)} training searches, {len(dev)} dev searches; features {NB} base + {NE} extra, {NQ} query')


class Fusion(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.tensor(HAND))
        self.v = torch.nn.Parameter(torch.zeros(NE))
        self.u = torch.nn.Parameter(torch.zeros(NB, NQ))

    def forward(self, d):
        return d['x'][:, :NB] @ (self.w + self.u @ d['q']) + d['x'][:, NB:] @ self.v


def metrics(items, model, new_only=False):
    r10 = nd = 0.0
    n = 0
    with torch.no_grad():
        for d in items:
            y = d['y'] * (d['uses'] < LOW_USES) if new_only else d['y']
            ng = int(y.sum()) if new_only else d['n_gold']
            if ng == 0:
                continue
            top = np.argsort(-model(d).numpy(), kind='stable')[:10]
            hits = y[top]
            r10 += hits.sum() / ng
            nd += sum(h / math.log2(i + 2) for i, h in enumerate(hits)) / sum(1 / math.log2(i + 2) for i in range(min(ng, 10)))
            n += 1
    return {'R@10': round(r10 / n, 4), 'nDCG@10': round(nd / n, 4), 'searches': n}


def evaluate(model):
    m = {k: metrics(v, model) for k, v in views.items()}
    m['no context, new premises'] = metrics(views['no context'], model, new_only=True)
    chosen_on = [k for k in m if not (args.no_new_view and k.startswith('no context, new'))]
    m['criterion'] = round(sum(m[k]['R@10'] + m[k]['nDCG@10'] for k in chosen_on), 4)
    return m


def state(model):
    return {'w': model.w.detach().tolist(), 'v': model.v.detach().tolist(), 'u': model.u.detach().tolist()}


random.seed(args.seed); torch.manual_seed(args.seed)
hand = Fusion()
dev_hand = evaluate(hand)
best = {'beta': None, 'epoch': 0, 'dev': dev_hand, **state(hand)}
log('hand-set weights (epoch 0):', best['dev'])
grid = []
for beta in [float(b) for b in args.betas.split(',')]:
    model = Fusion()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    order = list(train)
    for epoch in range(1, args.epochs + 1):
        random.shuffle(order)
        for a in range(0, len(order), args.batch):
            loss = 0.0
            for d in order[a:a + args.batch]:
                if d['y'].sum() == 0:
                    continue
                t = d['y'] * (1 + d['uses']) ** -beta
                t = torch.from_numpy((t / t.sum()).astype(np.float32))
                loss = loss - (t * torch.log_softmax(model(d) / 0.1, 0)).sum() / args.batch
            loss = loss + 1e-3 * (model.u ** 2).sum()
            opt.zero_grad(); loss.backward(); opt.step()
        m = evaluate(model)
        grid.append({'beta': beta, 'epoch': epoch, **m})
        log(f'β {beta} epoch {epoch}:', m)
        if m['criterion'] > best['dev']['criterion']:
            best = {'beta': beta, 'epoch': epoch, 'dev': m, **state(model)}
log(f'chosen: β {best["beta"]} epoch {best["epoch"]}', best['dev'])
out = {'format': 'premise-lsp-fusion', 'version': 1, 'encoder_id': args.encoder_id,
       'base': header['base'], 'extra': header['extra'], 'query': header['query'],
       'w': [round(x, 6) for x in best['w']], 'v': [round(x, 6) for x in best['v']], 'u': [[round(x, 6) for x in r] for r in best['u']],
       'training': {'pools': header.get('index'), 'train_searches': len(train), 'dev_searches': len(dev), 'beta': best['beta'],
                    'epoch': best['epoch'], 'lr': args.lr, 'batch': args.batch, 'dev_hand': dev_hand, 'dev_chosen': best['dev'],
                    'grid': grid, 'seconds': round(time.time() - T0)}}
import os
os.makedirs(args.out, exist_ok=True)
json.dump(out, open(os.path.join(args.out, 'fusion.json'), 'w'), indent=1)
log('wrote', os.path.join(args.out, 'fusion.json'))
