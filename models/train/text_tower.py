"""English text tower: English search terms -> a vector in the FROZEN premise space of an index.

Input: the directory written by `premise-lsp tower-data --index IDX --out DATA`
(vectors.i8 + scales.f32: the index's premise vectors; terms.json; pairs.jsonl: English views of
each premise as term ids). Output: models/text-tower/ (tower.json + tower.bin), read by
models/src/text-tower.ts.

Model (a weighted bag of terms, exactly what text-tower.ts computes):
    a_t = c_t * exp(s_t) / sum_u c_u * exp(s_u)      (c_t: the term's weight in the query)
    q   = sum_t a_t * E_t ;   score(q, p) = q/|q| . P_p
P (premise vectors 1/2 (f(Gamma_p)/|.| + f(G_p)/|.|), dequantised int8) is never trained.

Training pairs (query view -> its premise): the docstring, the name read as words, the statement
in words, and random short mixtures of those with the surrounding prose (module and section
titles), all as the runtime makes them. Loss: InfoNCE at temperature TAU against the batch's
positives, one premise of the same file (a hard negative) per pair, and NEG random premises.
Hold-out: the holdout list has no lines in pairs.jsonl; the files on the one hold-out rule's list
(HOLDOUT_FILES, written by `premise-lsp holdout-files`; server/src/eval/holdout.ts) are validation
only: every premise of a file an evaluation set queries. It refuses to run without the list, and
when the list and tower-data's `heldout` marks disagree.

Usage: HOLDOUT_FILES=FILE /usr/bin/python3 models/train/text_tower.py DATA OUT_DIR
Knobs (environment): TRAIN_SECONDS (900), BATCH (512), NEG (2048), THREADS (1), TAU (0.05), LR (0.005),
SEED (0).
"""
import hashlib
import json
import math
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import heldout_files

HELD_FILES = heldout_files()

import numpy as np
import torch

torch.set_num_threads(int(os.environ.get('THREADS', '1')))  # oversubscribed shared cores: one thread is faster
env = os.environ.get
TRAIN_SECONDS = float(env('TRAIN_SECONDS', '900'))
BATCH = int(env('BATCH', '512'))
NEG = int(env('NEG', '2048'))
TAU = float(env('TAU', '0.05'))
LR = float(env('LR', '0.005'))
SEED = int(env('SEED', '0'))
MAXLEN = 64
random.seed(SEED)
np.random.seed(SEED)
torch.manual_seed(SEED)

data, out_dir = sys.argv[1], sys.argv[2]
t0 = time.time()
meta = json.load(open(os.path.join(data, 'terms.json')))
terms = meta['terms']
V, N, D = len(terms), meta['premises'], meta['encoder']['dim']
rows = np.fromfile(os.path.join(data, 'vectors.i8'), dtype=np.int8).reshape(N, D)
scales = np.fromfile(os.path.join(data, 'scales.f32'), dtype=np.float32)
P = torch.from_numpy(rows.astype(np.float32) * scales[:, None])
print(f'premise vectors {N} x {D}, terms {V}', flush=True)


train, val = [], []
by_file = {}
for line in open(os.path.join(data, 'pairs.jsonl')):
    r = json.loads(line)
    held = r['file'] in HELD_FILES
    if 'heldout' in r and r['heldout'] != held:
        sys.exit(f"{r['file']}: tower-data says heldout={r['heldout']}, HOLDOUT_FILES says {held}: "
                 'write both from the same corpus and shared data')
    (val if held else train).append(r)
for r in train:
    by_file.setdefault(r['file'], []).append(r['id'])
print(f'premises: {len(train)} train, {len(val)} validation ({time.time() - t0:.0f}s)', flush=True)


def sample_view(r):
    """One English view of a premise: a whole docstring/name/statement, or a short mixture."""
    doc, name, stmt, ctx = r['doc'], r['name'], r['stmt'], r['ctx']
    x = random.random()
    if x < 0.25 and doc:
        v = doc
    elif x < 0.40 and name:
        v = name
    elif x < 0.55 and stmt:
        v = stmt
    else:
        # a short query: a few words of what the premise says, in any mix
        pool = list(set(doc) | set(name) | set(stmt)) + ctx
        if not pool:
            return name or stmt or doc
        k = random.randint(2, min(10, max(2, len(pool))))
        v = random.sample(pool, min(k, len(pool)))
    if len(v) > MAXLEN:
        s = random.randint(0, len(v) - MAXLEN)
        v = v[s:s + MAXLEN]
    return v


def batch_tensors(views):
    """Padded ids and counts (repeated terms count several times, as at runtime)."""
    L = max(1, max(len(set(v)) for v in views))
    ids = torch.zeros(len(views), L, dtype=torch.long)
    cnt = torch.zeros(len(views), L)
    for i, v in enumerate(views):
        c = {}
        for t in v:
            c[t] = c.get(t, 0) + 1
        for j, (t, n) in enumerate(c.items()):
            ids[i, j] = t
            cnt[i, j] = n
    return ids, cnt


# initial term vectors: the mean premise vector of the premises whose informal side has the term
E0 = torch.zeros(V, D)
df = torch.zeros(V)
for r in train:
    ts = list(set(r['doc']) | set(r['name']) | set(r['stmt']) | set(r['ctx']))
    if ts:
        idx = torch.tensor(ts)
        E0.index_add_(0, idx, P[r['id']].expand(len(ts), D))
        df.index_add_(0, idx, torch.ones(len(ts)))
E0 = E0 / df.clamp(min=1)[:, None]
E0 = E0 - E0.mean(0, keepdim=True) * 0.5
E = torch.nn.Parameter(E0.clone())
s = torch.nn.Parameter(torch.log((N + 1) / (df + 1)).clone())  # IDF-like start
print(f'init ({time.time() - t0:.0f}s)', flush=True)


def embed(ids, cnt):
    logit = s[ids] + torch.log(cnt.clamp(min=1e-9))
    logit = logit.masked_fill(cnt == 0, -1e9)
    a = torch.softmax(logit, dim=1)
    q = (a[:, :, None] * E[ids]).sum(1)
    return torch.nn.functional.normalize(q, dim=1)


# validation ranks the gold premise among EVAL_POOL fixed random premises (all 244k cost too much on 2 cores)
EVAL_POOL = int(env('EVAL_POOL', '20000'))
eval_pool = P[torch.randperm(N, generator=torch.Generator().manual_seed(2))[:EVAL_POOL]]


def evaluate(rows_, view, limit=300):
    """Recall@10 and MRR of one view: the gold premise ranked among the evaluation pool."""
    rs = [r for r in rows_ if r[view]][:limit]
    if not rs:
        return float('nan'), float('nan')
    hits, mrr = 0, 0.0
    with torch.no_grad():
        for i in range(0, len(rs), 300):
            chunk = rs[i:i + 300]
            ids, cnt = batch_tensors([r[view][:MAXLEN] for r in chunk])
            q = embed(ids, cnt)
            sc = torch.cat([q @ eval_pool.T, (q * P[torch.tensor([r['id'] for r in chunk])]).sum(1, keepdim=True)], dim=1)
            g = sc[:, -1]
            rank = (sc[:, :-1] > g[:, None]).sum(1) + 1
            hits += int((rank <= 10).sum())
            mrr += float((1.0 / rank.float()).sum())
    return hits / len(rs), mrr / len(rs)


rnd = random.Random(1)
val_sample = rnd.sample(val, min(len(val), 300)) if val else []
seen_sample = rnd.sample(train, 300)


def report(tag):
    line = {'at': tag}
    for name, rs in (('val', val_sample), ('seen', seen_sample)):
        if not rs:
            continue
        for view in ('doc', 'name', 'stmt'):
            r10, mrr = evaluate(rs, view)
            line[f'{name}_{view}_R@10'] = round(r10, 3)
    print(json.dumps(line), flush=True)
    return line


metrics = {'init': report('init')}
opt = torch.optim.Adam([E, s], lr=LR)
start, step, seen = time.time(), 0, 0
order = list(range(len(train)))
random.shuffle(order)
pos = 0
loss_avg = None
while time.time() - start < TRAIN_SECONDS:
    if pos + BATCH > len(order):
        random.shuffle(order)
        pos = 0
    rs = [train[i] for i in order[pos:pos + BATCH]]
    pos += BATCH
    views = [sample_view(r) for r in rs]
    keep = [i for i, v in enumerate(views) if v]
    rs = [rs[i] for i in keep]
    ids, cnt = batch_tensors([views[i] for i in keep])
    gold = torch.tensor([r['id'] for r in rs])
    hard = torch.tensor([random.choice(by_file[r['file']]) for r in rs])
    rand = torch.randint(0, N, (NEG,))
    cand = torch.cat([gold, hard, rand])
    q = embed(ids, cnt)
    logits = q @ P[cand].T / TAU
    # a candidate that is the query's own premise elsewhere in the list is not a negative
    same = cand[None, :] == gold[:, None]
    same[torch.arange(len(rs)), torch.arange(len(rs))] = False
    logits = logits.masked_fill(same, -1e9)
    loss = torch.nn.functional.cross_entropy(logits, torch.arange(len(rs)))
    # cosine decay over the wall-clock budget
    frac = (time.time() - start) / TRAIN_SECONDS
    for g in opt.param_groups:
        g['lr'] = LR * 0.5 * (1 + math.cos(math.pi * min(1.0, frac)))
    opt.zero_grad()
    loss.backward()
    opt.step()
    step += 1
    seen += len(rs)
    loss_avg = float(loss) if loss_avg is None else 0.98 * loss_avg + 0.02 * float(loss)
    if step % 50 == 0:
        print(f'step {step} pairs {seen} loss {loss_avg:.3f} ({time.time() - start:.0f}s)', flush=True)
    if step % 400 == 0:
        report(f'step {step}')

metrics['final'] = report('final')
metrics.update({'steps': step, 'pairs': seen, 'train_seconds': round(time.time() - start), 'batch': BATCH, 'neg': NEG, 'tau': TAU,
                'lr': LR, 'holdout_files': len(HELD_FILES), 'train_premises': len(train), 'val_premises': len(val)})

# export: tower.bin = E (V x D float32, little-endian) then s (V float32); tower.json names it
os.makedirs(out_dir, exist_ok=True)
blob = np.concatenate([E.detach().numpy().astype('<f4').ravel(), s.detach().numpy().astype('<f4')]).tobytes()
open(os.path.join(out_dir, 'tower.bin'), 'wb').write(blob)
card = {
    'format': 'premise-lsp-text-tower',
    'version': 1,
    'dim': D,
    'encoder_id': meta['encoder']['id'],
    'terms': terms,
    'bin_bytes': len(blob),
    'bin_sha256': hashlib.sha256(blob).hexdigest(),
    'metrics': metrics,
}
json.dump(card, open(os.path.join(out_dir, 'tower.json'), 'w'), ensure_ascii=False)
print(f'wrote {out_dir} ({len(blob) / 1e6:.1f} MB) in {time.time() - t0:.0f}s', flush=True)
