/** What the features share: documents, engine, goals, settings. */
import type { Flavor } from '../../upstream/command.js';
import type { PremiseConfig } from '../config.js';
import type { DocumentStore } from '../documents.js';
import type { EngineHost } from '../engine-host.js';
import type { GoalProvider } from '../goals/types.js';
import type { Logger } from '../log.js';

export interface FeatureContext {
  docs: DocumentStore;
  engines: EngineHost;
  goals: GoalProvider;
  config(): PremiseConfig;
  flavor(): Flavor;
  log: Logger;
}

/** Longest query text handed to the engine. */
export const MAX_QUERY_CHARS = 8000;
