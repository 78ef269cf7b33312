/**
 * Name helpers for the Lean extractor: `@[to_additive]` name/statement translation
 * (a best-effort port of Mathlib's `ToAdditive.guessName` dictionary) and
 * auto-generated instance names.
 */
import { T, type Tok } from './lex.js';

/** Lower-case words (as they appear in snake/camel names). */
const LOWER: Record<string, string> = {
  one: 'zero',
  mul: 'add',
  smul: 'vadd',
  inv: 'neg',
  div: 'sub',
  prod: 'sum',
  hmul: 'hadd',
  hsmul: 'hvadd',
  hdiv: 'hsub',
  hpow: 'hsmul',
  finprod: 'finsum',
  tprod: 'tsum',
  pow: 'nsmul',
  npow: 'nsmul',
  zpow: 'zsmul',
  monoid: 'addMonoid',
  submonoid: 'addSubmonoid',
  group: 'addGroup',
  subgroup: 'addSubgroup',
  semigroup: 'addSemigroup',
  magma: 'addMagma',
  semiconj: 'addSemiconj',
  commute: 'addCommute',
  rootable: 'divisible',
  zpowers: 'zmultiples',
  powers: 'multiples',
  multipliable: 'summable',
  units: 'addUnits',
  unit: 'addUnit',
  torsion: 'addTorsion',
  square: 'even',
  haar: 'addHaar',
  prehaar: 'addPrehaar',
  mconv: 'conv',
  mabs: 'abs',
  isSquare: 'even',
};

/** Name endings rewritten after word translation (`mabs_of_one_le` → `abs_of_nonneg`). */
const SUFFIX_FIX: Array<[string, string]> = [
  ['_zero_le', '_nonneg'],
  ['_zero_lt', '_pos'],
  ['_le_zero', '_nonpos'],
  ['_lt_zero', '_neg'],
];

/** Capitalised words. */
const UPPER: Record<string, string> = {
  Mul: 'Add',
  One: 'Zero',
  Inv: 'Neg',
  Div: 'Sub',
  Prod: 'Sum',
  Pow: 'SMul',
  SMul: 'VAdd',
  HMul: 'HAdd',
  HSMul: 'HVAdd',
  HDiv: 'HSub',
  HPow: 'HSMul',
  ZPow: 'ZSMul',
  NPow: 'NSMul',
  Finprod: 'Finsum',
  Tprod: 'Tsum',
  Monoid: 'AddMonoid',
  Submonoid: 'AddSubmonoid',
  Group: 'AddGroup',
  Subgroup: 'AddSubgroup',
  Semigroup: 'AddSemigroup',
  Magma: 'AddMagma',
  Semiconj: 'AddSemiconj',
  SemiconjBy: 'AddSemiconjBy',
  Commute: 'AddCommute',
  Units: 'AddUnits',
  Unit: 'AddUnit',
  Torsion: 'AddTorsion',
  Multipliable: 'Summable',
  Square: 'Even',
  IsSquare: 'Even',
  Division: 'Subtraction',
  Rootable: 'Divisible',
  Zpowers: 'Zmultiples',
  Powers: 'Multiples',
};

/** Words in front of which a generated `Add` moves (`CommMonoid` → `AddCommMonoid`). */
const ADD_MOVES = new Set(['Comm', 'Cancel', 'Left', 'Right']);
/** Multi-capital words kept whole by the splitter. */
const WHOLE = ['SMul', 'HSMul', 'HMul', 'HPow', 'HDiv', 'ZPow', 'NPow', 'SemiconjBy'];

function isUpper(ch: string): boolean {
  return ch >= 'A' && ch <= 'Z';
}
function isLower(ch: string): boolean {
  return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
}

/** Split a snake-free segment into camel-case words (`mulLeft` → `mul`, `Left`). */
export function splitCamel(seg: string): string[] {
  const words: string[] = [];
  let cur = '';
  let i = 0;
  while (i < seg.length) {
    const ch = seg[i];
    if (isUpper(ch)) {
      const whole = WHOLE.find((w) => seg.startsWith(w, i) && !isLower(seg[i + w.length] ?? 'A'));
      if (whole !== undefined) {
        if (cur) words.push(cur);
        words.push(whole);
        cur = '';
        i += whole.length;
        continue;
      }
      const prev = i > 0 ? seg[i - 1] : '';
      const next = seg[i + 1] ?? '';
      if (cur && (isLower(prev) || (isUpper(prev) && isLower(next) && next !== ''))) {
        words.push(cur);
        cur = '';
      }
    }
    cur += ch;
    i++;
  }
  if (cur) words.push(cur);
  return words;
}

function translateSegment(seg: string): string {
  if (seg === '') return seg;
  // trailing primes, `!`/`?`, digits and subscripts are kept as they are
  let cut = seg.length;
  while (cut > 1 && !/[A-Za-z]/.test(seg[cut - 1])) cut--;
  if (cut < seg.length) return translateSegment(seg.slice(0, cut)) + seg.slice(cut);
  const direct = LOWER[seg] ?? UPPER[seg];
  if (direct !== undefined) return direct;
  const words = splitCamel(seg);
  const out: string[] = [];
  const translated: boolean[] = [];
  for (let w = 0; w < words.length; w++) {
    const word = words[w];
    let r: string | undefined;
    if (isUpper(word[0])) r = UPPER[word];
    else if (w === 0) r = LOWER[word];
    else r = LOWER[word] !== undefined ? LOWER[word] : undefined;
    out.push(r ?? word);
    translated.push(r !== undefined);
  }
  // `Comm` + `AddMonoid` → `AddComm` + `Monoid`
  for (let k = 1; k < out.length; k++) {
    if (!translated[k] || !out[k].startsWith('Add') || out[k] === 'Add') continue;
    let m = k;
    while (m > 0 && ADD_MOVES.has(out[m - 1])) m--;
    if (m === k) continue;
    out[k] = out[k].slice(3);
    out[m] = m > 0 && out[m - 1] === 'Subtraction' ? out[m] : 'Add' + out[m];
  }
  return out.join('');
}

/**
 * Mathlib's `fixAbbreviation` for the words whose additive name is not a word-by-word
 * translation (`Frontend.lean`): `mulIndicator` → `indicator` (not `addIndicator`),
 * `mulSupport` → `support`, `mulTSupport` → `tsupport`, `mulSingle` → `single`,
 * `isSquare`/`isEven` → `even`, `invFun` kept, `orderOf` → `addOrderOf`,
 * `IsOfFinOrder` → `IsOfFinAddOrder`.
 */
const ABBREVIATIONS: Array<[RegExp, string | ((m: string, ...groups: string[]) => string)]> = [
  [/Add(Single|Support|TSupport|Indicator)/g, '$1'],
  [/(^|_)add(Single|Support|Indicator)/g, (_m, a, w) => a! + w![0]!.toLowerCase() + w!.slice(1)],
  [/(^|_)addTSupport/g, '$1tsupport'],
  [/(^|_)add_(single|support|tsupport|indicator)(?=_|$)/g, '$1$2'],
  [/(^|_)isEven/g, '$1even'],
  [/IsEven/g, 'Even'],
  [/(^|_)negFun/g, '$1invFun'],
  [/NegFun/g, 'InvFun'],
  [/(^|_)orderOf/g, '$1addOrderOf'],
  [/(^|_)OrderOf/g, '$1AddOrderOf'],
  [/(^|_)isOfFinOrder/g, '$1isOfFinAddOrder'],
  [/IsOfFinOrder/g, 'IsOfFinAddOrder'],
];

function fixAbbreviations(s: string): string {
  for (const [re, to] of ABBREVIATIONS) s = typeof to === 'string' ? s.replace(re, to) : s.replace(re, to);
  return s;
}

/** Translate one name component (`mul_one` → `add_zero`, `CommMonoid` → `AddCommMonoid`). */
export function translateComponent(comp: string): string {
  if (comp.startsWith('«')) return comp;
  let out = fixAbbreviations(
    comp
      .split('_')
      .map((s) => translateSegment(s))
      .join('_'),
  );
  if (out !== comp) {
    for (const [from, to] of SUFFIX_FIX) {
      if (out.endsWith(from) && !comp.endsWith(from)) {
        out = out.slice(0, out.length - from.length) + to;
        break;
      }
    }
  }
  return out;
}

/** Namespace components get translated only when they look like a multiplicative structure. */
const NS_TRANSLATABLE = /Monoid|Group|Semigroup|Mul|One|Inv|Div|Units|Unit|Commute|Semiconj|Torsion|Pow|SMul|Magma|Con$|Hom|Equiv|Action|Opposite|Submonoid|Subgroup/;

export function translateNamespace(ns: string): string {
  if (!ns) return ns;
  return ns
    .split('.')
    .map((c) => (NS_TRANSLATABLE.test(c) ? translateComponent(c) : c))
    .join('.');
}

/** Translate a full declaration name by the to_additive dictionary. */
export function translateName(full: string): string {
  const dot = full.lastIndexOf('.');
  if (dot < 0) return translateComponent(full);
  return translateNamespace(full.slice(0, dot)) + '.' + translateComponent(full.slice(dot + 1));
}

const OP_MAP: Record<string, string> = {
  '*': '+',
  '⁻¹': '-',
  '/': '-',
  '^': '•',
  '•': '+ᵥ',
  '∏': '∑',
  '∏ᶠ': '∑ᶠ',
  '*ᵥ': '+ᵥ',
  '⁺ᵐ': '⁺',
  '⁻ᵐ': '⁻',
  'ᵐᵒᵖ': 'ᵃᵒᵖ',
};

/** Translate a token for the additive statement, on its own (numerals and the notation that needs its neighbours: `additive.ts`). */
export function translateTok(toks: Tok[], i: number): string {
  const t = toks[i];
  switch (t.k) {
    case T.Id:
      return t.v.startsWith('.') ? '.' + translateName(t.v.slice(1)) : translateName(t.v);
    case T.Proj:
      return '.' + translateComponent(t.v);
    case T.Op: {
      const next = toks[i + 1];
      if (t.v === '⁻¹' && next && next.s === t.e && next.v === "'") return t.v; // preimage
      const prev = toks[i - 1];
      if (t.v === '*' && prev && prev.e === t.s && (prev.v === 'Type' || prev.v === 'Sort')) return t.v;
      return OP_MAP[t.v] ?? t.v;
    }
    default:
      return t.k === T.Doc ? `/--${t.v}-/` : t.v;
  }
}

/** Join tokens [a, b) mapping each through `fn`. */
export function joinMapped(toks: Tok[], a: number, b: number, fn: (toks: Tok[], i: number) => string): string {
  let out = '';
  for (let i = a; i < b; i++) {
    if (i > a && toks[i].sp) out += ' ';
    out += fn(toks, i);
  }
  return out;
}

const NOTATION_NAMES: Record<string, string> = {
  'ℕ': 'Nat',
  'ℤ': 'Int',
  'ℚ': 'Rat',
  'ℝ': 'Real',
  'ℂ': 'Complex',
  '×': 'Prod',
  '≃': 'Equiv',
  '→+*': 'RingHom',
  '→*': 'MonoidHom',
  '→+': 'AddMonoidHom',
  '≃+*': 'RingEquiv',
  '≃*': 'MulEquiv',
  '≃+': 'AddEquiv',
  '⥤': 'Functor',
  '→o': 'OrderHom',
  '↪': 'Embedding',
  '≃o': 'OrderIso',
  Type: 'Type',
  Prop: 'Prop',
  Sort: 'Sort',
};

/**
 * Best-effort Lean 4 auto-generated instance name: `inst` followed by the
 * capitalised constants of the class application (`Add Nat` → `instAddNat`).
 */
export function instanceName(toks: Tok[], a: number, b: number, bound: Set<string>): string {
  const parts: string[] = [];
  const seen = new Set<string>();
  const add = (p: string): void => {
    if (!p || seen.has(p)) return;
    seen.add(p);
    parts.push(p);
  };
  for (let i = a; i < b; i++) {
    const t = toks[i];
    if (t.k === T.Id) {
      if (t.v.startsWith('.') || bound.has(t.v)) continue;
      const mapped = NOTATION_NAMES[t.v];
      if (mapped) {
        add(mapped);
        continue;
      }
      const last = t.v.slice(t.v.lastIndexOf('.') + 1);
      if (!last || !isUpper(last[0])) continue;
      if (t.v.indexOf('.') < 0 && last.length === 1) continue; // likely a variable
      add(last);
    } else if (t.k === T.Op) {
      const mapped = NOTATION_NAMES[t.v];
      if (mapped) add(mapped);
    }
  }
  return 'inst' + parts.join('');
}
