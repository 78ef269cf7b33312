"""Train the premise-lsp feature reranker and export it to ONNX.

    python3 train.py FEATURES.jsonl [FEATURES2.jsonl ...] --out models/reranker

Input: files written by `premise-lsp rerank-data` (a header line naming the
features, then one line per query: split, nGold, labels[50], features[50][F]).
Model: standardised features -> MLP (F -> H -> H/2 -> 1), trained with a listwise
softmax loss over each query's candidates (target: uniform over the positives).
Output: model.onnx (input `features` float32 [N, F] of standardised features ->
`scores` [N]) and reranker.json (feature names/order, mean/std, default flag,
metrics). Queries from the `val` split are never trained on; a slice of the
training files (stable hash of the file mod 20 == 1) picks the epoch.
"""
import argparse, hashlib, json, math, os, sys, time

import numpy as np
import torch
import torch.nn as nn

TOP = 50


def log(msg):
    print(f'[reranker] {msg}', file=sys.stderr, flush=True)


def file_bucket(name):
    return int.from_bytes(hashlib.sha1(name.encode()).digest()[:4], 'big') % 20


def load(paths, max_train=None):
    names, qs = None, {'train': [], 'dev': [], 'val': []}
    for src, path in enumerate(paths):
        with open(path) as f:
            header = json.loads(f.readline())
            if not header.get('header'):
                sys.exit(f'{path}: first line is not a rerank-data header')
            if names is None:
                names = header['features']
            elif names != header['features']:
                sys.exit(f'{path}: feature list differs from the first file')
            for line in f:
                d = json.loads(line)
                d['_src'] = src
                split = d['split']
                if split == 'train' and file_bucket(d['file']) == 1:
                    split = 'dev'
                qs[split].append(d)
    if max_train:
        qs['train'] = qs['train'][:max_train]
    return names, qs


def to_arrays(queries, F):
    n = len(queries)
    X = np.zeros((n, TOP, F), np.float32)
    Y = np.zeros((n, TOP), np.float32)
    M = np.zeros((n, TOP), bool)
    G = np.zeros(n, np.float32)
    for i, d in enumerate(queries):
        k = len(d['labels'])
        if k:
            X[i, :k] = np.asarray(d['features'], np.float32)
            Y[i, :k] = d['labels']
            M[i, :k] = True
        G[i] = d['nGold']
    return X, Y, M, G


def metrics(scores, Y, M, G):
    """Project metrics (server/src/eval/metrics.ts) with gold = every resolvable ref:
    R@k over gold refs, nDCG@10 (binary), MRR (first hit in the top 50, else 0)."""
    s = np.where(M, scores, -np.inf)
    order = np.argsort(-s, axis=1, kind='stable')
    rel = np.take_along_axis(Y, order, axis=1) * np.take_along_axis(M, order, axis=1)
    disc = 1.0 / np.log2(np.arange(2, TOP + 2))
    out = {}
    for k in (1, 5, 10, 50):
        out[f'R@{k}'] = float(np.mean(rel[:, :k].sum(1) / G))
    idcg = np.array([disc[:min(int(g), 10)].sum() for g in G])
    out['nDCG@10'] = float(np.mean((rel[:, :10] * disc[:10]).sum(1) / idcg))
    first = np.where(rel.any(1), rel.argmax(1) + 1, np.inf)
    out['MRR'] = float(np.mean(np.where(np.isfinite(first), 1.0 / first, 0.0)))
    return out


class MLP(nn.Module):
    def __init__(self, F, hidden):
        super().__init__()
        if hidden == 0:
            self.net = nn.Linear(F, 1)
        else:
            self.net = nn.Sequential(nn.Linear(F, hidden), nn.ReLU(), nn.Linear(hidden, hidden // 2), nn.ReLU(), nn.Linear(hidden // 2, 1))

    def forward(self, features):
        return self.net(features).squeeze(-1)


def listwise_loss(scores, Y, M):
    s = scores.masked_fill(~M, -1e9)
    logp = torch.log_softmax(s, dim=1)
    target = Y / Y.sum(1, keepdim=True)
    return -(target * logp).sum(1).mean()


def predict(model, X):
    model.eval()
    with torch.no_grad():
        out = [model(torch.from_numpy(X[i:i + 4096])).numpy() for i in range(0, len(X), 4096)]
    return np.concatenate(out) if out else np.zeros((0, TOP), np.float32)


def train(Xtr, Ytr, Mtr, dev, F, hidden, epochs, lr, seed):
    torch.manual_seed(seed)
    np.random.seed(seed)
    keep = Ytr.sum(1) > 0  # queries without a positive in the pool carry no listwise signal
    Xt, Yt, Mt = (torch.from_numpy(a[keep]) for a in (Xtr, Ytr, Mtr))
    model = MLP(F, hidden)
    opt = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=1e-5)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=epochs)
    best, best_state = -1.0, None
    for ep in range(epochs):
        model.train()
        perm = torch.randperm(len(Xt))
        total = 0.0
        for i in range(0, len(perm), 256):
            idx = perm[i:i + 256]
            loss = listwise_loss(model(Xt[idx]), Yt[idx], Mt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        sched.step()
        m = metrics(predict(model, dev[0]), *dev[1:])
        score = m['R@10'] + m['nDCG@10']
        log(f'hidden {hidden} epoch {ep + 1}/{epochs}: loss {total / len(Xt):.4f}  dev R@10 {m["R@10"]:.4f} nDCG@10 {m["nDCG@10"]:.4f} MRR {m["MRR"]:.4f}')
        if score > best:
            best, best_state = score, {k: v.clone() for k, v in model.state_dict().items()}
    model.load_state_dict(best_state)
    return model, best


def export(model, F, path):
    model.eval()
    torch.onnx.export(
        model, torch.zeros(2, F), path, input_names=['features'], output_names=['scores'],
        dynamic_axes={'features': {0: 'n'}, 'scores': {0: 'n'}}, opset_version=13)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('features', nargs='+')
    ap.add_argument('--out', required=True)
    ap.add_argument('--hidden', type=int, nargs='+', default=[0, 64], help='0 = logistic (linear) scorer; the best on dev is kept')
    ap.add_argument('--epochs', type=int, default=12)
    ap.add_argument('--lr', type=float, default=2e-3)
    ap.add_argument('--seed', type=int, default=13)
    ap.add_argument('--max-train', type=int, default=None)
    ap.add_argument('--first-stage', default=None, help='recorded in reranker.json (default: from the data header)')
    ap.add_argument('--lemma-positives', action='store_true',
                    help='train with only theorem/lemma candidates as positives (definitions named in proofs count as 0); metrics still count every ref')
    ap.add_argument('--drop-features', nargs='*', default=[],
                    help='features the model must not use: zeroed in training, and std 1e30 in reranker.json so they standardise to 0 at run time')
    ap.add_argument('--default', choices=['auto', 'true', 'false'], default='auto',
                    help='"default" in reranker.json: auto = R@10 and nDCG@10 both rise on the validation split; '
                         'override after checking the public benchmarks (see MODEL_CARD.md)')
    ap.add_argument('--meta', default='{}', help='JSON object merged into trainedOn (e.g. the encoder fingerprint)')
    ap.add_argument('--probe', default=None, help='write a few standardised rows and their scores here (keep it out of the repo)')
    args = ap.parse_args()
    t0 = time.time()
    torch.set_num_threads(max(1, min(2, os.cpu_count() or 1)))

    names, qs = load(args.features, args.max_train)
    F = len(names)
    with open(args.features[0]) as f:
        header = json.loads(f.readline())
    first_stage = args.first_stage or header.get('firstStage')
    tr = to_arrays(qs['train'], F)
    dev = to_arrays(qs['dev'], F)
    val = to_arrays(qs['val'], F)
    log(f'{F} features; queries train {len(qs["train"])} dev {len(qs["dev"])} val {len(qs["val"])}; loaded in {time.time() - t0:.0f}s')

    train_labels = tr[1]
    if args.lemma_positives:
        kt = names.index('kind_theorem')
        train_labels = tr[1] * (tr[0][:, :, kt] > 0.5)
        log(f'lemma positives: {int(train_labels.sum())} of {int(tr[1].sum())} training positives kept')
    rows = tr[0][tr[2]]
    mean = rows.mean(0)
    std = rows.std(0)
    std[std < 1e-6] = 1.0
    for name in args.drop_features:
        j = names.index(name)
        mean[j], std[j] = 0.0, 1e30
    if args.drop_features:
        log(f'dropped features: {", ".join(args.drop_features)}')
    norm = lambda a: ((a[0] - mean) / std * a[2][..., None]).astype(np.float32)
    Xtr, Xdev, Xval = norm(tr), norm(dev), norm(val)
    dev_n = (Xdev, dev[1], dev[2], dev[3])

    best = None
    for h in args.hidden:
        model, score = train(Xtr, train_labels, tr[2], dev_n, F, h, args.epochs, args.lr, args.seed)
        if best is None or score > best[1]:
            best = (model, score, h)
    model, _, hidden = best
    log(f'kept hidden={hidden} ({"logistic" if hidden == 0 else "MLP"})')

    # held-out comparison, per input file: first-stage order (pool order) vs reranked.
    # The first file is the first stage the model ships for: it decides `default`.
    pred = predict(model, Xval)
    src = np.array([d['_src'] for d in qs['val']])
    per_file = {}
    for i, path in enumerate(args.features):
        sel = src == i
        if not sel.any():
            continue
        base_scores = -np.tile(np.arange(TOP, dtype=np.float32), (int(sel.sum()), 1))
        m_first = metrics(base_scores, val[1][sel], val[2][sel], val[3][sel])
        m_rerank = metrics(pred[sel], val[1][sel], val[2][sel], val[3][sel])
        per_file[os.path.basename(path)] = {'queries': int(sel.sum()), 'firstStage': m_first, 'reranked': m_rerank}
        for label, m in (('first stage', m_first), ('reranked', m_rerank)):
            log(f'val [{os.path.basename(path)}] {label:12s} ' + '  '.join(f'{k} {v:.4f}' for k, v in m.items()))
    main_val = next(iter(per_file.values()))
    m_first, m_rerank = main_val['firstStage'], main_val['reranked']
    on = m_rerank['R@10'] > m_first['R@10'] and m_rerank['nDCG@10'] > m_first['nDCG@10']
    if args.default != 'auto':
        log(f'default forced to {args.default} (validation alone says {on})')
        on = args.default == 'true'

    os.makedirs(args.out, exist_ok=True)
    onnx_path = os.path.join(args.out, 'model.onnx')
    export(model, F, onnx_path)
    import onnx
    onnx.checker.check_model(onnx.load(onnx_path))
    spec = {
        'format': 'premise-lsp-reranker',
        'version': 1,
        'features': names,
        'mean': [round(float(x), 6) for x in mean],
        'std': [float(x) if x >= 1e29 else round(float(x), 6) for x in std],
        'default': bool(on),
        # training queries are Lean statements rendered as proof states; other query
        # styles (plain text, Isabelle) keep their first-stage order
        'styles': ['lean-state', 'lean-statement'],
        'trainedOn': {
            'firstStage': first_stage,
            'model': 'logistic' if hidden == 0 else f'MLP {F}-{hidden}-{hidden // 2}-1 (ReLU)',
            'loss': 'listwise softmax (uniform target over positives)',
            'positives': 'theorem/lemma refs only' if args.lemma_positives else 'every ref',
            'droppedFeatures': args.drop_features,
            'queries': {'train': len(qs['train']), 'dev': len(qs['dev']), 'val': len(qs['val'])},
            'val': per_file,
            'trainSeconds': round(time.time() - t0),
            **json.loads(args.meta),
        },
    }
    with open(os.path.join(args.out, 'reranker.json'), 'w') as f:
        json.dump(spec, f, indent=1, ensure_ascii=False)
        f.write('\n')
    if args.probe and len(Xval):
        # reference scores for checking the export from TypeScript (Mathlib-derived: keep out of the repo)
        ref = predict(model, Xval[:1])[0]
        with open(args.probe, 'w') as f:
            json.dump({'standardised': Xval[0][:4].round(6).tolist(), 'scores': ref[:4].round(6).tolist()}, f)
    log(f'wrote {onnx_path} ({os.path.getsize(onnx_path)} bytes), default={on}; total {time.time() - t0:.0f}s')


if __name__ == '__main__':
    main()
