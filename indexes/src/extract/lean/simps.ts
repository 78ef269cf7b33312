/**
 * The statement of an `@[simps]` lemma, where the source alone gives it exactly:
 * a definition of a plain equivalence `foo args : α ≃ β` whose body is a structure
 * instance (`where toFun := f …`, `where toFun x := e …`, `:= { toFun := fun x => e, … }`)
 * gives `foo_apply : ∀ x : α, foo args x = e` (`f x` for a non-λ value) and
 * `foo_symm_apply : ∀ y : β, (foo args).symm y = …` from `invFun`. Anything else
 * (other structures, nested projections, `simps!` unfolding, a body that is not a
 * structure instance, a value that is a constructor application, whose nested
 * projections simps states instead) gets no statement: the lemma is then known by its name and
 * origin only, never by a guessed statement.
 */
import { syntheticBinder, type Binder } from './binders.js';
import { T, joinToks, matchClose, type Tok } from './lex.js';

/** A structure-instance body's fields: name → [parameter names written before `:=`, value range]. */
type Fields = Map<string, { params: string[]; a: number; b: number }>;

/** The fields of the body that starts at the terminator `term` (`where` or `:=`) and ends at `e`. */
function instanceFields(toks: Tok[], term: number, e: number): Fields | undefined {
  let a: number;
  let b: number;
  const t = toks[term];
  if (t?.k === T.Id && t.v === 'where') {
    a = term + 1;
    b = e;
  } else if (t?.k === T.Assign && toks[term + 1]?.k === T.Open && toks[term + 1]!.v === '{') {
    const close = matchClose(toks, term + 1, e);
    if (close !== e - 1) return undefined; // something follows the instance (`{ … } |>.trans …`)
    for (let m = term + 2; m < close; m++) if (toks[m]!.k === T.Id && toks[m]!.v === 'with') return undefined; // `{ s with … }`: fields may come from s
    a = term + 2;
    b = close;
  } else return undefined;
  const fields: Fields = new Map();
  let depth = 0;
  let cur: { name: string; params: string[]; a: number } | undefined;
  const end = (m: number) => {
    if (!cur) return;
    let z = m;
    while (z > cur.a && toks[z - 1]!.k === T.Comma) z--;
    fields.set(cur.name, { params: cur.params, a: cur.a, b: z });
  };
  for (let m = a; m < b; m++) {
    const tk = toks[m]!;
    if (depth === 0 && tk.k === T.Id && (m === a || tk.nl || toks[m - 1]!.k === T.Comma)) {
      // `name x y := value`: plain parameter names, then `:=`
      let n = m + 1;
      const params: string[] = [];
      while (n < b && toks[n]!.k === T.Id && !toks[n]!.nl) params.push(toks[n++]!.v);
      if (toks[n]?.k === T.Assign && n < b) {
        end(m);
        cur = { name: tk.v, params, a: n + 1 };
        m = n;
        continue;
      }
    }
    if (tk.k === T.Open || tk.k === T.Attr) depth++;
    else if (tk.k === T.Close) depth--;
  }
  end(b);
  return fields;
}

/** `α ≃ β` split at its one top-level `≃` (token ranges), or undefined. */
function equivSides(toks: Tok[], a: number, b: number): [string, string] | undefined {
  let depth = 0;
  let at = -1;
  for (let m = a; m < b; m++) {
    const tk = toks[m]!;
    if (tk.k === T.Open || tk.k === T.Attr) depth++;
    else if (tk.k === T.Close) depth--;
    else if (depth === 0 && tk.k === T.Op) {
      // another top-level operator, or `≃L[R]`, `≃ₗ[R]`… (lexed `≃` then a name): not a plain `α ≃ β`
      if (tk.v !== '≃' || at >= 0 || !toks[m + 1]?.sp) return undefined;
      at = m;
    } else if (depth === 0 && tk.k === T.Comma) return undefined;
  }
  return at > a && at < b - 1 ? [joinToks(toks, a, at), joinToks(toks, at + 1, b)] : undefined;
}

/**
 * Whether [a, b) may be a constructor application (`⟨…⟩`, `{ … }`, a tuple, `Foo.mk …`):
 * simps then states one lemma per nested projection (`foo_apply_fst`), not this one.
 */
function constructorLike(toks: Tok[], a: number, b: number): boolean {
  const t = toks[a];
  if (!t) return true;
  if (t.k === T.Open) {
    if (t.v === '⟨' || t.v === '{') return true;
    if (t.v === '(' && matchClose(toks, a, b) === b - 1) {
      let depth = 0;
      for (let m = a + 1; m < b - 1; m++) {
        const k = toks[m]!.k;
        if (k === T.Open || k === T.Attr) depth++;
        else if (k === T.Close) depth--;
        else if (depth === 0 && k === T.Comma) return true;
      }
    }
  }
  return t.k === T.Id && (t.v === 'mk' || t.v.endsWith('.mk'));
}

/** A field value applied to a variable: `[variable, right-hand side]`, the λ's own binder name kept; undefined when not a simple value. */
function applied(toks: Tok[], field: { params: string[]; a: number; b: number }, taken: Set<string>): [string, string] | undefined {
  const { params, a, b } = field;
  if (b <= a) return undefined;
  if (params.length) return params.length === 1 && !taken.has(params[0]!) && params[0] !== '_' && !constructorLike(toks, a, b) ? [params[0]!, joinToks(toks, a, b)] : undefined;
  const t = toks[a]!;
  if ((t.k === T.Id && t.v === 'fun') || (t.k === T.Op && t.v === 'λ')) {
    let m = a + 1;
    let x: string | undefined;
    if (toks[m]?.k === T.Id) x = toks[m++]!.v;
    else if (toks[m]?.k === T.Open && toks[m]!.v === '(' && toks[m + 1]?.k === T.Id && toks[m + 2]?.k === T.Colon) {
      x = toks[m + 1]!.v;
      m = matchClose(toks, m, b) + 1;
    }
    const arrow = toks[m];
    if (!x || x === '_' || taken.has(x) || !arrow || arrow.k !== T.Op || (arrow.v !== '=>' && arrow.v !== '↦') || m + 1 >= b || constructorLike(toks, m + 1, b)) return undefined;
    return [x, joinToks(toks, m + 1, b)];
  }
  if (constructorLike(toks, a, b)) return undefined;
  const value = joinToks(toks, a, b);
  let x = 'x';
  for (let i = 1; taken.has(x) || new RegExp(`(^|[^\\w'.])${x}($|[^\\w'])`).test(value); i++) x = `x${i}`;
  return [x, b - a === 1 ? `${value} ${x}` : `(${value}) ${x}`];
}

/** The binders and conclusion of `@[simps]` lemma `<short>_<proj>` of `main`, or undefined when they are not derived. */
export function simpsStatement(
  toks: Tok[],
  main: { short: string; args: Binder[]; goal: { a?: number; b?: number } },
  proj: string,
  term: number,
  e: number,
): { args: Binder[]; goal: string } | undefined {
  if ((proj !== 'apply' && proj !== 'symm_apply') || main.goal.a === undefined || main.goal.b === undefined) return undefined;
  const sides = equivSides(toks, main.goal.a, main.goal.b);
  const fields = sides && instanceFields(toks, term, e);
  const field = fields?.get(proj === 'apply' ? 'toFun' : 'invFun');
  if (!sides || !field) return undefined;
  const names = main.args.flatMap((b) => b.names);
  if (names.includes('_')) return undefined;
  const explicit = main.args.filter((b) => b.open === '(' && !b.inst).flatMap((b) => b.names);
  const app = applied(toks, field, new Set(names));
  if (!app) return undefined;
  const [x, rhs] = app;
  const name = main.short.replace(/^_root_\./, '');
  const head = explicit.length ? `${name} ${explicit.join(' ')}` : name;
  const lhs = proj === 'apply' ? `${head} ${x}` : `${explicit.length ? `(${head})` : head}.symm ${x}`;
  const type = proj === 'apply' ? sides[0] : sides[1];
  return { args: [...main.args, syntheticBinder(`(${x} : ${type})`, [x], false)], goal: `${lhs} = ${rhs}` };
}
