/**
 * Goals printed with `pp.notation false` (LeanHammer's premise selector sends
 * them so) spell operators as functions: `HAdd.hAdd a b`, `Eq x y`, `LE.le m n`.
 * The index holds statements in notation (`a + b`, `x = y`, `m ≤ n`), so each
 * function name becomes its symbol, in place. Both retrievers read terms as a
 * bag, so prefix order does not matter.
 */
const SYMBOL: Record<string, string> = {
  'HAdd.hAdd': '+',
  'HSub.hSub': '-',
  'HMul.hMul': '*',
  'HDiv.hDiv': '/',
  'HMod.hMod': '%',
  'HPow.hPow': '^',
  'HSMul.hSMul': '•',
  'SMul.smul': '•',
  'HAppend.hAppend': '++',
  'Neg.neg': '-',
  'Inv.inv': '⁻¹',
  Eq: '=',
  Ne: '≠',
  HEq: '≍',
  'LE.le': '≤',
  'LT.lt': '<',
  'GE.ge': '≥',
  'GT.gt': '>',
  Iff: '↔',
  And: '∧',
  Or: '∨',
  Not: '¬',
  'Membership.mem': '∈',
  'HasSubset.Subset': '⊆',
  'HasSSubset.SSubset': '⊂',
  'Inter.inter': '∩',
  'Union.union': '∪',
  'SDiff.sdiff': '\\',
  'Dvd.dvd': '∣',
  'Function.comp': '∘',
  'Abs.abs': '|',
  'Norm.norm': '‖',
};

const NAME = new RegExp(`(?<![\\p{L}\\p{N}_.'])(${Object.keys(SYMBOL).map((k) => k.replace(/\./g, '\\.')).join('|')})(?![\\p{L}\\p{N}_'.])`, 'gu');

export function withNotation(text: string): string {
  return text.replace(NAME, (m) => SYMBOL[m]!);
}
