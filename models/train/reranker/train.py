"""Train the premise-lsp feature reranker and export it to ONNX.

    python3 train.py FEATURES.jsonl [FEATURES2.jsonl ...] --out models/reranker

Input: files written by `premise-lsp rerank-data` (a header line naming the
features, then one line per query: split, nGold, labels[50], features[50][F]).
Model: standardised features -> linear + MLP (F -> H -> H/2 -> 1), starting at the
first stage's order (a residual), trained with a listwise softmax loss over each
query's candidates (target over the positives weighted against popularity).
Output: model.onnx (input `features` float32 [N, F] of standardised features ->
`scores` [N]) and reranker.json (feature names/order, mean/std, default flag,
metrics). Queries from the `val` split are never trained on; a slice of the
training files (rerank-data's `dev` mark: server/src/eval/holdout.ts isDevFile) picks the epoch, the size and the
popularity weighting, on all its queries and on its new-premise proxy (only positives
with fewer than --low-uses uses count).
"""
import argparse, json, math, os, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from common import heldout_files

HELD_FILES = heldout_files()  # the one hold-out rule's list (premise-lsp holdout-files)

import numpy as np
import torch
import torch.nn as nn

TOP = 50


def log(msg):
    print(f'[reranker] {msg}', file=sys.stderr, flush=True)


def load(paths, max_train=None):
    names, qs, dropped = None, {'train': [], 'dev': [], 'val': []}, 0
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
                if split != 'val' and d['file'] in HELD_FILES:
                    dropped += 1  # data written under another rule: a held-out file's query is never trained on
                    continue
                if 'dev' not in d:
                    sys.exit(f'{path}: lines without the dev mark (holdout.ts isDevFile): write them again with premise-lsp rerank-data')
                if split == 'train' and d['dev']:
                    split = 'dev'
                qs[split].append(d)
    if dropped:
        log(f'dropped {dropped} training queries from held-out files (HOLDOUT_FILES)')
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
    """A linear scorer plus (hidden > 0) an MLP on top of it. With `base` = (index, weight)
    the linear part starts as the first stage's own order (weight on the standardised
    `fused_norm`) and the MLP's last layer starts at zero: training begins at the first
    stage and learns a residual, and the dev split may keep epoch 0 (no change)."""

    def __init__(self, F, hidden, base=None):
        super().__init__()
        self.lin = nn.Linear(F, 1)
        self.mlp = None
        if hidden > 0:
            self.mlp = nn.Sequential(nn.Linear(F, hidden), nn.ReLU(), nn.Linear(hidden, hidden // 2), nn.ReLU(), nn.Linear(hidden // 2, 1))
        if base is not None:
            with torch.no_grad():
                self.lin.weight.zero_()
                self.lin.bias.zero_()
                self.lin.weight[0, base[0]] = base[1]
                if self.mlp is not None:
                    self.mlp[-1].weight.zero_()
                    self.mlp[-1].bias.zero_()

    def forward(self, features):
        out = self.lin(features)
        if self.mlp is not None:
            out = out + self.mlp(features)
        return out.squeeze(-1)


def listwise_loss(scores, T, M, qw=None):
    """Softmax over the pool against target T (rows sum to 1), per-query weights qw."""
    s = scores.masked_fill(~M, -1e9)
    logp = torch.log_softmax(s, dim=1)
    per = -(T * logp).sum(1)
    if qw is None:
        return per.mean()
    return (per * qw).sum() / qw.sum()


def targets(Y, uses, beta, low_boost, low_uses):
    """Listwise targets and query weights that do not reward popularity alone: each positive
    weighs (1+uses)^-beta within its query, and queries with a new (low-use) positive weigh
    1 + low_boost. beta = low_boost = 0 is the plain uniform target."""
    w = Y * np.power(1.0 + uses, -beta)
    T = w / np.maximum(w.sum(1, keepdims=True), 1e-12)
    qw = 1.0 + low_boost * ((Y > 0) & (uses < low_uses)).any(1)
    return T.astype(np.float32), qw.astype(np.float32)


def predict(model, X):
    model.eval()
    with torch.no_grad():
        out = [model(torch.from_numpy(X[i:i + 4096])).numpy() for i in range(0, len(X), 4096)]
    return np.concatenate(out) if out else np.zeros((0, TOP), np.float32)


def select_score(model_or_scores, dev, dev_low, first):
    """Dev criterion: gains in R@10 + nDCG@10 over the first stage on all dev queries and on
    the new-premise proxy (only low-use positives count), both kept; the worse of the two gains
    decides ties to safety."""
    p = model_or_scores
    m = metrics(p[0], *dev[1:])
    ml = metrics(p[1], *dev_low[1:]) if dev_low is not None else m
    g_all = m['R@10'] + m['nDCG@10'] - first[0]
    g_low = ml['R@10'] + ml['nDCG@10'] - first[1]
    return g_all + g_low + min(g_all, g_low), m, ml


def train(Xtr, T, qw, Mtr, dev, dev_low, first, F, hidden, epochs, lr, seed, base):
    torch.manual_seed(seed)
    np.random.seed(seed)
    keep = T.sum(1) > 0  # queries without a positive in the pool carry no listwise signal
    Xt, Tt, Mt, Wt = (torch.from_numpy(a[keep]) for a in (Xtr, T, Mtr, qw))
    model = MLP(F, hidden, base)
    opt = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=1e-5)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=epochs)
    evaluate = lambda: select_score((predict(model, dev[0]), predict(model, dev_low[0]) if dev_low is not None else None), dev, dev_low, first)
    best, best_state, best_ep = -1e9, None, 0
    if base is not None:  # epoch 0 = the first stage itself
        best, _, _ = evaluate()
        best_state = {k: v.clone() for k, v in model.state_dict().items()}
    for ep in range(epochs):
        model.train()
        perm = torch.randperm(len(Xt))
        total = 0.0
        for i in range(0, len(perm), 256):
            idx = perm[i:i + 256]
            loss = listwise_loss(model(Xt[idx]), Tt[idx], Mt[idx], Wt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        sched.step()
        score, m, ml = evaluate()
        log(f'hidden {hidden} epoch {ep + 1}/{epochs}: loss {total / len(Xt):.4f}  dev R@10 {m["R@10"]:.4f} nDCG@10 {m["nDCG@10"]:.4f}'
            f'  dev-new R@10 {ml["R@10"]:.4f} nDCG@10 {ml["nDCG@10"]:.4f}  criterion {score:+.4f}')
        if score > best:
            best, best_state, best_ep = score, {k: v.clone() for k, v in model.state_dict().items()}, ep + 1
    model.load_state_dict(best_state)
    return model, best, best_ep


def low_use_view(X, Y, M, uses, low_uses):
    """The new-premise proxy: queries with a low-use positive in the pool, where only the
    low-use positives count (gold = those in the pool). Mimics a proof that cites lemmas
    just added to the library, without looking at any benchmark."""
    Yl = Y * (uses < low_uses)
    sel = Yl.sum(1) > 0
    return X[sel], Yl[sel], M[sel], Yl[sel].sum(1)


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
    ap.add_argument('--beta', type=float, nargs='+', default=[0.5, 1.0],
                    help='positive weights (1+uses)^-beta within a query (popularity debiasing); the best on dev is kept')
    ap.add_argument('--low-boost', type=float, nargs='+', default=[2.0],
                    help='extra weight of queries with a low-use positive; the best on dev is kept')
    ap.add_argument('--low-uses', type=int, default=5, help='"new" premise: fewer uses than this (rerank-features LOW_USES)')
    ap.add_argument('--base', type=float, default=1.0,
                    help='start from the first stage: initial weight on the standardised fused_norm (0 = plain init, no residual)')
    ap.add_argument('--epochs', type=int, default=6)
    ap.add_argument('--shrink', type=float, nargs='+', default=[0.25, 0.5, 0.75, 1.0],
                    help='with --base: scales of the learned residual (the first-stage part stays); the best on dev is kept')
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

    # the new-premise proxy (dev and val): only low-use positives count
    ui = names.index('log_uses')
    raw_uses = lambda a: np.expm1(np.maximum(a[0][:, :, ui], 0))
    dev_low = low_use_view(Xdev, dev[1], dev[2], raw_uses(dev), args.low_uses)
    val_low = low_use_view(Xval, val[1], val[2], raw_uses(val), args.low_uses)
    pool_order = lambda n: -np.tile(np.arange(TOP, dtype=np.float32), (n, 1))
    m0 = metrics(pool_order(len(Xdev)), *dev_n[1:])
    m0l = metrics(pool_order(len(dev_low[0])), *dev_low[1:])
    first = (m0['R@10'] + m0['nDCG@10'], m0l['R@10'] + m0l['nDCG@10'])
    log(f'dev first stage R@10 {m0["R@10"]:.4f} nDCG@10 {m0["nDCG@10"]:.4f}; dev-new ({len(dev_low[0])} queries) R@10 {m0l["R@10"]:.4f} nDCG@10 {m0l["nDCG@10"]:.4f}')
    base = (names.index('fused_norm'), args.base) if args.base > 0 else None
    tr_uses = raw_uses(tr)

    best = None
    grid = []
    for beta in args.beta:
        for boost in args.low_boost:
            T, qw = targets(train_labels, tr_uses, beta, boost, args.low_uses)
            for h in args.hidden:
                model, score, ep = train(Xtr, T, qw, tr[2], dev_n, dev_low, first, F, h, args.epochs, args.lr, args.seed, base)
                log(f'config hidden={h} beta={beta} low_boost={boost}: dev criterion {score:+.4f} (epoch {ep})')
                grid.append({'hidden': h, 'beta': beta, 'lowBoost': boost, 'devCriterion': round(score, 4), 'epoch': ep})
                if best is None or score > best[1]:
                    best = (model, score, h, beta, boost, ep)
    model, _, hidden, beta, boost, best_ep = best
    log(f'kept hidden={hidden} ({"logistic" if hidden == 0 else "MLP"}) beta={beta} low_boost={boost} epoch={best_ep}')
    shrink = 1.0
    if base is not None:
        # how far to move from the first stage: scale the learned residual by the dev split's choice
        trained = {k: v.clone() for k, v in model.state_dict().items()}
        start = MLP(F, hidden, base).state_dict()
        def blend(lam):
            model.load_state_dict({k: start[k] + lam * (trained[k] - start[k]) if k.startswith('lin.') or k.startswith(f'mlp.{len(model.mlp) - 1 if model.mlp is not None else 0}.') else trained[k] for k in trained})
        choices = []
        for lam in args.shrink:
            blend(lam)
            sc, m, ml = select_score((predict(model, Xdev), predict(model, dev_low[0])), dev_n, dev_low, first)
            choices.append((sc, lam))
            log(f'residual x{lam}: dev R@10 {m["R@10"]:.4f} nDCG@10 {m["nDCG@10"]:.4f}  dev-new R@10 {ml["R@10"]:.4f} nDCG@10 {ml["nDCG@10"]:.4f}  criterion {sc:+.4f}')
        shrink = max(choices)[1]
        blend(shrink)
        log(f'kept residual x{shrink}')

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
    vl_first = metrics(pool_order(len(val_low[0])), *val_low[1:])
    vl_rerank = metrics(predict(model, val_low[0]), *val_low[1:])
    for label, m in (('first stage', vl_first), ('reranked', vl_rerank)):
        log(f'val-new ({len(val_low[0])} queries) {label:12s} ' + '  '.join(f'{k} {v:.4f}' for k, v in m.items()))
    rises = lambda a, b: b['R@10'] >= a['R@10'] and b['nDCG@10'] >= a['nDCG@10']
    on = rises(m_first, m_rerank) and rises(vl_first, vl_rerank) and m_rerank != m_first
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
            'loss': 'listwise softmax; target over positives ∝ (1+uses)^-beta, queries with a low-use positive weigh 1+lowBoost',
            'positives': 'theorem/lemma refs only' if args.lemma_positives else 'every ref',
            'droppedFeatures': args.drop_features,
            'residual': f'starts at the first stage (weight {args.base} on standardised fused_norm), MLP last layer 0' if base else None,
            'positiveWeights': {'beta': beta, 'lowBoost': boost, 'lowUses': args.low_uses},
            'epoch': best_ep,
            'residualScale': shrink,
            'grid': grid,
            'valNew': {'queries': int(len(val_low[0])), 'firstStage': vl_first, 'reranked': vl_rerank},
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
