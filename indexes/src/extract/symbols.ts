/**
 * Isabelle symbol normalisation: `\<name>` ASCII notation ⇄ Unicode.
 *
 * The table follows the glyph assignments of Isabelle's `etc/symbols` for the
 * common symbols (written out here by hand). Control symbols are handled apart:
 * `\<^sub>x` / `\<^sup>x` become Unicode sub/superscripts where one exists (else
 * `_x` / `^x`), `\<^bold>x` becomes a mathematical bold letter or digit. Unknown
 * `\<foo>` is left untouched.
 */

/** [symbol name, Unicode]. The first entry for a Unicode string wins in the inverse. */
const TABLE: ReadonlyArray<readonly [string, string]> = [
  // digits and letters
  ['zero', '𝟬'], ['one', '𝟭'], ['two', '𝟮'], ['three', '𝟯'], ['four', '𝟰'],
  ['five', '𝟱'], ['six', '𝟲'], ['seven', '𝟳'], ['eight', '𝟴'], ['nine', '𝟵'],
  ['A', '𝒜'], ['B', 'ℬ'], ['C', '𝒞'], ['D', '𝒟'], ['E', 'ℰ'], ['F', 'ℱ'], ['G', '𝒢'],
  ['H', 'ℋ'], ['I', 'ℐ'], ['J', '𝒥'], ['K', '𝒦'], ['L', 'ℒ'], ['M', 'ℳ'], ['N', '𝒩'],
  ['O', '𝒪'], ['P', '𝒫'], ['Q', '𝒬'], ['R', 'ℛ'], ['S', '𝒮'], ['T', '𝒯'], ['U', '𝒰'],
  ['V', '𝒱'], ['W', '𝒲'], ['X', '𝒳'], ['Y', '𝒴'], ['Z', '𝒵'],
  ['a', '𝖺'], ['b', '𝖻'], ['c', '𝖼'], ['d', '𝖽'], ['e', '𝖾'], ['f', '𝖿'], ['g', '𝗀'],
  ['h', '𝗁'], ['i', '𝗂'], ['j', '𝗃'], ['k', '𝗄'], ['l', '𝗅'], ['m', '𝗆'], ['n', '𝗇'],
  ['o', '𝗈'], ['p', '𝗉'], ['q', '𝗊'], ['r', '𝗋'], ['s', '𝗌'], ['t', '𝗍'], ['u', '𝗎'],
  ['v', '𝗏'], ['w', '𝗐'], ['x', '𝗑'], ['y', '𝗒'], ['z', '𝗓'],
  ['AA', '𝔄'], ['BB', '𝔅'], ['CC', 'ℭ'], ['DD', '𝔇'], ['EE', '𝔈'], ['FF', '𝔉'], ['GG', '𝔊'],
  ['HH', 'ℌ'], ['II', 'ℑ'], ['JJ', '𝔍'], ['KK', '𝔎'], ['LL', '𝔏'], ['MM', '𝔐'], ['NN', '𝔑'],
  ['OO', '𝔒'], ['PP', '𝔓'], ['QQ', '𝔔'], ['RR', 'ℜ'], ['SS', '𝔖'], ['TT', '𝔗'], ['UU', '𝔘'],
  ['VV', '𝔙'], ['WW', '𝔚'], ['XX', '𝔛'], ['YY', '𝔜'], ['ZZ', 'ℨ'],
  ['aa', '𝔞'], ['bb', '𝔟'], ['cc', '𝔠'], ['dd', '𝔡'], ['ee', '𝔢'], ['ff', '𝔣'], ['gg', '𝔤'],
  ['hh', '𝔥'], ['ii', '𝔦'], ['jj', '𝔧'], ['kk', '𝔨'], ['ll', '𝔩'], ['mm', '𝔪'], ['nn', '𝔫'],
  ['oo', '𝔬'], ['pp', '𝔭'], ['qq', '𝔮'], ['rr', '𝔯'], ['ss', '𝔰'], ['tt', '𝔱'], ['uu', '𝔲'],
  ['vv', '𝔳'], ['ww', '𝔴'], ['xx', '𝔵'], ['yy', '𝔶'], ['zz', '𝔷'],
  // Greek
  ['alpha', 'α'], ['beta', 'β'], ['gamma', 'γ'], ['delta', 'δ'], ['epsilon', 'ε'],
  ['zeta', 'ζ'], ['eta', 'η'], ['theta', 'θ'], ['iota', 'ι'], ['kappa', 'κ'],
  ['lambda', 'λ'], ['mu', 'μ'], ['nu', 'ν'], ['xi', 'ξ'], ['pi', 'π'], ['rho', 'ρ'],
  ['sigma', 'σ'], ['tau', 'τ'], ['upsilon', 'υ'], ['phi', 'φ'], ['chi', 'χ'], ['psi', 'ψ'],
  ['omega', 'ω'], ['Gamma', 'Γ'], ['Delta', 'Δ'], ['Theta', 'Θ'], ['Lambda', 'Λ'],
  ['Xi', 'Ξ'], ['Pi', 'Π'], ['Sigma', 'Σ'], ['Upsilon', 'Υ'], ['Phi', 'Φ'], ['Psi', 'Ψ'],
  ['Omega', 'Ω'],
  // number sets
  ['bool', '𝔹'], ['complex', 'ℂ'], ['nat', 'ℕ'], ['rat', 'ℚ'], ['real', 'ℝ'], ['int', 'ℤ'],
  // arrows
  ['leftarrow', '←'], ['longleftarrow', '⟵'], ['longlongleftarrow', '⤎'],
  ['longlonglongleftarrow', '⇠'], ['rightarrow', '→'], ['longrightarrow', '⟶'],
  ['longlongrightarrow', '⤏'], ['longlonglongrightarrow', '⇢'], ['Leftarrow', '⇐'],
  ['Longleftarrow', '⟸'], ['Lleftarrow', '⇚'], ['Rightarrow', '⇒'], ['Longrightarrow', '⟹'],
  ['Rrightarrow', '⇛'], ['leftrightarrow', '↔'], ['longleftrightarrow', '⟷'],
  ['Leftrightarrow', '⇔'], ['Longleftrightarrow', '⟺'], ['mapsto', '↦'], ['longmapsto', '⟼'],
  ['midarrow', '─'], ['Midarrow', '═'], ['hookleftarrow', '↩'], ['hookrightarrow', '↪'],
  ['leftharpoondown', '↽'], ['rightharpoondown', '⇁'], ['leftharpoonup', '↼'],
  ['rightharpoonup', '⇀'], ['rightleftharpoons', '⇌'], ['leadsto', '↝'],
  ['downharpoonleft', '⇃'], ['downharpoonright', '⇂'], ['upharpoonleft', '↿'],
  ['restriction', '↾'], ['upharpoonright', '↾'], ['up', '↑'], ['Up', '⇑'], ['down', '↓'],
  ['Down', '⇓'], ['updown', '↕'], ['Updown', '⇕'], ['Colon', '∷'],
  // brackets
  ['langle', '⟨'], ['rangle', '⟩'], ['lceil', '⌈'], ['rceil', '⌉'], ['lfloor', '⌊'],
  ['rfloor', '⌋'], ['lparr', '⦇'], ['rparr', '⦈'], ['lbrakk', '⟦'], ['rbrakk', '⟧'],
  ['lbrace', '⦃'], ['rbrace', '⦄'], ['guillemotleft', '«'], ['guillemotright', '»'],
  ['open', '‹'], ['close', '›'],
  // logic
  ['bottom', '⊥'], ['top', '⊤'], ['and', '∧'], ['And', '⋀'], ['or', '∨'], ['Or', '⋁'],
  ['forall', '∀'], ['exists', '∃'], ['nexists', '∄'], ['not', '¬'], ['circle', '○'],
  ['box', '□'], ['diamond', '◇'], ['diamondop', '⋄'], ['turnstile', '⊢'],
  ['Turnstile', '⊨'], ['tturnstile', '⊩'], ['TTurnstile', '⊫'], ['stileturn', '⊣'],
  ['surd', '√'], ['some', 'ϵ'],
  // relations
  ['le', '≤'], ['ge', '≥'], ['lless', '≪'], ['ggreater', '≫'], ['lesssim', '≲'],
  ['greatersim', '≳'], ['lessapprox', '⪅'], ['greaterapprox', '⪆'], ['in', '∈'],
  ['notin', '∉'], ['subset', '⊂'], ['supset', '⊃'], ['subseteq', '⊆'], ['supseteq', '⊇'],
  ['sqsubset', '⊏'], ['sqsupset', '⊐'], ['sqsubseteq', '⊑'], ['sqsupseteq', '⊒'],
  ['noteq', '≠'], ['sim', '∼'], ['doteq', '≐'], ['simeq', '≃'], ['approx', '≈'],
  ['asymp', '≍'], ['cong', '≅'], ['smile', '⌣'], ['equiv', '≡'], ['frown', '⌢'],
  ['Join', '⋈'], ['bowtie', '⨝'], ['prec', '≺'], ['succ', '≻'], ['preceq', '≼'],
  ['succeq', '≽'], ['parallel', '∥'], ['propto', '∝'], ['triangleq', '≜'],
  // operators
  ['inter', '∩'], ['Inter', '⋂'], ['union', '∪'], ['Union', '⋃'], ['squnion', '⊔'],
  ['Squnion', '⨆'], ['sqinter', '⊓'], ['Sqinter', '⨅'], ['setminus', '∖'], ['uplus', '⊎'],
  ['Uplus', '⨄'], ['bar', '¦'], ['plusminus', '±'], ['minusplus', '∓'], ['times', '×'],
  ['div', '÷'], ['cdot', '⋅'], ['star', '⋆'], ['bullet', '∙'], ['circ', '∘'],
  ['dagger', '†'], ['ddagger', '‡'], ['lhd', '⊲'], ['rhd', '⊳'], ['unlhd', '⊴'],
  ['unrhd', '⊵'], ['triangleleft', '◃'], ['triangleright', '▹'], ['triangle', '△'],
  ['oplus', '⊕'], ['Oplus', '⨁'], ['otimes', '⊗'], ['Otimes', '⨂'], ['odot', '⊙'],
  ['Odot', '⨀'], ['ominus', '⊖'], ['oslash', '⊘'], ['dots', '…'], ['cdots', '⋯'],
  ['Sum', '∑'], ['Prod', '∏'], ['Coprod', '∐'], ['infinity', '∞'], ['integral', '∫'],
  ['ointegral', '∮'], ['amalg', '⨿'], ['bind', '⤜'], ['then', '⪢'],
  // miscellaneous
  ['clubsuit', '♣'], ['diamondsuit', '♢'], ['heartsuit', '♡'], ['spadesuit', '♠'],
  ['aleph', 'ℵ'], ['emptyset', '∅'], ['nabla', '∇'], ['partial', '∂'], ['flat', '♭'],
  ['natural', '♮'], ['sharp', '♯'], ['angle', '∠'], ['copyright', '©'], ['registered', '®'],
  ['hyphen', '\u00ad'], ['inverse', '¯'], ['onequarter', '¼'], ['onehalf', '½'],
  ['threequarters', '¾'], ['ordfeminine', 'ª'], ['ordmasculine', 'º'], ['section', '§'],
  ['paragraph', '¶'], ['exclamdown', '¡'], ['questiondown', '¿'], ['euro', '€'],
  ['pounds', '£'], ['yen', '¥'], ['cent', '¢'], ['currency', '¤'], ['degree', '°'],
  ['mho', '℧'], ['lozenge', '◊'], ['wp', '℘'], ['wrong', '≀'], ['acute', '´'],
  ['index', 'ı'], ['dieresis', '¨'], ['cedilla', '¸'], ['hungarumlaut', '˝'],
  ['comment', '—'], ['hole', '⌑'], ['newline', '⏎'], ['checkmark', '✓'], ['crossmark', '✗'],
  // control symbols rendered as glyphs by Isabelle (sub/sup/bold are handled apart)
  ['^bsub', '⇘'], ['^esub', '⇙'], ['^bsup', '⇗'], ['^esup', '⇖'],
];

const SUB_PAIRS = '0₀1₁2₂3₃4₄5₅6₆7₇8₈9₉+₊-₋=₌(₍)₎aₐeₑhₕiᵢjⱼkₖlₗmₘnₙoₒpₚrᵣsₛtₜuᵤvᵥxₓβᵦγᵧρᵨφᵩχᵪ';
const SUP_PAIRS =
  '0⁰1¹2²3³4⁴5⁵6⁶7⁷8⁸9⁹+⁺-⁻=⁼(⁽)⁾aᵃbᵇcᶜdᵈeᵉfᶠgᵍhʰiⁱjʲkᵏlˡmᵐnⁿoᵒpᵖrʳsˢtᵗuᵘvᵛwʷxˣyʸzᶻ' +
  'AᴬBᴮDᴰEᴱGᴳHᴴIᴵJᴶKᴷLᴸMᴹNᴺOᴼPᴾRᴿTᵀUᵁVⱽWᵂ';

function pairMap(pairs: string): Map<string, string> {
  const cps = Array.from(pairs);
  const m = new Map<string, string>();
  for (let i = 0; i + 1 < cps.length; i += 2) m.set(cps[i]!, cps[i + 1]!);
  return m;
}

const TO_UNICODE = new Map<string, string>(TABLE);
const FROM_UNICODE = new Map<string, string>();
for (const [name, u] of TABLE) if (!FROM_UNICODE.has(u)) FROM_UNICODE.set(u, name);

const SUB = pairMap(SUB_PAIRS);
const SUP = pairMap(SUP_PAIRS);
const SUB_INV = new Map([...SUB].map(([k, v]) => [v, k] as const));
const SUP_INV = new Map([...SUP].map(([k, v]) => [v, k] as const));

/** Mathematical bold for ASCII letters and digits. */
function toBold(ch: string): string | undefined {
  const c = ch.charCodeAt(0);
  if (ch.length !== 1) return undefined;
  if (c >= 65 && c <= 90) return String.fromCodePoint(0x1d400 + c - 65);
  if (c >= 97 && c <= 122) return String.fromCodePoint(0x1d41a + c - 97);
  if (c >= 48 && c <= 57) return String.fromCodePoint(0x1d7ce + c - 48);
  return undefined;
}
function fromBold(cp: number): string | undefined {
  if (cp >= 0x1d400 && cp < 0x1d400 + 26) return String.fromCharCode(65 + cp - 0x1d400);
  if (cp >= 0x1d41a && cp < 0x1d41a + 26) return String.fromCharCode(97 + cp - 0x1d41a);
  if (cp >= 0x1d7ce && cp < 0x1d7ce + 10) return String.fromCharCode(48 + cp - 0x1d7ce);
  return undefined;
}

/** Every `\<name>` the table knows, with its Unicode form (for tests and docs). */
export const ISABELLE_SYMBOLS: ReadonlyArray<readonly [string, string]> = TABLE.map(
  ([n, u]) => [`\\<${n}>`, u] as const,
);

const SYMBOL_RE =
  /\\<\^(sub|sup|isub|isup|bold)>(\\<[A-Za-z][A-Za-z0-9_']*>|[^\\\s])?|\\<(\^?[A-Za-z][A-Za-z0-9_']*)>/gu;

/** `\<Rightarrow>` → `⇒` etc.; control symbols as described in the module comment. */
export function isabelleToUnicode(text: string): string {
  if (text.indexOf('\\<') < 0) return text;
  return text.replace(SYMBOL_RE, (whole, ctrl: string | undefined, arg: string | undefined, name: string | undefined) => {
    if (name !== undefined) return TO_UNICODE.get(name) ?? whole;
    if (arg === undefined) return whole; // control symbol with nothing to apply to
    let ch = arg;
    if (arg.startsWith('\\<')) {
      const u = TO_UNICODE.get(arg.slice(2, -1));
      if (u === undefined) return `\\<^${ctrl}>${arg}`;
      ch = u;
    }
    if (ctrl === 'sub' || ctrl === 'isub') return SUB.get(ch) ?? `_${ch}`;
    if (ctrl === 'sup' || ctrl === 'isup') return SUP.get(ch) ?? `^${ch}`;
    // bold
    const b = toBold(ch);
    return b ?? `\\<^bold>${ch}`;
  });
}

function invOne(ch: string): string {
  const name = FROM_UNICODE.get(ch);
  return name === undefined ? ch : `\\<${name}>`;
}

/** Inverse of {@link isabelleToUnicode} for the known table (sub/superscripts, bold included). */
export function unicodeToIsabelle(text: string): string {
  // fast path: pure ASCII needs nothing
  let ascii = true;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 127) {
      ascii = false;
      break;
    }
  }
  if (ascii) return text;
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp < 128) {
      out += ch;
      continue;
    }
    const name = FROM_UNICODE.get(ch);
    if (name !== undefined) {
      out += `\\<${name}>`;
      continue;
    }
    const sub = SUB_INV.get(ch);
    if (sub !== undefined) {
      out += `\\<^sub>${invOne(sub)}`;
      continue;
    }
    const sup = SUP_INV.get(ch);
    if (sup !== undefined) {
      out += `\\<^sup>${invOne(sup)}`;
      continue;
    }
    const bold = fromBold(cp);
    if (bold !== undefined) {
      out += `\\<^bold>${bold}`;
      continue;
    }
    out += ch;
  }
  return out;
}
