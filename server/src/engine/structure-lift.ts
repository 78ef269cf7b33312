/**
 * A text query that lists a structure's fields (`toFun : τ → α → α`, `map_zero'`…)
 * or states one of its axioms matches the structure's constructor (`Flow.mk`) or a
 * field (`Equiv.left_inv`) better than the structure itself: the arguments of a
 * constructor are exactly the fields. What such a query asks for is the structure,
 * so a constructor or field found in the head of the list lifts its parent
 * structure, class or inductive type just above it.
 */
import type { DeclKind } from '../../../indexes/src/extract/record.js';

const MEMBER_KINDS = new Set<DeclKind>(['constructor', 'field']);
const PARENT_KINDS = new Set<DeclKind>(['structure', 'class', 'inductive']);

/** The declaration a constructor or field belongs to (`Flow.mk` → `Flow`), or undefined. */
export function parentName(name: string, kind: DeclKind): string | undefined {
  if (!MEMBER_KINDS.has(kind)) return undefined;
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : undefined;
}

export interface Liftable {
  score: number;
  readonly info: { name: string; kind: DeclKind };
}

/**
 * Raises, in place, the parent of each constructor or field among the first `top`
 * entries of `list` (sorted best first) to just above its best member; `parentOf`
 * finds a parent's entry (adding it to `list` if new) or returns undefined.
 * Returns whether any score changed.
 */
export function liftParents<C extends Liftable>(list: C[], top: number, parentOf: (name: string) => C | undefined): boolean {
  let changed = false;
  for (const c of list.slice(0, top)) {
    const name = parentName(c.info.name, c.info.kind);
    const p = name === undefined ? undefined : parentOf(name);
    if (!p || !PARENT_KINDS.has(p.info.kind)) continue;
    const above = c.score + 1e-9 * Math.max(1, Math.abs(c.score));
    if (p.score < above) {
      p.score = above;
      changed = true;
    }
  }
  return changed;
}
