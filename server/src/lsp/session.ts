/**
 * Per-editor-session state shared by the router and the features: open
 * documents, settings, the upstream's flavor and capabilities, and the goal
 * source that fits the upstream.
 */
import type { Flavor } from '../upstream/command.js';
import type { UpstreamLink } from '../upstream/link.js';
import { defaultConfig, type PremiseConfig } from './config.js';
import { DocumentStore } from './documents.js';
import type { EngineHost } from './engine-host.js';
import type { FeatureContext } from './features/context.js';
import { IsabelleGoals } from './goals/isabelle.js';
import { LeanGoals } from './goals/lean.js';
import { noGoals, type GoalProvider } from './goals/types.js';
import { LiveIndex } from './live-index.js';
import type { Logger } from './log.js';
import { TrialRunner } from './trials/runner.js';

export class Session implements FeatureContext {
  readonly docs = new DocumentStore();
  cfg: PremiseConfig = defaultConfig();
  upstreamCaps: Record<string, unknown> | undefined;
  initParams: Record<string, unknown> | undefined;
  /** Set once the editor sent `initialized` (replayed only then). */
  initializedParams: unknown = undefined;
  /** Last `workspace/didChangeConfiguration` params, replayed to a restarted prover. */
  lastConfiguration: unknown;
  supportsProgress = false;
  shutdownRequested = false;
  /** Commands advertised under this project's own names (`--project-commands`). */
  projectCommands = false;
  /** The suffix of this session's command names, fixed at initialize (capabilities.ts `projectCommandSuffix`, `withCommandSuffix`); none: the plain names. */
  commandSuffix: string | undefined;
  private goalProvider: GoalProvider = noGoals;
  private flavorValue: Flavor = 'generic';
  link: UpstreamLink | undefined;
  /** The declarations of open documents, kept in the engine's overlay. */
  readonly live: LiveIndex = new LiveIndex(this);
  /** Premises tried against the Lean server (docs/trials.md); Lean only. */
  readonly trials: TrialRunner = new TrialRunner(
    () => (this.flavorValue === 'lean' ? this.link : undefined),
    () => this.cfg.trials,
    (uri) => this.docs.get(uri) !== undefined,
    { debug: (m) => this.log.debug(m), warn: (m) => this.log.warn(m) },
  );

  constructor(
    readonly engines: EngineHost,
    readonly log: Logger,
  ) {}

  config(): PremiseConfig {
    return this.cfg;
  }
  flavor(): Flavor {
    return this.flavorValue;
  }
  get goals(): GoalProvider {
    return this.goalProvider;
  }

  /** Choose the protocol family (and so the goal source) once the upstream is known. */
  setUpstream(link: UpstreamLink | undefined, flavor: Flavor): void {
    this.link = link;
    this.flavorValue = flavor;
    if (!link) this.goalProvider = noGoals;
    else if (flavor === 'lean') {
      const l = link;
      this.goalProvider = new LeanGoals(
        { request: (m, p, o) => l.request(m, p, o), get live() { return l.live; } },
        (uri) => this.docs.get(uri)?.version,
      );
    } else if (flavor === 'isabelle') {
      const l = link;
      this.goalProvider = new IsabelleGoals({ notify: (m, p) => l.notify(m, p), get live() { return l.live; } });
    } else this.goalProvider = noGoals;
  }

  /** Refine a `generic` flavor from the upstream's initialize result. */
  learnFlavor(result: unknown): void {
    if (this.flavorValue !== 'generic' || !this.link) return;
    const r = result as { capabilities?: { experimental?: Record<string, unknown> }; serverInfo?: { name?: string } } | null;
    const name = (r?.serverInfo?.name ?? '').toLowerCase();
    if (r?.capabilities?.experimental?.rpcProvider || name.includes('lean')) this.setUpstream(this.link, 'lean');
    else if (name.includes('isabelle')) this.setUpstream(this.link, 'isabelle');
  }
}
