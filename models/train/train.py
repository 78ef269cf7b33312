#!/usr/bin/env python3
"""Step 4-6: contrastive training, validation (dense / BM25 / fusion), ONNX export, parity.

usage: train.py <work_dir> <out_dir>
Env: TRAIN_SECONDS (wall-clock budget for the optimisation loop), BATCH, LR, DIM, LAYERS, TAU,
     EVAL_ONLY=1 (load <work>/model.pt and evaluate), SEED.
"""
import os, sys, time, json, math, pickle, random, re, collections
import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model import Encoder, BagEncoder

torch.set_num_threads(int(os.environ.get('THREADS', '2')))  # 1 on oversubscribed shared cores
T_START = time.time()
work, out_dir = sys.argv[1], sys.argv[2]
os.makedirs(out_dir, exist_ok=True)
env = os.environ.get
TRAIN_SECONDS = float(env('TRAIN_SECONDS', '2600'))
BATCH = int(env('BATCH', '256'))
LR = float(env('LR', '2e-3'))
DIM = int(env('DIM', '256'))
LAYERS = int(env('LAYERS', '0'))
KERNEL = int(env('KERNEL', '5'))
TAU = float(env('TAU', '0.05'))
FREQ_T = float(env('FREQ_T', '30'))  # inverse-frequency subsampling threshold
DOC_FRAC = float(env('DOC_FRAC', '0.12'))  # fraction of batches' pairs from docstring/name pairs
QMAX, PMAX = 256, 256
TRAIN_QMAX, TRAIN_PMAX = int(env('TRAIN_QMAX', '256')), int(env('TRAIN_PMAX', '128'))
BIGRAM = int(env('BIGRAM', '0'))
SEED = int(env('SEED', '0'))
random.seed(SEED); np.random.seed(SEED); torch.manual_seed(SEED)


def log(*a):
    print(f'[train {time.time() - T_START:7.1f}s]', *a, flush=True)


meta = pickle.load(open(os.path.join(work, 'meta.pkl'), 'rb'))
IDS = np.fromfile(os.path.join(work, 'tok.ids.bin'), dtype=np.int32)
OFF = np.fromfile(os.path.join(work, 'tok.off.bin'), dtype=np.int64)
tok = json.load(open(os.path.join(out_dir, 'tokenizer.json'), encoding='utf-8'))
V = len(tok['model']['vocab'])
N = len(meta['names'])
PA = np.array(meta['prem_args']); PG = np.array(meta['prem_goal'])
log(f'vocab={V} premises={N} state_pairs={len(meta["state_pairs"])} doc={len(meta["doc_pairs"])} name={len(meta["name_pairs"])}')


def batch_tensors(text_ids, maxlen):
    """one padded batch (pads to the longest sequence)"""
    seqs = [IDS[OFF[t]:OFF[t + 1]][:maxlen] for t in text_ids]
    L = max(1, max(len(s) for s in seqs))
    arr = np.zeros((len(seqs), L), dtype=np.int64)
    msk = np.zeros((len(seqs), L), dtype=np.int64)
    for i, s in enumerate(seqs):
        arr[i, :len(s)] = s
        msk[i, :len(s)] = 1
    return torch.from_numpy(arr), torch.from_numpy(msk)


CHUNK = 64


def flat_batch(text_ids, maxlen):
    seqs = [IDS[OFF[t]:OFF[t + 1]][:maxlen] for t in text_ids]
    lens = np.array([len(s) for s in seqs], dtype=np.int64)
    flat = np.concatenate(seqs).astype(np.int64) if lens.sum() else np.zeros(0, dtype=np.int64)
    offs = np.zeros(len(seqs), dtype=np.int64)
    offs[1:] = np.cumsum(lens)[:-1]
    prev = np.zeros_like(flat)
    prev[1:] = flat[:-1]
    prev[offs[lens > 0]] = 0
    return torch.from_numpy(flat), torch.from_numpy(offs), torch.from_numpy(prev)


def encode_chunked(model, text_ids, maxlen):
    if isinstance(model, BagEncoder):
        return model.encode_flat(*flat_batch(np.asarray(text_ids), maxlen))
    """encode with length-sorted chunks to limit padding; returns rows in input order"""
    text_ids = np.asarray(text_ids)
    order = np.argsort(OFF[text_ids + 1] - OFF[text_ids], kind='stable')
    outs = [model(*batch_tensors(text_ids[order[s:s + CHUNK]], maxlen)) for s in range(0, len(order), CHUNK)]
    y = torch.cat(outs, 0)
    inv = torch.empty(len(order), dtype=torch.long)
    inv[torch.from_numpy(order)] = torch.arange(len(order))
    return y[inv]


def premise_vec(model, pids, maxlen=PMAX):
    a = F.normalize(encode_chunked(model, PA[pids], maxlen), dim=-1)
    g = F.normalize(encode_chunked(model, PG[pids], maxlen), dim=-1)
    return 0.5 * (a + g)


# ---------------------------------------------------------------- evaluation helpers
@torch.no_grad()
def encode_texts(model, text_ids, maxlen, bs=512):
    text_ids = np.asarray(text_ids)
    lens = OFF[text_ids + 1] - OFF[text_ids]
    order = np.argsort(lens)
    out = np.zeros((len(text_ids), model.config['out_dim']), dtype=np.float32)
    for s in range(0, len(order), bs):
        idx = order[s:s + bs]
        if isinstance(model, BagEncoder):
            out[idx] = model.encode_flat(*flat_batch(text_ids[idx], maxlen)).numpy()
        else:
            out[idx] = model(*batch_tensors(text_ids[idx], maxlen)).numpy()
    return out


def l2n(x):
    return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)


@torch.no_grad()
def encode_premises(model, pids):
    pids = np.asarray(pids)
    return 0.5 * (l2n(encode_texts(model, PA[pids], PMAX)) + l2n(encode_texts(model, PG[pids], PMAX)))


BM25_PAT = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+|[^\sA-Za-z0-9()\[\]{}:,._'`]")


def bm25_tokens(s):
    return [w.lower() for w in BM25_PAT.findall(s)]


class BM25:
    def __init__(self, docs, k1=1.2, b=0.75):
        self.k1, self.b = k1, b
        post = collections.defaultdict(list)
        lens = np.zeros(len(docs), dtype=np.float32)
        for d, toks in enumerate(docs):
            lens[d] = len(toks)
            for w, c in collections.Counter(toks).items():
                post[w].append((d, c))
        self.N = len(docs)
        avg = lens.mean()
        self.post = {}
        for w, lst in post.items():
            ids = np.array([d for d, _ in lst], dtype=np.int64)
            tf = np.array([c for _, c in lst], dtype=np.float32)
            idf = math.log(1 + (self.N - len(lst) + 0.5) / (len(lst) + 0.5))
            self.post[w] = (ids, idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * lens[ids] / avg)))

    def scores(self, q):
        s = np.zeros(self.N, dtype=np.float32)
        for w in set(bm25_tokens(q)):
            p = self.post.get(w)
            if p is not None:
                s[p[0]] += p[1]
        return s


def metrics_from_scores(all_scores, golds, ks=(10, 100)):
    """all_scores: list of score vectors over the pool (already with excluded items at -inf)."""
    res = {f'R@{k}': [] for k in ks}
    res['MRR'] = []
    for s, g in zip(all_scores, golds):
        g = np.asarray(g)
        top = np.argpartition(-s, 100)[:100]
        top = top[np.argsort(-s[top])]
        for k in ks:
            res[f'R@{k}'].append(len(set(top[:k].tolist()) & set(g.tolist())) / len(g))
        best = s[g].max()
        rank = int((s > best).sum()) + 1
        res['MRR'].append(1.0 / rank)
    return {k: float(np.mean(v)) for k, v in res.items()}


def fuse(d, b, w=1.0, K=1000):
    """normalised score sum over each system's top-K (min-max within top-K)."""
    out = np.full_like(d, -np.inf)
    def norm(s):
        top = np.argpartition(-s, K)[:K]
        lo, hi = s[top].min(), s[top].max()
        z = np.zeros_like(s)
        z[top] = (s[top] - lo) / max(hi - lo, 1e-9)
        return z, top
    dz, dt = norm(d); bz, bt = norm(b)
    cand = np.union1d(dt, bt)
    out[cand] = dz[cand] + w * bz[cand]
    return out


def evaluate(model, full=True, with_bm25=True, tag=''):
    model.eval()
    t0 = time.time()
    name2id = None
    val = meta['val_queries']
    dojo = [(q, g, n) for q, g, n in meta['dojo'] if g]
    if full:
        pool = np.arange(N)
    else:  # quick: gold premises + a random 25k slice
        gold = set(j for _, g, _ in val for j in g) | set(j for _, g, _ in dojo for j in g)
        rs = np.random.RandomState(1)
        pool = np.unique(np.concatenate([np.array(sorted(gold)), rs.choice(N, min(N, 25000), replace=False)]))
    pos_in_pool = {p: i for i, p in enumerate(pool.tolist())}
    P = encode_premises(model, pool)
    out = {}
    sets = {'heldout': [(q, g, d) for q, g, d in val], 'leandojo': [(q, g, -1) for q, g, _ in dojo]}
    if with_bm25:
        docs = [bm25_tokens(' '.join(re.split(r'[._]', meta['names'][p])) + ' ' + meta['statements'][p]) for p in pool]
        bm = BM25(docs)
    texts_needed = None
    for nm, qs in sets.items():
        Q = l2n(encode_texts(model, [q for q, _, _ in qs], QMAX))
        golds = [[pos_in_pool[j] for j in g if j in pos_in_pool] for _, g, _ in qs]
        dense = Q @ P.T
        for i, (_, _, d) in enumerate(qs):
            if d >= 0 and d in pos_in_pool:
                dense[i, pos_in_pool[d]] = -np.inf
        keep = [i for i, g in enumerate(golds) if g]
        out[nm] = {'queries': len(keep), 'dense': metrics_from_scores([dense[i] for i in keep], [golds[i] for i in keep])}
        if with_bm25:
            qtexts = load_texts([q for q, _, _ in qs])
            bms = []
            for i in keep:
                s = bm.scores(qtexts[i])
                d = qs[i][2]
                if d >= 0 and d in pos_in_pool:
                    s[pos_in_pool[d]] = -np.inf
                bms.append(s)
            out[nm]['bm25'] = metrics_from_scores(bms, [golds[i] for i in keep])
            for w in (0.5, 1.0):
                fused = [fuse(dense[i], np.where(np.isfinite(b), b, -1e9), w) for i, b in zip(keep, bms)]
                out[nm][f'fusion_w{w}'] = metrics_from_scores(fused, [golds[i] for i in keep])
    out['pool'] = int(len(pool))
    log(f'eval{tag} ({"full" if full else "quick"}, {time.time() - t0:.0f}s): ' + json.dumps(out))
    model.train()
    return out


_TEXTS = None


def load_texts(tids):
    global _TEXTS
    if _TEXTS is None:
        want = set()
        for q, _, _ in meta['val_queries']: want.add(q)
        for q, _, _ in meta['dojo']: want.add(q)
        _TEXTS = {}
        with open(os.path.join(work, 'texts.jsonl'), encoding='utf-8') as f:
            for i, line in enumerate(f):
                if i in want:
                    _TEXTS[i] = json.loads(line)
    return [_TEXTS[t] for t in tids]


# ---------------------------------------------------------------- training
ARCH = env('ARCH', 'bag')
if ARCH == 'bag':
    model = BagEncoder(V, dim=DIM, out_dim=DIM, bigram_buckets=BIGRAM, sparse=True)
else:
    model = Encoder(V, dim=DIM, out_dim=DIM, layers=LAYERS, kernel=KERNEL, bigram_buckets=BIGRAM, sparse=True)
log(f'params={sum(p.numel() for p in model.parameters()) / 1e6:.2f}M')

refs = meta['refs']
refsets = [set(r) for r in refs]
freq = meta['freq']
by_file = meta['by_file']
files = meta['files']
banned = meta['banned']
state_pairs = meta['state_pairs']
aux_pairs = meta['doc_pairs'] + meta['name_pairs']
sp_keep = np.array([min(1.0, math.sqrt(FREQ_T / max(1, freq.get(p, 1)))) for _, p, _ in state_pairs])
log(f'inverse-frequency subsampling keeps {sp_keep.sum():.0f} of {len(state_pairs)} state pairs per epoch')


def epoch_pairs(rng):
    sel = np.nonzero(rng.random_sample(len(state_pairs)) < sp_keep)[0]
    sp = [state_pairs[i] for i in sel]
    n_aux = int(len(sp) * DOC_FRAC / (1 - DOC_FRAC))
    ax = [aux_pairs[i] for i in rng.choice(len(aux_pairs), min(n_aux, len(aux_pairs)), replace=False)]
    allp = sp + ax
    rng.shuffle(allp)
    return allp


def hard_negative(rng, p, qd):
    pool = by_file.get(files[p])
    if not pool or len(pool) < 2:
        return int(rng.randint(N))
    for _ in range(4):
        n = pool[rng.randint(len(pool))]
        if n != p and (qd < 0 or n not in refsets[qd]):
            return n
    return int(rng.randint(N))


if env('EVAL_ONLY'):
    model.load_state_dict(torch.load(os.path.join(work, 'model.pt')))
    evaluate(model, full=True)
    sys.exit(0)

sparse_params = [model.emb.weight] + ([model.bigram.weight] if model.bigram is not None else []) + \
    ([model.score.weight] if ARCH == 'bag' else [])
dense_params = [p for p in model.parameters() if all(p is not q for q in sparse_params)]
opts = [torch.optim.SparseAdam(sparse_params, lr=LR), torch.optim.AdamW(dense_params, lr=LR, weight_decay=0.01)]
rng = np.random.RandomState(SEED)
t_train = time.time()
step, ep, seen = 0, 0, 0
losses = []
WARM = 100
pairs, pi = epoch_pairs(rng), 0
QUICK_EVERY = float(env('QUICK_EVERY', '0'))
next_quick = time.time() + QUICK_EVERY if QUICK_EVERY else float('inf')
model.train()
while True:
    el = time.time() - t_train
    if el > TRAIN_SECONDS:
        break
    frac = el / TRAIN_SECONDS
    lr = LR * min(1.0, (step + 1) / WARM) * (0.05 + 0.95 * 0.5 * (1 + math.cos(math.pi * frac)))
    for o in opts:
        for g in o.param_groups:
            g['lr'] = lr
    if pi + BATCH > len(pairs):
        pairs, pi, ep = epoch_pairs(rng), 0, ep + 1
    batch = pairs[pi:pi + BATCH]; pi += BATCH
    qs = [q for q, _, _ in batch]
    ps = [p for _, p, _ in batch]
    qd = [d for _, _, d in batch]
    negs = [hard_negative(rng, p, d) for _, p, d in batch]
    prem = list(dict.fromkeys(ps + negs))
    col = {p: i for i, p in enumerate(prem)}
    target = torch.tensor([col[p] for p in ps])
    mask = torch.zeros(len(batch), len(prem), dtype=torch.bool)
    for i in range(len(batch)):
        if qd[i] >= 0:
            for r in refs[qd[i]]:
                j = col.get(r)
                if j is not None and j != target[i]:
                    mask[i, j] = True
    q = F.normalize(encode_chunked(model, np.array(qs), TRAIN_QMAX), dim=-1)
    P = premise_vec(model, np.array(prem), TRAIN_PMAX)
    logits = (q @ P.T) / TAU
    logits = logits.masked_fill(mask, -1e4)
    loss = F.cross_entropy(logits, target)
    for o in opts:
        o.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(dense_params, 5.0)
    for o in opts:
        o.step()
    step += 1; seen += len(batch)
    losses.append(loss.item())
    if step % 50 == 0:
        log(f'step {step} ep {ep} pairs {seen} loss {np.mean(losses[-50:]):.3f} lr {lr:.2e} ({seen / (time.time() - t_train):.0f} pairs/s)')
    if time.time() > next_quick:
        evaluate(model, full=False, with_bm25=False, tag=f' step {step}')
        next_quick = time.time() + QUICK_EVERY
train_time = time.time() - t_train
log(f'training loop done: {step} steps, {seen} pairs, {ep} full epochs, {train_time:.0f}s')
torch.save(model.state_dict(), os.path.join(work, 'model.pt'))
model.eval()

# ---------------------------------------------------------------- export
onnx_path = os.path.join(out_dir, 'model.onnx')
dummy = batch_tensors(np.array(meta['parity'][:2]), QMAX)
torch.onnx.export(model, dummy, onnx_path, input_names=['input_ids', 'attention_mask'],
                  output_names=['sentence_embedding'], opset_version=14,
                  dynamic_axes={'input_ids': {0: 'batch', 1: 'sequence'}, 'attention_mask': {0: 'batch', 1: 'sequence'},
                                'sentence_embedding': {0: 'batch'}})
par_ids = [IDS[OFF[t]:OFF[t + 1]][:QMAX].tolist() for t in meta['parity']]
with torch.no_grad():
    par_vecs = [model(torch.tensor([ids], dtype=torch.int64), torch.ones(1, len(ids), dtype=torch.int64))[0].tolist()
                for ids in par_ids]
    # a padded batch must give the same vectors as single sequences
    bt = model(*batch_tensors(np.array(meta['parity']), QMAX)).numpy()
    assert np.abs(bt - np.array(par_vecs)).max() < 1e-4, 'padding changes the output'
json.dump({'max_length': QMAX, 'tolerance': 1e-4,
           'cases': [{'text': t, 'ids': i, 'embedding': [round(x, 7) for x in v]}
                     for t, i, v in zip(meta['parity_texts'], par_ids, par_vecs)]},
          open(os.path.join(out_dir, 'parity.json'), 'w', encoding='utf-8'), ensure_ascii=False, indent=1)
json.dump({'model_type': 'premise-lsp-' + ARCH + '-encoder', 'architectures': [type(model).__name__], **model.config,
           'max_length': QMAX, 'premise_max_length': PMAX, 'pad_token_id': 0,
           'similarity': 'query: f(s)/|f(s)|; premise: 0.5*(f(name args)/|.| + f(goal)/|.|); dot product'},
          open(os.path.join(out_dir, 'config.json'), 'w'), indent=1)
json.dump({'pooling': 'none', 'output': 'sentence_embedding', 'max_length': QMAX, 'query_prefix': '',
           'document_prefix': '', 'premise_text': {'args': 'name+args', 'goal': 'goal'}},
          open(os.path.join(out_dir, 'premise_lsp.json'), 'w'), indent=1)
log('exported', onnx_path, f'{os.path.getsize(onnx_path) / 1e6:.1f} MB')

if not env('NO_EVAL'):
    res = evaluate(model, full=True)
    res['train'] = dict(steps=step, pairs=seen, epochs=ep, train_loop_seconds=round(train_time), batch=BATCH, lr=LR,
                        arch=ARCH, dim=DIM, layers=LAYERS, kernel=KERNEL, bigram=BIGRAM, tau=TAU, freq_t=FREQ_T, doc_frac=DOC_FRAC,
                        final_loss=float(np.mean(losses[-100:])))
    json.dump(res, open(os.path.join(work, 'metrics.json'), 'w'), indent=1)
log('done')
