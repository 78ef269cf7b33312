/**
 * LaTeX in queries (`$f(a) \le b \iff a \le g(b)$`) rewritten to the Unicode a
 * Lean library is written in, so that BM25 and the encoder see `≤` and `↔`.
 */
const SYMBOLS: Record<string, string> = {
  le: '≤', leq: '≤', ge: '≥', geq: '≥', ne: '≠', neq: '≠', lt: '<', gt: '>',
  to: '→', rightarrow: '→', Rightarrow: '→', implies: '→', leftarrow: '←', iff: '↔', Leftrightarrow: '↔', leftrightarrow: '↔',
  mapsto: '↦', hookrightarrow: '↪', twoheadrightarrow: '↠', xrightarrow: '→',
  in: '∈', notin: '∉', ni: '∋', subseteq: '⊆', subset: '⊂', supseteq: '⊇', cap: '∩', cup: '∪', setminus: '\\', emptyset: '∅', varnothing: '∅',
  bigcap: '⋂', bigcup: '⋃', sqcup: '⊔', sqcap: '⊓', bigsqcup: '⨆', bigsqcap: '⨅', vee: '∨', wedge: '∧', lor: '∨', land: '∧', neg: '¬', lnot: '¬',
  forall: '∀', exists: '∃', nexists: '¬∃', sum: '∑', prod: '∏', int: '∫', oint: '∮', infty: '∞', partial: '∂', nabla: '∇',
  cdot: '•', times: '×', otimes: '⊗', oplus: '⊕', bigoplus: '⨁', circ: '∘', mid: '∣', nmid: '∤', sim: '∼', simeq: '≃', cong: '≅', equiv: '≡', approx: '≈',
  langle: '⟪', rangle: '⟫', lfloor: '⌊', rfloor: '⌋', lceil: '⌈', rceil: '⌉', triangle: '∆', dashv: '⊣', vdash: '⊢', models: '⊨', top: '⊤', bot: '⊥',
  trianglelefteq: '⊴', perp: '⟂', parallel: '∥', ell: 'ℓ', aleph: 'ℵ', sqrt: '√',
  alpha: 'α', beta: 'β', gamma: 'γ', delta: 'δ', epsilon: 'ε', varepsilon: 'ε', zeta: 'ζ', eta: 'η', theta: 'θ', iota: 'ι', kappa: 'κ',
  lambda: 'λ', mu: 'μ', nu: 'ν', xi: 'ξ', pi: 'π', rho: 'ρ', sigma: 'σ', tau: 'τ', phi: 'φ', varphi: 'φ', chi: 'χ', psi: 'ψ', omega: 'ω',
  Gamma: 'Γ', Delta: 'Δ', Theta: 'Θ', Lambda: 'Λ', Pi: 'Π', Sigma: 'Σ', Phi: 'Φ', Psi: 'Ψ', Omega: 'Ω',
};
const BLACKBOARD: Record<string, string> = { N: 'ℕ', Z: 'ℤ', Q: 'ℚ', R: 'ℝ', C: 'ℂ', H: 'ℍ' };
/** Commands that are layout only: dropped, keeping their argument. */
const LAYOUT = /\\(?:mathrm|mathbf|mathit|mathsf|operatorname|text|textrm|mathfrak|mathcal|overline|bar|hat|tilde|left|right|bigl|bigr|Bigl|Bigr|displaystyle|tfrac|dfrac|frac)\b/g;

export function looksLikeLatex(text: string): boolean {
  return /\$|\\[A-Za-z]+/.test(text);
}

export function latexToUnicode(text: string): string {
  return text
    .replace(/\\mathbb\{?([A-Z])\}?/g, (m, c: string) => BLACKBOARD[c] ?? c)
    .replace(/\\([A-Za-z]+)/g, (m, cmd: string) => SYMBOLS[cmd] ?? m)
    .replace(LAYOUT, ' ')
    .replace(/\\[,;:! ]/g, ' ')
    .replace(/[$]/g, ' ')
    .replace(/[{}]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
