/**
 * The reorderers, applied in this order to the fused list (best first). A new one:
 * one module, one line.
 */
import type { Reorderer } from '../stages.js';
import { goalMatch } from './goal-match.js';
import { kind } from './kind.js';
import { learnedRank } from './learned-rank.js';
import { lift } from './lift.js';
import { patternTiers } from './pattern-tiers.js';
import { rerank } from './rerank.js';
import { slotFit } from './slot-fit.js';

export const REORDERERS: readonly Reorderer[] = [learnedRank, kind, lift, rerank, slotFit, goalMatch, patternTiers];
