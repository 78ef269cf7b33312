#!/usr/bin/env python3
"""Step 2: learn a WordPiece vocabulary for Lean text and write a Hugging Face tokenizer.json.

Pre-tokenisation (identical in Python and in @huggingface/tokenizers):
  WhitespaceSplit, then Split on PATTERN (behaviour Isolated):
    [A-Z]+(?![a-z])  upper-case runs (`HTTP` in `HTTPServer`, `ℕ` is not ASCII so see below)
    [A-Z]?[a-z]+     camelCase words (`Continuous`, `add`, `comm`)
    [0-9]            single digits
    [^\\sA-Za-z0-9]  any other single code point: `.`, `_`, `'`, brackets and every Unicode
                     symbol / Greek letter (ℕ ℝ ∀ ∃ ⊢ → ↔ ≤ ∑ ⁻ ¹ ⟹ ⟦ ⟧ α …) is its own token.
Model: WordPiece (prefix `##`) over those pieces; vocab = specials + every code point seen in the
corpus + common math/Unicode blocks (so symbols never become [UNK]) + frequent words + frequent
sub-word pieces up to VOCAB_SIZE.
"""
import sys, json, re, collections, os

PATTERN = r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]|[^\sA-Za-z0-9]"
SPECIALS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]']
UNICODE_BLOCKS = [(0x00A0, 0x00FF), (0x0370, 0x03FF), (0x1D00, 0x1DBF), (0x2000, 0x206F), (0x2070, 0x209F),
                  (0x20D0, 0x20FF), (0x2100, 0x214F), (0x2150, 0x218F), (0x2190, 0x21FF), (0x2200, 0x22FF),
                  (0x2300, 0x23FF), (0x2460, 0x24FF), (0x25A0, 0x25FF), (0x2600, 0x26FF), (0x27C0, 0x27EF),
                  (0x27F0, 0x27FF), (0x2900, 0x297F), (0x2980, 0x29FF), (0x2A00, 0x2AFF), (0x2B00, 0x2BFF),
                  (0x2C60, 0x2C7F), (0x1D400, 0x1D7FF)]


def main():
    texts_path, out_path = sys.argv[1], sys.argv[2]
    vocab_size = int(os.environ.get('VOCAB_SIZE', '16000'))
    pat = re.compile(PATTERN)
    words = collections.Counter()
    chars = collections.Counter()
    for line in open(texts_path, encoding='utf-8'):
        s = json.loads(line)
        for w in pat.findall(s):
            words[w] += 1
    for w, c in words.items():
        for ch in w:
            chars[ch] += c
    vocab = list(SPECIALS)
    have = set(vocab)

    def add(t):
        if t not in have:
            have.add(t)
            vocab.append(t)

    # every single code point (seen ones first, then common blocks)
    for ch, _ in chars.most_common():
        add(ch)
    for a, b in UNICODE_BLOCKS:
        for cp in range(a, b + 1):
            ch = chr(cp)
            if ch.isprintable() and not ch.isspace():
                add(ch)
    for ch in 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ':
        add(ch)
        add('##' + ch)
    budget = vocab_size - len(vocab)
    n_words = int(budget * 0.8)
    multi = [(w, c) for w, c in words.most_common() if len(w) > 1]
    for w, c in multi[:n_words]:
        add(w)
    # sub-word pieces for the remaining (OOV) words: frequent prefixes and ## suffix pieces
    pieces = collections.Counter()
    for w, c in multi[n_words:]:
        if len(w) > 40:
            continue
        for k in range(2, min(len(w), 8) + 1):
            pieces[w[:k]] += c
        for st in range(1, len(w) - 1):
            for k in range(2, min(len(w) - st, 6) + 1):
                pieces['##' + w[st:st + k]] += c
    for p, _ in pieces.most_common():
        if len(vocab) >= vocab_size:
            break
        add(p)
    tok = {
        'version': '1.0',
        'truncation': None,
        'padding': None,
        'added_tokens': [{'id': i, 'content': t, 'single_word': False, 'lstrip': False, 'rstrip': False,
                          'normalized': False, 'special': True} for i, t in enumerate(SPECIALS)],
        'normalizer': None,
        'pre_tokenizer': {'type': 'Sequence', 'pretokenizers': [
            {'type': 'WhitespaceSplit'},
            {'type': 'Split', 'pattern': {'Regex': PATTERN}, 'behavior': 'Isolated', 'invert': False},
        ]},
        'post_processor': None,
        'decoder': {'type': 'WordPiece', 'prefix': '##', 'cleanup': False},
        'model': {'type': 'WordPiece', 'unk_token': '[UNK]', 'continuing_subword_prefix': '##',
                  'max_input_chars_per_word': 100, 'vocab': {t: i for i, t in enumerate(vocab)}},
    }
    with open(out_path, 'w', encoding='utf-8') as f:
        json.dump(tok, f, ensure_ascii=False)
    cfg_path = os.path.join(os.path.dirname(out_path), 'tokenizer_config.json')
    with open(cfg_path, 'w') as f:
        json.dump({'tokenizer_class': 'PreTrainedTokenizerFast', 'model_max_length': 256, 'unk_token': '[UNK]',
                   'pad_token': '[PAD]', 'cls_token': '[CLS]', 'sep_token': '[SEP]', 'mask_token': '[MASK]',
                   'do_lower_case': False}, f, indent=1)
    print(f'[tokenizer] vocab={len(vocab)} distinct_pieces={len(words)} chars_seen={len(chars)} '
          f'words_in_vocab={min(n_words, len(multi))}/{len(multi)}', flush=True)


if __name__ == '__main__':
    main()
