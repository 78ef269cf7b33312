"""The premise-lsp default encoder: token embeddings + light depthwise-convolution context
layers + learned token-weighted mean pooling + linear projection. Same encoder for queries
and for both premise sides."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvBlock(nn.Module):
    def __init__(self, d, k):
        super().__init__()
        self.dw = nn.Conv1d(d, d, k, padding=k // 2, groups=d)
        self.pw = nn.Linear(d, d)
        self.norm = nn.LayerNorm(d)

    def forward(self, x, m):
        h = self.dw(x.transpose(1, 2)).transpose(1, 2)
        h = F.gelu(self.pw(self.norm(h)))
        return (x + h) * m


class Encoder(nn.Module):
    def __init__(self, vocab_size, dim=256, out_dim=256, layers=0, kernel=5, bigram_buckets=0, sparse=False):
        super().__init__()
        self.config = dict(vocab_size=vocab_size, dim=dim, out_dim=out_dim, layers=layers, kernel=kernel,
                           bigram_buckets=bigram_buckets)
        self.emb = nn.Embedding(vocab_size, dim, padding_idx=0, sparse=sparse)
        nn.init.normal_(self.emb.weight, std=0.1)
        with torch.no_grad():
            self.emb.weight[0].zero_()
        # hashed bigram embeddings: cheap local word order (`⁻ ¹`, `add _ comm`, `Nat . succ`)
        self.bigram = nn.Embedding(bigram_buckets, dim, sparse=sparse) if bigram_buckets else None
        if self.bigram is not None:
            nn.init.normal_(self.bigram.weight, std=0.02)
        self.blocks = nn.ModuleList([ConvBlock(dim, kernel) for _ in range(layers)])
        self.pool = nn.Linear(dim, 1)
        self.proj = nn.Linear(dim, out_dim)

    def forward(self, input_ids, attention_mask):
        mf = attention_mask.to(torch.float32)
        m = mf.unsqueeze(-1)
        x = self.emb(input_ids)
        if self.bigram is not None:
            prev = F.pad(input_ids[:, :-1], (1, 0))
            x = x + self.bigram((prev * 7919 + input_ids) % self.config['bigram_buckets'])
        x = x * m
        for b in self.blocks:
            x = b(x, m)
        logits = self.pool(x).squeeze(-1) + (mf - 1.0) * 10000.0
        a = torch.softmax(logits, dim=-1).unsqueeze(-1)
        pooled = (a * x).sum(dim=1)
        return self.proj(pooled)


class BagEncoder(nn.Module):
    """Bag-of-tokens encoder (+ optional hashed bigrams) with learned token-weighted mean pooling:
        w_t = softmax_t(s[id_t]),  pooled = Σ_t w_t (E[id_t] + G[hash(id_{t-1}, id_t)]),  out = W pooled + b
    Training uses EmbeddingBag over un-padded flat ids (fast on CPU); `forward` is the padded
    formulation that is exported to ONNX (input_ids, attention_mask) -> sentence_embedding."""

    def __init__(self, vocab_size, dim=256, out_dim=256, bigram_buckets=0, sparse=True):
        super().__init__()
        self.config = dict(vocab_size=vocab_size, dim=dim, out_dim=out_dim, layers=0, kernel=0,
                           bigram_buckets=bigram_buckets, arch='bag')
        self.emb = nn.EmbeddingBag(vocab_size, dim, mode='sum', sparse=sparse)
        nn.init.normal_(self.emb.weight, std=0.1)
        self.score = nn.EmbeddingBag(vocab_size, 1, mode='sum', sparse=sparse)  # used as a plain lookup
        nn.init.zeros_(self.score.weight)
        self.bigram = nn.EmbeddingBag(bigram_buckets, dim, mode='sum', sparse=sparse) if bigram_buckets else None
        if self.bigram is not None:
            nn.init.normal_(self.bigram.weight, std=0.02)
        self.proj = nn.Linear(dim, out_dim)

    def bigram_ids(self, prev, ids):
        return (prev * 7919 + ids) % self.config['bigram_buckets']

    def encode_flat(self, flat, offsets, prev):
        """flat: [T] int64 ids of all sequences concatenated; offsets: [B] start of each sequence;
        prev: [T] previous id within the sequence (0 at the start)."""
        B = offsets.shape[0]
        T = flat.shape[0]
        seg = torch.zeros(T, dtype=torch.long)
        seg[offsets[1:]] = 1
        seg = torch.cumsum(seg, 0)
        s = F.embedding(flat, self.score.weight, sparse=True).squeeze(-1)
        ex = torch.exp(s.clamp(-30, 30))
        den = torch.zeros(B).index_add(0, seg, ex)
        w = ex / den[seg]
        pooled = self.emb(flat, offsets, per_sample_weights=w)
        if self.bigram is not None:
            pooled = pooled + self.bigram(self.bigram_ids(prev, flat), offsets, per_sample_weights=w)
        return self.proj(pooled)

    def forward(self, input_ids, attention_mask):
        mf = attention_mask.to(torch.float32)
        x = F.embedding(input_ids, self.emb.weight)
        if self.bigram is not None:
            prev = F.pad(input_ids[:, :-1], (1, 0))
            x = x + F.embedding(self.bigram_ids(prev, input_ids), self.bigram.weight)
        s = F.embedding(input_ids, self.score.weight).squeeze(-1) + (mf - 1.0) * 10000.0
        a = torch.softmax(s, dim=-1).unsqueeze(-1)
        return self.proj((a * x).sum(dim=1))
