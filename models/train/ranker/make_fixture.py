#!/usr/bin/env python3
"""The tree ranker's parity fixture (test/fixtures/ranker/): a tiny xgboost ranking model
(4 trees of depth 3 over 5 features, some values missing) trained on synthetic data, saved
with `save_model('model.json')`, and xgboost's own margins for 40 rows in parity.json, which
test/unit/tree-model.test.ts checks the TypeScript scorer (server/src/engine/tree-model.ts)
against. Deterministic (seeded); needs Debian's python3-xgboost and numpy.
    /usr/bin/python3 models/train/ranker/make_fixture.py test/fixtures/ranker
"""
import json
import sys
from pathlib import Path

import numpy as np
import xgboost as xgb

out = Path(sys.argv[1] if len(sys.argv) > 1 else 'test/fixtures/ranker')
out.mkdir(parents=True, exist_ok=True)
rng = np.random.default_rng(34)
groups, per = 30, 10
X = rng.normal(size=(groups * per, 5)).astype(np.float32)
X[rng.random(X.shape) < 0.15] = np.nan  # missing values take each split's default branch
y = ((np.nan_to_num(X[:, 0]) + 0.5 * np.nan_to_num(X[:, 2]) - 0.3 * np.nan_to_num(X[:, 4])) > 0.4).astype(int)
d = xgb.DMatrix(X, label=y)
d.set_group([per] * groups)
model = xgb.train({'objective': 'rank:pairwise', 'max_depth': 3, 'eta': 0.3, 'seed': 0, 'nthread': 1}, d, num_boost_round=4)
model.save_model(str(out / 'model.json'))
T = rng.normal(size=(40, 5)).astype(np.float32)
T[rng.random(T.shape) < 0.2] = np.nan
# values on a split threshold exactly: `x < threshold` goes left, equality right
trees = json.loads((out / 'model.json').read_text())['learner']['gradient_booster']['model']['trees']
for i in range(5):
    T[i, trees[0]['split_indices'][0]] = trees[0]['split_conditions'][0]
margins = model.predict(xgb.DMatrix(T), output_margin=True)
rows = [[None if np.isnan(v) else float(v) for v in r] for r in T]
(out / 'parity.json').write_text(json.dumps({'xgboost': xgb.__version__, 'rows': rows, 'margins': [float(m) for m in margins]}, indent=0) + '\n')
print(f'wrote {out}/model.json and parity.json (xgboost {xgb.__version__})')
