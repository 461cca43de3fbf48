import { z } from 'zod';
import { runPreflight, type PreflightReport, type PreflightStepName } from '../../connection/preflight.js';
import type { CoreClient } from '../../http/core-client.js';
import type { OldSystemVerifier } from '../old-system/old-system-verifier.js';
import { isWaitingStoreError, type WaitingStore } from '../store/waiting-store.js';

/**
 * Why the service cannot answer sign-ins now, one stable code each: the core does not answer, refuses the api-key, or
 * lacks the tenant; the waiting store does not answer (or its file changed under it); the old system `--verify-with`
 * names does not answer.
 */
export const NotReadyReasonSchema = z.enum(['coreUnreachable', 'coreKeyRefused', 'tenantMissing', 'storeUnavailable', 'oldSystemUnreachable']);
export type NotReadyReason = z.infer<typeof NotReadyReasonSchema>;

/** What `GET /health` answers: 200 `ok`, or 503 `notReady` with every reason found. */
export const HealthAnswerSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('ok') }),
  z.object({ status: z.literal('notReady'), reasons: z.array(NotReadyReasonSchema).min(1) }),
]);
export type HealthAnswer = z.infer<typeof HealthAnswerSchema>;

/** One thing the service needs to answer sign-ins: resolves to the reason it is not there, or undefined when it is. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<NotReadyReason | undefined>;
}

/** The service creates users from plain passwords (no hash import), so the scrypt variant's name does not hold it up. */
const reasonOfPreflightStep: Record<PreflightStepName, NotReadyReason | undefined> = {
  reachable: 'coreUnreachable',
  keyAccepted: 'coreKeyRefused',
  tenantExists: 'tenantMissing',
  scryptName: undefined,
};

/** What of a pre-flight keeps the service from answering sign-ins, if anything: at start and on `/health`. */
export function preflightNotReadyReason(report: PreflightReport): NotReadyReason | undefined {
  return report.failure === undefined ? undefined : reasonOfPreflightStep[report.failure.step];
}

/** The core, checked as `check` and a push check it before they start: the same pre-flight. */
async function coreReadiness(core: CoreClient): Promise<NotReadyReason | undefined> {
  return preflightNotReadyReason(await runPreflight(core));
}

async function storeReadiness(store: WaitingStore): Promise<NotReadyReason | undefined> {
  try {
    await store.checkAvailable();
    return undefined;
  } catch (error) {
    if (isWaitingStoreError(error)) return 'storeUnavailable';
    throw error;
  }
}

/**
 * The old system, asked only whether it answers (each kind's `reachable` says how): never with a password, so a probe
 * can neither tell anything of an account nor lock one out.
 */
async function oldSystemReadiness(oldSystem: OldSystemVerifier): Promise<NotReadyReason | undefined> {
  return (await oldSystem.reachable()) ? undefined : 'oldSystemUnreachable';
}

/**
 * Everything the login-time service needs before it can answer a sign-in, in one list: `/health` asks each in turn.
 * A part the service comes to depend on adds its check here.
 */
export function loginServiceReadiness(parts: { core: CoreClient; store: WaitingStore; oldSystem?: OldSystemVerifier | undefined }): ReadinessCheck[] {
  const { oldSystem } = parts;
  return [
    { name: 'core', check: () => coreReadiness(parts.core) },
    { name: 'store', check: () => storeReadiness(parts.store) },
    ...(oldSystem === undefined ? [] : [{ name: 'oldSystem', check: () => oldSystemReadiness(oldSystem) }]),
  ];
}

/** Asks every check (all of them: an operator sees every reason at once), and answers what `/health` says. */
export async function checkReadiness(checks: readonly ReadinessCheck[]): Promise<HealthAnswer> {
  const found = await Promise.all(checks.map((readiness) => readiness.check()));
  const reasons = found.filter((reason): reason is NotReadyReason => reason !== undefined);
  return reasons.length === 0 ? { status: 'ok' } : { status: 'notReady', reasons };
}

/** Rounds of checks probes may run one after another before they share the last answer. */
export const HEALTH_ROUNDS_AT_ONCE = 3;

/**
 * `/health`'s answer, shared, so no stream of probes makes the core (or the store, or the old system) do work a probe:
 * probes that arrive while a round of checks runs share it; a probe may start a new round while rounds are left, 3
 * at once and one more every `roundEveryMs` (a bucket, as the attempt limits), and otherwise gets the last round's
 * answer. A probe now and then (a container's health check every 10 s) is answered afresh; a flood of them costs at
 * most 3 rounds, then one every `roundEveryMs`. A round that broke answers the same, until the next round.
 */
export function sharedReadiness(checks: readonly ReadinessCheck[], options: { roundEveryMs: number; now?: () => number }): () => Promise<HealthAnswer> {
  const now = options.now ?? Date.now;
  let underWay: Promise<HealthAnswer> | undefined;
  let last: Promise<HealthAnswer> | undefined;
  let rounds = HEALTH_ROUNDS_AT_ONCE;
  let countedAt = now();
  return () => {
    if (underWay !== undefined) return underWay;
    const time = now();
    rounds = options.roundEveryMs <= 0 ? HEALTH_ROUNDS_AT_ONCE : Math.min(HEALTH_ROUNDS_AT_ONCE, rounds + (time - countedAt) / options.roundEveryMs);
    countedAt = time;
    if (rounds < 1 && last !== undefined) return last;
    rounds -= 1;
    const round = checkReadiness(checks).finally(() => {
      underWay = undefined;
    });
    underWay = round;
    last = round;
    return round;
  };
}
