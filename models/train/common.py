"""Shared text rendering for the training recipe. The TypeScript engine must render the
same strings (see models/train/README.md, "Text formats")."""
import re

SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹'


def _sup(n):
    return '' if n == 0 else ''.join(SUPERSCRIPT[int(c)] for c in str(n))


def _strip_group(b):
    b = b.strip()
    if len(b) >= 2 and b[0] in '([{⦃' and b[-1] in ')]}⦄':
        if b.startswith('{{') and b.endswith('}}'):
            return b[0], b[2:-2].strip()
        return b[0], b[1:-1].strip()
    return '', b


def _split_colon(s):
    """split 'a b : T' at the first top-level ' : ' / ':'"""
    depth = 0
    for i, c in enumerate(s):
        if c in '([{⦃⟨':
            depth += 1
        elif c in ')]}⦄⟩':
            depth -= 1
        elif c == ':' and depth == 0 and not s.startswith(':=', i):
            return s[:i].strip(), s[i + 1:].strip()
    return None, s.strip()


def render_state(rec):
    """A declaration's statement as a Lean proof state: one hypothesis line per binder
    group (`(a b : α)` -> `a b : α`; `[Group G]` -> `inst✝ : Group G`, numbered like
    Lean: the last anonymous instance is `inst✝`, the one before `inst✝¹`, ...;
    `Type*` -> `Type u_1`, `Type u_2`, ...), then `⊢ goal`."""
    lines, anon = [], []
    for b in rec.get('args', []) or []:
        kind, inner = _strip_group(b)
        names, ty = _split_colon(inner)
        if ty.endswith(':= by exact') or ':=' in ty:  # optional/auto params: drop default
            ty = ty.split(':=')[0].strip()
        if kind == '[' and names is None:
            anon.append(len(lines))
            lines.append([None, ty])
        elif names is None:
            lines.append([ty, None])  # untyped binder `(x)`
        else:
            lines.append([names, ty])
    n = len(anon)
    for k, li in enumerate(anon):
        lines[li][0] = 'inst✝' + _sup(n - 1 - k)
    out, u = [], [0]

    def univ(m):
        u[0] += 1
        return f'{m.group(1)} u_{u[0]}'

    for names, ty in lines:
        if ty is None:
            out.append(f'{names} : _')
        else:
            ty = re.sub(r'\b(Type|Sort)\*', univ, ty)
            out.append(f'{names} : {ty}')
    goal = ' '.join((rec.get('goal') or '').split())
    out.append('⊢ ' + goal)
    return '\n'.join(out)


def premise_args_text(rec):
    args = rec.get('args') or []
    return (rec['name'] + ' ' + ' '.join(args)).strip()


def premise_goal_text(rec):
    g = ' '.join((rec.get('goal') or '').split())
    return g if g else rec['name']


_CAMEL = re.compile(r'[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+')


def name_words(name):
    """`Nat.add_comm` -> `nat add comm` (plain-English-ish query from the name)."""
    parts = _CAMEL.findall(name)
    return ' '.join(p.lower() for p in parts)


def doc_query(rec):
    d = rec.get('doc')
    if not d:
        return None
    d = ' '.join(d.replace('`', '').split())
    return d[:600] if len(d) >= 12 else None


def heldout_files(env=None):
    """The one hold-out rule's file list (server/src/eval/holdout.ts), as
    `premise-lsp holdout-files` writes it: the path in HOLDOUT_FILES, one file a line.
    No recipe computes a split of its own, and none runs without the list."""
    import os, sys
    env = os.environ if env is None else env
    path = env.get('HOLDOUT_FILES')
    if not path:
        sys.exit('HOLDOUT_FILES is not set: write the held-out file list first '
                 '(node dist/cli.js holdout-files --records RECORDS --out FILE) and pass it as HOLDOUT_FILES=FILE')
    if not os.path.isfile(path):
        sys.exit(f'HOLDOUT_FILES={path}: no such file (node dist/cli.js holdout-files writes it)')
    files = {l.strip() for l in open(path, encoding='utf-8') if l.strip()}
    if not files:
        sys.exit(f'HOLDOUT_FILES={path} is empty: the rule always holds out some files')
    return files
