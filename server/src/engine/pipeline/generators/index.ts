/**
 * The candidate generators, in the order they add candidates (the name generator reads
 * the informal scores of all those before it). A new generator: one module, one line.
 */
import type { Generator } from '../stages.js';
import { dense } from './dense.js';
import { graphVotesGenerator } from './graph-votes.js';
import { informal } from './informal.js';
import { mash } from './mash.js';
import { name } from './name.js';
import { nearby } from './nearby.js';
import { ownVotes } from './own-votes.js';
import { pattern } from './pattern.js';
import { sparse } from './sparse.js';
import { usage } from './usage.js';

export const GENERATORS: readonly Generator[] = [sparse, informal, dense, nearby, graphVotesGenerator, ownVotes, name, pattern, usage, mash];
