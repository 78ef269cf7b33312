#!/usr/bin/python3
"""Build the tiny test models committed under test/fixtures/tiny-encoder/.

Run with the Debian interpreter (it has torch 1.13 and onnx 1.12):

    /usr/bin/python3 models/train/make_tiny.py [out_dir]

Writes (out_dir defaults to test/fixtures/tiny-encoder):

  tokenizer.json        WordPiece tokenizer (Hugging Face tokenizers format) whose vocabulary
                        covers ASCII plus the Unicode of Lean 4 / Isabelle (ℕ ⊢ ∀ ⟹ ⟦ ⟧ ...)
  tokenizer_config.json
  premise_lsp.json      our settings (pooling etc.)
  model.onnx            inputs input_ids, attention_mask (int64 [batch, seq]);
                        output sentence_embedding [batch, 32] = Linear(masked mean of Embedding)
  expected.json         token ids and torch outputs for three fixed texts (parity test)

  hidden/               a BERT-shaped variant: inputs input_ids, attention_mask, token_type_ids;
                        output last_hidden_state [batch, seq, 32]; pooling done by the runtime
  cross/                a cross-encoder: inputs input_ids, attention_mask, token_type_ids;
                        output logits [batch, 1]

The tokenisation below re-implements exactly what the tokenizer.json describes (NFC normaliser,
BertPreTokenizer, WordPiece with "##", [CLS] A [SEP] (B [SEP]) template), so expected.json
carries ids produced independently of the JavaScript tokenizer; the tests compare both.
"""
import json
import os
import sys
import unicodedata

import torch
import torch.nn as nn

SEED = 20240607
HIDDEN = 32
SMALL_HIDDEN = 16  # the hidden/ and cross/ variants (keeps the fixture small)
DIM = 32
OPSET = 14

SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]

# Lean 4 / Mathlib and Isabelle symbols. Symbols whose Unicode category is not punctuation are
# glued to neighbouring letters by the BERT pre-tokenizer (e.g. "x⁻¹", "a₁"), so each symbol is
# also added with the "##" continuation prefix.
SYMBOLS = (
    "ℕ ℤ ℚ ℝ ℂ → ← ↔ ↦ ∀ ∃ ∄ ⊢ ≤ ≥ ≠ ≈ ≡ ≃ ≅ ∑ ∏ ∫ ⁻¹ ⁻ ¹ ² ³ ⟹ ⟶ ⟷ ⟦ ⟧ ⟨ ⟩ ⦃ ⦄ ‹ › ⦇ ⦈ "
    "λ α β γ δ ε ζ η θ ι κ μ ν ξ π ρ σ τ φ χ ψ ω Γ Δ Θ Λ Σ Π Φ Ψ Ω "
    "∈ ∉ ⊆ ⊂ ⊇ ⊃ ∪ ∩ ∅ ∧ ∨ ¬ ∘ ∣ ⋃ ⋂ ⋀ ⋁ · × ⬝ • ∙ ↑ ↓ ∞ √ ‖ ⌊ ⌋ ⌈ ⌉ ⇒ ⇔ ⊤ ⊥ ∗ ⊓ ⊔ ≪ ≫ ∂ ∇ "
    "₀ ₁ ₂ ₃ ₄ ₅ ₆ ₇ ₈ ₉ ₐ ₑ ₒ ₓ ᵢ ⱼ ₖ ₗ ₘ ₙ ₚ ₛ ₜ"
).split()

WORDS = (
    "theorem lemma def example instance structure class inductive where by fun have show "
    "exact simp rw intro intros apply induction cases with at from using calc obtain use "
    "refine constructor omega linarith ring norm_num sorry assume proof qed shows assumes "
    "fix then thus hence also finally auto blast simp_all unfolding "
    "the and of to is in for on as an or not if that this it be are we let "
    "Nat Int Real Set Finset List nat int real set list add mul sub div mod neg inv comm assoc "
    "zero one two succ pred pow le lt eq ne gt ge sum prod card map filter length append "
    "left right self cancel pos nonneg mono injective surjective continuous measure "
    "plain english text word"
).split()

SUFFIXES = "s ed ing er tion ly al es le".split()


def build_vocab():
    vocab = []
    seen = set()

    def add(tok):
        if tok not in seen:
            seen.add(tok)
            vocab.append(tok)

    for t in SPECIALS:
        add(t)
    for c in range(33, 127):
        add(chr(c))
    for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789":
        add("##" + c)
    for s in SYMBOLS:
        add(s)
    for s in SYMBOLS:
        add("##" + s)
    for w in WORDS:
        add(w)
    for s in SUFFIXES:
        add("##" + s)
    return vocab


def tokenizer_json(vocab):
    ids = {t: i for i, t in enumerate(vocab)}
    added = [
        {"id": ids[t], "content": t, "single_word": False, "lstrip": False, "rstrip": False,
         "normalized": False, "special": True}
        for t in SPECIALS
    ]
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": {"type": "NFC"},
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [
                {"SpecialToken": {"id": "[CLS]", "type_id": 0}},
                {"Sequence": {"id": "A", "type_id": 0}},
                {"SpecialToken": {"id": "[SEP]", "type_id": 0}},
            ],
            "pair": [
                {"SpecialToken": {"id": "[CLS]", "type_id": 0}},
                {"Sequence": {"id": "A", "type_id": 0}},
                {"SpecialToken": {"id": "[SEP]", "type_id": 0}},
                {"Sequence": {"id": "B", "type_id": 1}},
                {"SpecialToken": {"id": "[SEP]", "type_id": 1}},
            ],
            "special_tokens": {
                "[CLS]": {"id": "[CLS]", "ids": [ids["[CLS]"]], "tokens": ["[CLS]"]},
                "[SEP]": {"id": "[SEP]", "ids": [ids["[SEP]"]], "tokens": ["[SEP]"]},
            },
        },
        "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
        "model": {
            "type": "WordPiece",
            "unk_token": "[UNK]",
            "continuing_subword_prefix": "##",
            "max_input_chars_per_word": 100,
            "vocab": ids,
        },
    }


# --- reference tokenisation (mirrors tokenizer.json) -------------------------------------------

def is_punct(ch):
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def pre_tokenize(text):
    words = []
    for chunk in text.split():
        cur = ""
        for ch in chunk:
            if is_punct(ch):
                if cur:
                    words.append(cur)
                    cur = ""
                words.append(ch)
            else:
                cur += ch
        if cur:
            words.append(cur)
    return words


def wordpiece(word, ids):
    if len(word) > 100:
        return ["[UNK]"]
    out = []
    start = 0
    while start < len(word):
        end = len(word)
        cur = None
        while start < end:
            sub = word[start:end]
            if start > 0:
                sub = "##" + sub
            if sub in ids:
                cur = sub
                break
            end -= 1
        if cur is None:
            return ["[UNK]"]
        out.append(cur)
        start = end
    return out


def tokenize(text, ids):
    text = unicodedata.normalize("NFC", text)
    toks = []
    for w in pre_tokenize(text):
        toks.extend(wordpiece(w, ids))
    return toks


def encode(text, ids, pair=None):
    a = tokenize(text, ids)
    toks = ["[CLS]"] + a + ["[SEP]"]
    types = [0] * len(toks)
    if pair is not None:
        b = tokenize(pair, ids)
        toks += b + ["[SEP]"]
        types += [1] * (len(b) + 1)
    return [ids[t] for t in toks], types, toks


def pad_batch(encoded):
    t = max(len(e[0]) for e in encoded)
    input_ids = torch.zeros(len(encoded), t, dtype=torch.long)
    mask = torch.zeros(len(encoded), t, dtype=torch.long)
    types = torch.zeros(len(encoded), t, dtype=torch.long)
    for i, (ii, tt, _) in enumerate(encoded):
        input_ids[i, : len(ii)] = torch.tensor(ii)
        mask[i, : len(ii)] = 1
        types[i, : len(tt)] = torch.tensor(tt)
    return input_ids, mask, types


# --- models -------------------------------------------------------------------------------------

def masked_mean(h, attention_mask):
    m = attention_mask.unsqueeze(-1).to(h.dtype)
    return (h * m).sum(1) / m.sum(1).clamp(min=1e-9)


class TinyEncoder(nn.Module):
    """sentence_embedding = Linear(masked mean of Embedding(input_ids))."""

    def __init__(self, vocab_size):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, HIDDEN)
        self.proj = nn.Linear(HIDDEN, DIM)

    def forward(self, input_ids, attention_mask):
        return self.proj(masked_mean(self.emb(input_ids), attention_mask))


class TinyHidden(nn.Module):
    """BERT-shaped: last_hidden_state = tanh(Linear(Embedding(ids) + TypeEmbedding(types))) * mask."""

    def __init__(self, vocab_size):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, SMALL_HIDDEN)
        self.types = nn.Embedding(2, SMALL_HIDDEN)
        self.proj = nn.Linear(SMALL_HIDDEN, DIM)

    def forward(self, input_ids, attention_mask, token_type_ids):
        h = torch.tanh(self.proj(self.emb(input_ids) + self.types(token_type_ids)))
        return h * attention_mask.unsqueeze(-1).to(h.dtype)


class TinyCross(nn.Module):
    """logits [B, 1] = Linear(masked mean of Embedding(ids) + TypeEmbedding(types))."""

    def __init__(self, vocab_size):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, SMALL_HIDDEN)
        self.types = nn.Embedding(2, SMALL_HIDDEN)
        self.head = nn.Linear(SMALL_HIDDEN, 1)

    def forward(self, input_ids, attention_mask, token_type_ids):
        h = self.emb(input_ids) + self.types(token_type_ids)
        return self.head(torch.tanh(masked_mean(h, attention_mask)))


def export(model, args, input_names, output_name, path, out_axes):
    dyn = {n: {0: "batch", 1: "sequence"} for n in input_names}
    dyn[output_name] = out_axes
    model.eval()
    with torch.no_grad():
        torch.onnx.export(
            model, args, path, input_names=input_names, output_names=[output_name],
            dynamic_axes=dyn, opset_version=OPSET, do_constant_folding=True,
        )
    import onnx

    m = onnx.load(path)
    onnx.checker.check_model(m)
    declared = [i.name for i in m.graph.input]
    assert declared == input_names, (path, declared)


def rounded(t):
    return [[round(float(x), 7) for x in row] for row in t.tolist()]


def write_json(path, obj, compact=False):
    with open(path, "w", encoding="utf-8") as f:
        if compact:
            json.dump(obj, f, ensure_ascii=False, separators=(",", ":"))
        else:
            json.dump(obj, f, ensure_ascii=False, indent=1)
        f.write("\n")


TEXTS = ["a b : ℕ\n⊢ a + b = b + a", "∀ x, P x ⟹ Q x", "plain english text"]
PAIRS = [
    ["a b : ℕ ⊢ a + b = b + a", "theorem Nat.add_comm (n m : ℕ) : n + m = m + n"],
    ["a b : ℕ ⊢ a + b = b + a", "lemma foo : x⁻¹ * x = 1"],
    ["⟦ A ; B ⟧ ⟹ C", "plain english text"],
]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "test", "fixtures", "tiny-encoder")
    out = os.path.normpath(out)
    os.makedirs(os.path.join(out, "hidden"), exist_ok=True)
    os.makedirs(os.path.join(out, "cross"), exist_ok=True)

    vocab = build_vocab()
    ids = {t: i for i, t in enumerate(vocab)}
    tok = tokenizer_json(vocab)
    tok_cfg = {
        "tokenizer_class": "BertTokenizer", "model_max_length": 512, "do_lower_case": False,
        "cls_token": "[CLS]", "sep_token": "[SEP]", "pad_token": "[PAD]", "unk_token": "[UNK]",
        "mask_token": "[MASK]", "clean_up_tokenization_spaces": True,
    }

    torch.manual_seed(SEED)
    enc = TinyEncoder(len(vocab))
    hid = TinyHidden(len(vocab))
    cross = TinyCross(len(vocab))

    # main encoder ---------------------------------------------------------------------------
    write_json(os.path.join(out, "tokenizer.json"), tok, compact=True)
    write_json(os.path.join(out, "tokenizer_config.json"), tok_cfg)
    write_json(os.path.join(out, "premise_lsp.json"), {
        "pooling": "none", "output": "sentence_embedding", "query_prefix": "",
        "document_prefix": "", "max_length": 256,
    })
    encoded = [encode(t, ids) for t in TEXTS]
    input_ids, mask, types = pad_batch(encoded)
    export(enc, (input_ids, mask), ["input_ids", "attention_mask"], "sentence_embedding",
           os.path.join(out, "model.onnx"), {0: "batch"})
    with torch.no_grad():
        raw = enc(input_ids, mask)
        singles = torch.cat([enc(*pad_batch([e])[:2]) for e in encoded])
    assert torch.allclose(raw, singles, atol=1e-6)
    normed = raw / raw.norm(dim=1, keepdim=True)
    write_json(os.path.join(out, "expected.json"), {
        "note": "torch outputs of model.onnx's module; raw = before L2 normalisation",
        "texts": TEXTS,
        "tokens": [e[2] for e in encoded],
        "input_ids": [e[0] for e in encoded],
        "raw": rounded(raw),
        "normalized": rounded(normed),
    })

    # BERT-shaped hidden-state encoder ----------------------------------------------------------
    hdir = os.path.join(out, "hidden")
    write_json(os.path.join(hdir, "tokenizer.json"), tok, compact=True)
    write_json(os.path.join(hdir, "premise_lsp.json"), {
        "pooling": "mean", "query_prefix": "query: ", "document_prefix": "passage: ",
        "max_length": 64,
    })
    export(hid, (input_ids, mask, types), ["input_ids", "attention_mask", "token_type_ids"],
           "last_hidden_state", os.path.join(hdir, "model.onnx"), {0: "batch", 1: "sequence"})
    with torch.no_grad():
        h = hid(input_ids, mask, types)
        mean = masked_mean(h, mask)
        cls = h[:, 0, :]
    write_json(os.path.join(hdir, "expected.json"), {
        "note": "L2-normalised mean / CLS pooling of last_hidden_state for the texts as given "
                "(no prefix applied)",
        "texts": TEXTS,
        "mean": rounded(mean / mean.norm(dim=1, keepdim=True)),
        "cls": rounded(cls / cls.norm(dim=1, keepdim=True)),
    })

    # cross-encoder -----------------------------------------------------------------------------
    cdir = os.path.join(out, "cross")
    write_json(os.path.join(cdir, "tokenizer.json"), tok, compact=True)
    pencoded = [encode(q, ids, d) for q, d in PAIRS]
    p_ids, p_mask, p_types = pad_batch(pencoded)
    export(cross, (p_ids, p_mask, p_types), ["input_ids", "attention_mask", "token_type_ids"],
           "logits", os.path.join(cdir, "model.onnx"), {0: "batch"})
    with torch.no_grad():
        logits = cross(p_ids, p_mask, p_types)
    write_json(os.path.join(cdir, "expected.json"), {
        "pairs": PAIRS,
        "input_ids": [e[0] for e in pencoded],
        "token_type_ids": [e[1] for e in pencoded],
        "logits": [round(float(x), 7) for x in logits[:, 0].tolist()],
    })

    for root, _, files in os.walk(out):
        for f in sorted(files):
            p = os.path.join(root, f)
            print(f"{os.path.relpath(p, out):28s} {os.path.getsize(p):8d} bytes")
    print(f"vocab size {len(vocab)}")
    for t, e in zip(TEXTS, encoded):
        print(repr(t), e[2])


if __name__ == "__main__":
    main()
