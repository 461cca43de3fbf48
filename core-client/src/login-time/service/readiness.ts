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

/**
 * `/health`'s answer, shared: probes that arrive while a round of checks runs share it, and its answer stands for
 * `freshForMs` after it ends, so no stream of probes makes the core (or the store, or the old system) do work a probe:
 * at most one round every `freshForMs`. A round that broke is not kept: the next probe runs a new one.
 */
export function sharedReadiness(checks: readonly ReadinessCheck[], options: { freshForMs: number; now?: () => number }): () => Promise<HealthAnswer> {
  const now = options.now ?? Date.now;
  let underWay: Promise<HealthAnswer> | undefined;
  let kept: { answer: HealthAnswer; until: number } | undefined;
  return () => {
    if (kept !== undefined && now() < kept.until) return Promise.resolve(kept.answer);
    underWay ??= checkReadiness(checks)
      .then((answer) => {
        kept = { answer, until: now() + options.freshForMs };
        return answer;
      })
      .finally(() => {
        underWay = undefined;
      });
    return underWay;
  };
}
