/**
 * LaTeX in queries (`$f(a) \le b \iff a \le g(b)$`) rewritten to the notation a
 * Lean library is written in, so that BM25 and the encoder see `≤`, `↔`, `a / b`,
 * `x⁻¹`, `⨆ i,`, `Nat.choose n k`. Math (inside `$…$`, or the whole text when it
 * has no dollars) is read command by command with brace groups as arguments;
 * prose between formulas only has its symbol commands replaced.
 */
const SYMBOLS: Record<string, string> = {
  le: '≤', leq: '≤', ge: '≥', geq: '≥', ne: '≠', neq: '≠', lt: '<', gt: '>',
  to: '→', rightarrow: '→', Rightarrow: '→', implies: '→', leftarrow: '←', iff: '↔', Leftrightarrow: '↔', leftrightarrow: '↔',
  mapsto: '↦', hookrightarrow: '↪', twoheadrightarrow: '↠', xrightarrow: '→',
  in: '∈', notin: '∉', ni: '∋', subseteq: '⊆', subset: '⊂', supseteq: '⊇', cap: '∩', cup: '∪', setminus: '\\', emptyset: '∅', varnothing: '∅',
  bigcap: '⋂', bigcup: '⋃', sqcup: '⊔', sqcap: '⊓', bigsqcup: '⨆', bigsqcap: '⨅', vee: '∨', wedge: '∧', lor: '∨', land: '∧', neg: '¬', lnot: '¬',
  forall: '∀', exists: '∃', nexists: '¬∃', sum: '∑', prod: '∏', int: '∫', oint: '∮', infty: '∞', partial: '∂', nabla: '∇',
  times: '×', otimes: '⊗', oplus: '⊕', bigoplus: '⨁', circ: '∘', mid: '∣', nmid: '∤', sim: '∼', simeq: '≃', cong: '≅', equiv: '≡', approx: '≈',
  langle: '⟪', rangle: '⟫', lfloor: '⌊', rfloor: '⌋', lceil: '⌈', rceil: '⌉', triangle: '∆', dashv: '⊣', vdash: '⊢', models: '⊨', top: '⊤', bot: '⊥',
  trianglelefteq: '⊴', perp: '⟂', parallel: '∥', ell: 'ℓ', aleph: 'ℵ', sqrt: '√',
  lvert: '|', rvert: '|', vert: '|', lVert: '‖', rVert: '‖', Vert: '‖', ast: '*', star: '⋆', div: '/', pm: '±',
  alpha: 'α', beta: 'β', gamma: 'γ', delta: 'δ', epsilon: 'ε', varepsilon: 'ε', zeta: 'ζ', eta: 'η', theta: 'θ', iota: 'ι', kappa: 'κ',
  lambda: 'λ', mu: 'μ', nu: 'ν', xi: 'ξ', pi: 'π', rho: 'ρ', sigma: 'σ', tau: 'τ', phi: 'φ', varphi: 'φ', chi: 'χ', psi: 'ψ', omega: 'ω',
  Gamma: 'Γ', Delta: 'Δ', Theta: 'Θ', Lambda: 'Λ', Pi: 'Π', Sigma: 'Σ', Phi: 'Φ', Psi: 'Ψ', Omega: 'Ω',
};
/** Operator names written as commands, and the word Mathlib names them by. */
const FUNCTIONS: Record<string, string> = {
  log: 'log', ln: 'log', exp: 'exp', sin: 'sin', cos: 'cos', tan: 'tan', sinh: 'sinh', cosh: 'cosh', tanh: 'tanh', arctan: 'arctan',
  arcsin: 'arcsin', arccos: 'arccos', det: 'det', dim: 'finrank', deg: 'degree', ker: 'ker', gcd: 'gcd', lcm: 'lcm', max: 'max', min: 'min',
  arg: 'arg', Re: 're', Im: 'im', limsup: 'limsup', liminf: 'liminf', Pr: 'ℙ', hom: 'Hom', Hom: 'Hom', id: 'id',
};
/** `\not` before a relation. */
const NEGATED: Record<string, string> = { '∈': '∉', '=': '≠', '∣': '∤', '⊆': '⊈', '≤': '¬≤' };
const BLACKBOARD: Record<string, string> = { N: 'ℕ', Z: 'ℤ', Q: 'ℚ', R: 'ℝ', C: 'ℂ', H: 'ℍ' };
/** Commands that are layout only: dropped, keeping their argument. */
const LAYOUT = new Set(
  'mathrm mathbf mathit mathsf mathtt operatorname text textrm textit textbf mbox mathfrak mathcal mathscr boldsymbol bm overline underline bar hat widehat tilde widetilde vec dot ddot displaystyle textstyle scriptstyle left right bigl bigr Bigl Bigr big Big bigg Bigg middle limits nolimits'.split(' '),
);
/** Commands that are spacing or dots: a space. */
const SPACE = new Set('quad qquad ldots dots cdots vdots ddots enspace thinspace medspace thickspace'.split(' '));
const FRACTIONS = new Set(['frac', 'tfrac', 'dfrac', 'cfrac']);
const BINOMIALS = new Set(['binom', 'tbinom', 'dbinom']);
/** Big operators whose subscript names a bound variable. */
const BINDERS: Record<string, string> = { sum: '∑', prod: '∏', sup: '⨆', inf: '⨅', bigcup: '⋃', bigcap: '⋂', bigsqcup: '⨆', bigoplus: '⨁' };

export function looksLikeLatex(text: string): boolean {
  return /\$|\\[A-Za-z]+/.test(text);
}

export function latexToUnicode(text: string): string {
  const out = text.includes('$')
    ? text
        .split(/(\$\$?[^$]*\$\$?)/)
        .map((piece) => (piece.startsWith('$') ? ` ${new Reader(piece.replace(/^\$+|\$+$/g, '')).math()} ` : prose(piece)))
        .join('')
    : new Reader(text).math();
  return out
    // `d\mu` ending an integral is the measure (`∫ x, f x ∂μ`)
    .replace(/(^|[\s,(])d ?([μν])(?![\p{L}\p{N}])/gu, '$1∂$2')
    .replace(/[$]/g, ' ')
    .replace(/[{}]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Prose between formulas: symbol commands only (a stray `\le` in a sentence). */
function prose(text: string): string {
  return text
    .replace(/\\([A-Za-z]+)/g, (m, cmd: string) => SYMBOLS[cmd] ?? FUNCTIONS[cmd] ?? (LAYOUT.has(cmd) ? '' : cmd))
    .replace(/\\([^A-Za-z\s])/g, '$1');
}

/**
 * Brace groups read inside one another at most this deep; deeper ones are kept
 * as their text (a hostile `\frac{\frac{…` would otherwise exhaust the stack,
 * and every level re-reads its group).
 */
const MAX_DEPTH = 24;
/** A command at the reader's position: `\\name` or `\\` and one character. */
const COMMAND = /\\(?:[A-Za-z]+|.)/ys;
/** A command's name at the reader's position. */
const NAME = /[A-Za-z]+/y;

/** A left-to-right reader of one formula. */
class Reader {
  private i = 0;
  constructor(
    private readonly s: string,
    private readonly depth = 0,
  ) {}

  /** A reader of a part of this formula (an argument, a sub- or superscript). */
  private inner(text: string): string {
    return this.depth >= MAX_DEPTH ? text.replace(/\\([A-Za-z]+)/g, ' $1 ') : new Reader(text, this.depth + 1).math();
  }

  /** The whole formula (or the rest of it) in Lean-like notation. */
  math(): string {
    let out = '';
    while (this.i < this.s.length) {
      const piece = this.next(out);
      // a subscript digit sticks to its letter (`ℵ₀`, `x₁`)
      out = /^[₀-₉]/u.test(piece) ? out.trimEnd() + piece : out + piece;
    }
    return out;
  }

  private peek(): string {
    return this.s[this.i] ?? '';
  }

  private skipSpace(): void {
    while (/\s/.test(this.peek())) this.i++;
  }

  /** The raw text of the next argument: a brace group's inside, a command, or one character. */
  private rawArg(): string {
    this.skipSpace();
    const c = this.peek();
    if (c === '{') {
      let depth = 0;
      const start = this.i;
      for (; this.i < this.s.length; this.i++) {
        const ch = this.s[this.i]!;
        if (ch === '\\') {
          this.i++;
          continue;
        }
        if (ch === '{') depth++;
        else if (ch === '}' && --depth === 0) return this.s.slice(start + 1, this.i++);
      }
      return this.s.slice(start + 1);
    }
    if (c === '\\') {
      COMMAND.lastIndex = this.i;
      const m = COMMAND.exec(this.s)?.[0] ?? '\\';
      this.i += m.length;
      return m;
    }
    this.i += c.length;
    return c;
  }

  private arg(): string {
    return this.inner(this.rawArg()).trim();
  }

  private optionalArg(): void {
    this.skipSpace();
    if (this.peek() !== '[') return;
    const end = this.s.indexOf(']', this.i);
    this.i = end < 0 ? this.s.length : end + 1;
  }

  /** The next piece of output; `before` is what this formula produced so far. */
  private next(before: string): string {
    const c = this.s[this.i++]!;
    if (c === '^') return this.superscript();
    if (c === '_') {
      const sub = this.arg();
      // x_0, \aleph_0: Lean writes the digit as a subscript
      if (/^[0-9]$/.test(sub) && /[\p{L}]$/u.test(before.trimEnd())) return String.fromCharCode(0x2080 + Number(sub));
      return sub.length > 1 ? ` (${sub})` : ` ${sub}`;
    }
    if (c !== '\\') return c;
    NAME.lastIndex = this.i;
    const m = NAME.exec(this.s);
    if (!m) {
      const ch = this.s[this.i++] ?? '';
      if (ch === '|') return '‖';
      if ('{}#%&_\''.includes(ch)) return ch;
      return ' '; // \, \; \! \  and friends
    }
    const cmd = m[0];
    this.i += cmd.length;
    return this.command(cmd, before);
  }

  private superscript(): string {
    const raw = this.rawArg().trim();
    if (raw === '-1') {
      // f⁻¹(S), f^{-1}[S]: a preimage
      this.skipSpace();
      return /[([]/.test(this.peek()) ? ' ⁻¹\' ' : '⁻¹';
    }
    const sup = this.inner(raw).trim();
    return sup.length > 1 && /\s|[-+*/^]/.test(sup) ? ` ^ (${sup})` : ` ^ ${sup}`;
  }

  private command(cmd: string, before: string): string {
    if (FRACTIONS.has(cmd)) {
      const a = this.arg();
      const b = this.arg();
      return ` (${a}) / (${b}) `;
    }
    if (BINOMIALS.has(cmd)) {
      const n = this.arg();
      const k = this.arg();
      return ` Nat.choose (${n}) (${k}) `;
    }
    if (cmd === 'sqrt') {
      this.optionalArg();
      return ` √(${this.arg()}) `;
    }
    // the power set 𝒫(X) is the type `Set X`
    const powerSet = cmd === 'mathcal' && /^\s*(?:\{\s*P\s*\}|P)\s*\(/.exec(this.s.slice(this.i));
    if (cmd === 'wp' || powerSet) {
      if (powerSet) this.i += powerSet[0].length - 1;
      return ' Set ';
    }
    if (cmd === 'mathbb') {
      const c = this.rawArg().trim();
      return this.nonnegReals(BLACKBOARD[c] ?? c);
    }
    if ((cmd === 'overline' || cmd === 'bar') && /^\s*\{\s*\\mathbb\s*\{?\s*R\s*\}?\s*\}/.test(this.s.slice(this.i))) {
      this.rawArg();
      const r = this.nonnegReals('ℝ');
      return r.trim() === 'ℝ≥0' ? ' ℝ≥0∞ ' : ' EReal ';
    }
    if (cmd === 'not') {
      const rel = this.arg();
      return NEGATED[rel] ?? `¬${rel}`;
    }
    if (cmd === 'cdot') return this.cdot(before);
    if (cmd === 'lim') return this.limit();
    if (cmd in BINDERS) return this.binder(cmd);
    if (cmd === 'int' && this.peek() === '^' && this.s[this.i + 1] === '-') {
      this.i += 2;
      return ' ∫⁻ ';
    }
    if (cmd === 'int') return this.integral();
    if (SPACE.has(cmd)) return ' ';
    if (LAYOUT.has(cmd)) {
      // \left( keeps its delimiter; \left. is none
      if (this.peek() === '.') this.i++;
      return ' ';
    }
    const sym = SYMBOLS[cmd];
    if (sym) return cmd === 'mid' && this.inBrackets(before) ? ' | ' : ` ${sym} `;
    const fn = FUNCTIONS[cmd];
    if (fn) return ` ${fn} `;
    return ` ${cmd} `;
  }

  /** `ℝ` followed by `_{\ge 0}` is `ℝ≥0`. */
  private nonnegReals(base: string): string {
    const m = /^\s*_\s*\{\s*\\(?:ge|geq)\s*0\s*\}/.exec(this.s.slice(this.i));
    if (base !== 'ℝ' || !m) return ` ${base} `;
    this.i += m[0].length;
    return ' ℝ≥0 ';
  }

  /** `a \cdot b` multiplies; `f(\cdot)`, `[\cdot, \cdot]` hold a place. */
  private cdot(before: string): string {
    const prev = before.trimEnd().slice(-1);
    const rest = this.s.slice(this.i).trimStart();
    if (!prev || '([{,'.includes(prev) || /^[)\]},]|^\\(?:mid|right)/.test(rest)) return '·';
    return ' * ';
  }

  /** Whether the output so far has an unclosed bracket (conditioning `μ[t | s]`, `P(A | B)`; a set `{x ∈ s | p x}`). */
  private inBrackets(before: string): boolean {
    let depth = 0;
    for (let j = before.length - 1; j >= 0; j--) {
      const ch = before[j]!;
      if (ch === ']' || ch === ')' || ch === '}') depth++;
      else if (ch === '[' || ch === '(' || ch === '{') {
        if (depth === 0) return true;
        depth--;
      }
    }
    return false;
  }

  /** The subscript and superscript of a big operator or limit, as raw text. */
  private limits(): { sub?: string; sup?: string } {
    const out: { sub?: string; sup?: string } = {};
    for (;;) {
      this.skipSpace();
      if (this.s.startsWith('\\limits', this.i)) this.i += 7;
      else if (this.s.startsWith('\\nolimits', this.i)) this.i += 9;
      const c = this.peek();
      if ((c === '_' && out.sub === undefined) || (c === '^' && out.sup === undefined)) {
        this.i++;
        out[c === '_' ? 'sub' : 'sup'] = this.rawArg();
      } else return out;
    }
  }

  /** `\sum_{i=1}^n` → `∑ i,`; `\sum_{i \in s}` → `∑ i ∈ s,`; `\sum_{d \mid n}` → `∑ d ∈ n.divisors,`. */
  private binder(cmd: string): string {
    const { sub } = this.limits();
    const op = BINDERS[cmd]!;
    if (sub === undefined) return ` ${op} `;
    const s = this.inner(sub).trim();
    const divisors = /^(\S+)\s*∣\s*(\S+)$/.exec(s);
    if (divisors) return ` ${op} ${divisors[1]} ∈ ${divisors[2]}.divisors, `;
    const bound = /^([^\s=,<≤∈]+)\s*(∈|=|<|≤)?\s*(.*)$/.exec(s);
    if (!bound) return ` ${op} `;
    return bound[2] === '∈' ? ` ${op} ${bound[1]} ∈ ${bound[3]}, ` : ` ${op} ${bound[1]}, `;
  }

  /** `\int_a^b` → `∫ x in a..b,`; `\int` alone → `∫`. */
  private integral(): string {
    const { sub, sup } = this.limits();
    if (sub === undefined || sup === undefined) return ' ∫ ';
    return ` ∫ x in ${this.inner(sub).trim()}..${this.inner(sup).trim()}, `;
  }

  /** `\lim_{n \to \infty}` → `Tendsto … atTop`, other limits → `Tendsto … 𝓝`. */
  private limit(): string {
    const { sub } = this.limits();
    return sub !== undefined && /\\infty|∞/.test(sub) ? ' Tendsto atTop ' : ' Tendsto 𝓝 ';
  }
}
