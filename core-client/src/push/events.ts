import type { SyncUserDelta } from '../sync/delta.js';
import type { PushCounts, PushSummary, StopReason } from '../summary/push-summary.js';

/**
 * What the engine tells a face (the terminal app, the headless command) while it runs. Progress comes at most a few
 * times a second, never per operation; no event carries a hash, a password or a key.
 */
export type PushEvent =
  | { type: 'started'; total: number | undefined; concurrency: number; dryRun: boolean; resumedEntries: number }
  | {
      type: 'progress';
      done: number;
      total: number | undefined;
      ratePerSecond: number;
      etaSeconds: number | undefined;
      counts: PushCounts;
      concurrency: number;
      inFlight: number;
    }
  | { type: 'probe'; message: string }
  /** Something the operator should read that does not stop the push (a stale lock taken over, a check not possible). */
  | { type: 'note'; message: string }
  /** Users an earlier run of the journal created with another hash: said once, before anything is sent for them; a face adds the sync command. */
  | { type: 'createdWithOtherHash'; message: string }
  | { type: 'pushBack'; status: number | undefined; retryAfterMs: number | undefined; concurrency: number }
  | { type: 'signerKeyMissing'; message: string }
  | { type: 'authRejected'; message: string }
  | { type: 'stopping'; reason: StopReason; message: string }
  /** A sync: one user it creates, changes or removes (or would, in a dry run); unchanged users are not told. */
  | { type: 'syncUser'; user: SyncUserDelta }
  | { type: 'finished'; summary: PushSummary };

export type PushEventListener = (event: PushEvent) => void;
