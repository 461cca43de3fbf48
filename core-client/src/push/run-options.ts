import type { CoreClient } from '../http/core-client.js';
import { DEFAULT_GIVE_UP_AFTER_MS, type RetryPolicy, defaultRetryPolicy } from '../http/retry.js';
import type { PlannedRecord } from '../plan/plan-source.js';
import type { SyncRunOptions } from '../sync/open-sync.js';
import type { ConcurrencyLimits, ControllerReading, ControllerTuning } from './concurrency.js';
import type { PushControl } from './control.js';
import type { PushEventListener } from './events.js';
import type { IdentityOptions } from '../identity/identity-options.js';
import type { PlannedRejections } from '../summary/push-summary.js';
import type { IdentityClient } from './user-steps.js';
import type { WaitingStore } from '../login-time/store/waiting-store.js';

/** What the engine needs of a core client; `CoreClient` is one. The lookup serves the steps and the journal's core check. */
export type PushClient = IdentityClient & Pick<CoreClient, 'describe' | 'digestKey' | 'userCount'>;

/**
 * A run is a push or a sync of the plan. A push (the default) sends every operation, and with a journal resumes where
 * an earlier run stopped. A sync (issue 19) reads a newer export of the system the journal migrated and sends only
 * what changed since the journal's last run (`syncDelta`): it cannot be without that journal, and `sync` says what
 * happens to users gone from the export. `Sync` is what the caller gives of a sync (the migration adds the first pass).
 */
export type RunMode<Sync> =
  | {
      mode?: 'push' | undefined;
      /** Without a journal a re-run cannot resume (everything would be sent again). */
      journalPath?: string | undefined;
      /** Only a sync has one: a push given sync options by mistake does not type-check. */
      sync?: undefined;
    }
  | { mode: 'sync'; journalPath: string; sync: Sync };

export type RunPushOptions = PushRunSettings & RunMode<SyncRunOptions>;

/** Everything of a run but its mode. */
export interface PushRunSettings {
  /** The plan, streamed: the engine pulls the next record only when it can send, so memory stays flat. */
  records: AsyncIterable<PlannedRecord>;
  /** Operations the plan holds (`summarisePlan(...).operations`), for progress, ETA and the summary's sum. */
  total?: number;
  /**
   * The plan's refusals among them (`plannedRejectionsOf`): a push that stops before reading them counts them as the
   * plan ended them, not as "not attempted".
   */
  plannedRejections?: PlannedRejections;
  client: PushClient;
  /**
   * The login-time migration's waiting store (`--login-time`), open: the users the plan parks (`loginTimeWait`) are
   * written there, not sent. The caller opens and closes it.
   */
  loginTimeStore?: WaitingStore;
  /**
   * The steps after each creation (id mapping, verification, metadata, the lookup). Default: none, the contract's two
   * operations alone; the headless command and the app pass `defaultIdentityOptions` less what the core lacks.
   */
  identity?: IdentityOptions;
  /** `sourceFingerprint(path)` of the file the plan reads; the journal is refused for another file. */
  sourceFingerprint: string;
  reportPath?: string;
  /** Named in the report's run header. */
  sourceName?: string;
  /**
   * A sentence when the export (or a companion file) changed since the plan read it, else undefined: asked every
   * second and at the end; a change stops the push (reason `sourceChanged`).
   */
  sourceCheck?: () => Promise<string | undefined>;
  concurrency?: ConcurrencyLimits;
  /** Each measurement of the concurrency controller as it judged it (the bench logs them; the push's output does not). */
  onControllerReading?: (reading: ControllerReading) => void;
  /** Knobs of the controller's search other than the defaults (the bench compares tunings on a real core; no flag sets them). */
  controllerTuning?: Partial<ControllerTuning>;
  /**
   * Attempts per request (`maxAttempts`) and their backoff. Only failures that may be the operation's own use an
   * attempt (see `Dispatcher`); `maxTotalMs` is not used: the give-up time bounds how long a push waits.
   */
  retryPolicy?: RetryPolicy;
  /**
   * How long the core may answer nothing useful (no user done, no record refused: only push-backs, errors, silence)
   * before the push gives up (reason `coreUnreachable`). Until then operations wait instead of failing. Default 5 min.
   */
  giveUpAfterMs?: number;
  /** Plan and count only: read the journal, write nothing anywhere but the report. */
  dryRun?: boolean;
  /** Stop taking new operations, let the ones in flight finish, flush the journal (the first Ctrl-C). */
  signal?: AbortSignal;
  /** Abort the requests in flight too (a second Ctrl-C in a face that does not exit). */
  abandonSignal?: AbortSignal;
  /**
   * After a stop that lets requests in flight finish, how long they get before they are abandoned (not journalled,
   * so a resume sends them again): a core that never finishes an answer cannot hold a Ctrl-C. Default 5 s.
   */
  stopGraceMs?: number;
  control?: PushControl;
  onEvent?: PushEventListener;
  /** Default 250 ms: progress a few times a second, never per operation. */
  progressIntervalMs?: number;
  /** In [0, 1), for retry jitter. */
  random?: () => number;
}

/**
 * Retries per request: a little more patient than the client's default, because a push runs for a long time and a
 * core under load recovers; the concurrency controller already slows everyone down.
 */
export const defaultPushRetryPolicy: RetryPolicy = Object.freeze({ ...defaultRetryPolicy, maxAttempts: 8, maxTotalMs: 120_000 });

export const DEFAULT_STOP_GRACE_MS = 5_000;

/**
 * A rate-limit storm, a core restarting, a database fail-over: all of these pass within minutes, and a push that
 * waits them out finishes on its own. A core silent for longer needs a person. (One give-up time for every request of
 * a command: http/retry.ts.)
 */
export { DEFAULT_GIVE_UP_AFTER_MS };
/** Beyond a day of silence nobody is waiting for the push any more. */
export const MAX_GIVE_UP_AFTER_MS = 24 * 3_600_000;

/** How often the export is checked for changes during a push (a stat, nothing read). */
export const SOURCE_CHECK_INTERVAL_MS = 1_000;
