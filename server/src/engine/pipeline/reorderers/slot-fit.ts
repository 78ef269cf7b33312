/**
 * The slot signal (slot.ts): the head of the list reordered by how well each premise
 * fits the tactic whose argument is wanted; with no tactic given (hybrid, not
 * reranked, `w.fit` > 0), by the better of the `rw` and `apply` fits.
 */
import { slotFitter, slotOf, UNKNOWN_SLOT, type SlotKind } from '../../slot.js';
import { resortHead, type Candidate } from '../candidate.js';
import type { Search } from '../search.js';
import type { Reorderer } from '../stages.js';

/** Candidates reordered by the slot signal, and its weight (a share of their score span) for a slot given. */
const SLOT_TOP = 50;
const SLOT_WEIGHT = 0.5;

/** The slots and weight of this search's fit, if any (the reranker reads the goal's shape itself). */
function fitOf(s: Search): { slots: SlotKind | readonly SlotKind[]; weight: number } | undefined {
  const slot = slotOf(s.opts.slot);
  if (slot) return { slots: slot, weight: SLOT_WEIGHT };
  return s.mode === 'hybrid' && !s.reranker && s.w.fit > 0 ? { slots: UNKNOWN_SLOT, weight: s.w.fit } : undefined;
}

/** Reorders the top candidates by how well they fit the slot(s): a bonus of up to `weight` of their score span. */
function slotRerank(s: Search, slots: SlotKind | readonly SlotKind[], weight: number, list: Candidate[]): void {
  const top = list.slice(0, SLOT_TOP);
  if (top.length < 2) return;
  const span = top[0]!.score - top[top.length - 1]!.score || Math.abs(top[0]!.score) || 1;
  const fitOf = slotFitter(slots, s.q.goal);
  for (const c of top) {
    const fit = fitOf(c.info);
    c.parts.slot = fit;
    c.score += weight * span * fit;
  }
  resortHead(list, top.length);
}

export const slotFit: Reorderer = {
  name: 'slot fit',
  applies: (s) => !!fitOf(s),
  apply(s, list) {
    const f = fitOf(s)!;
    slotRerank(s, f.slots, f.weight, list);
  },
};
