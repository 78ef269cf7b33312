/**
 * A text query that lists a structure's fields (`toFun : τ → α → α`, `map_zero'`…)
 * or states one of its axioms matches the structure's constructor (`Flow.mk`) or a
 * field (`Equiv.left_inv`) better than the structure itself: the arguments of a
 * constructor are exactly the fields. What such a query asks for is the structure,
 * so a constructor or field found in the head of the list lifts its parent
 * structure, class or inductive type just above it. Likewise a definition's
 * unfolding lemma (`Polynomial.separable_def : f.Separable ↔ IsCoprime f (derivative f)`)
 * matches a query that spells out the definition's body: it lifts the definition.
 */
import type { DeclKind } from '../../../indexes/src/extract/record.js';

const MEMBER_KINDS = new Set<DeclKind>(['constructor', 'field']);
const STRUCTURES = new Set<DeclKind>(['structure', 'class', 'inductive']);
const DEFINITIONS = new Set<DeclKind>([...STRUCTURES, 'def', 'abbrev', 'opaque', 'definition', 'fun']);

/**
 * The declarations a constructor or field (`Flow.mk` → `Flow`, also a defined one
 * such as `Lattice.mk'` whose type is `Lattice α`) or an unfolding lemma
 * (`Polynomial.separable_def` → `Polynomial.separable`, `Polynomial.Separable`) stands
 * for, with the kinds a parent may have; undefined for anything else.
 */
export function parentNames(name: string, kind: DeclKind, goal = ''): { names: string[]; kinds: Set<DeclKind> } | undefined {
  const dot = name.lastIndexOf('.');
  // `Lattice.mk' … : Lattice α`: another constructor, defined (its type is the parent)
  const parentShort = name.slice(name.lastIndexOf('.', dot - 1) + 1, dot);
  const defined = (kind === 'def' || kind === 'abbrev') && /^mk(?![a-z])/.test(name.slice(dot + 1)) && !!parentShort && goal.trimStart().startsWith(parentShort);
  const member = MEMBER_KINDS.has(kind) || defined;
  if (member) return dot > 0 ? { names: [name.slice(0, dot)], kinds: STRUCTURES } : undefined;
  if (DEFINITIONS.has(kind) || MEMBER_KINDS.has(kind) || kind === 'instance') return undefined;
  const last = name.slice(dot + 1).replace(/'+$/, '');
  const ns = name.slice(0, dot + 1);
  if (last === 'def') return dot > 0 ? { names: [name.slice(0, dot)], kinds: DEFINITIONS } : undefined;
  const m = /^(.+)_def$/.exec(last);
  if (!m) return undefined;
  const base = m[1]!;
  const upper = base[0]!.toUpperCase() + base.slice(1);
  return { names: [...new Set([ns + base, ns + upper])], kinds: DEFINITIONS };
}

export interface Liftable {
  score: number;
  readonly info: { name: string; kind: DeclKind; goal?: string };
}

/**
 * Raises, in place, the parent of each constructor, field or unfolding lemma among the first `top`
 * entries of `list` (sorted best first) to just above its best member; `parentOf`
 * finds a parent's entry (adding it to `list` if new) or returns undefined.
 * Returns whether any score changed.
 */
export function liftParents<C extends Liftable>(list: C[], top: number, parentOf: (name: string) => C | undefined): boolean {
  let changed = false;
  for (const c of list.slice(0, top)) {
    const parents = parentNames(c.info.name, c.info.kind, c.info.goal);
    for (const name of parents?.names ?? []) {
      const p = parentOf(name);
      if (!p || !parents!.kinds.has(p.info.kind)) continue;
      const above = c.score + 1e-9 * Math.max(1, Math.abs(c.score));
      if (p.score < above) {
        p.score = above;
        changed = true;
      }
    }
  }
  return changed;
}
