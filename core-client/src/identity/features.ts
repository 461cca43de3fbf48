import { randomUUID } from 'node:crypto';
import type { CallOptions, CoreClient } from '../http/core-client.js';
import { NotFound, RecordRejected, isCoreError } from '../http/errors.js';
import type { PlanSummary } from '../plan/summary.js';
import { type IdentityFeature, type IdentityOptions, featureLabels, identityFeatures } from '../push/identity-options.js';

export type FeatureSupport = Record<IdentityFeature, boolean>;

type ProbeClient = Pick<CoreClient, 'userIdMapping' | 'isEmailVerified' | 'userMetadata' | 'userByEmail' | 'removeUser' | 'listRoles'>;

/** An id and email no user can have, so a probe reads (or removes) nothing. */
function probeIds(): { userId: string; email: string } {
  const nonce = randomUUID();
  return { userId: `core-migrate-probe-${nonce}`, email: `core-migrate-probe-${nonce}@probe.invalid` };
}

/** The core answered a probe with neither the call's answer nor 404: nothing can be decided, nothing is sent. */
export class IdentityProbeError extends Error {
  override readonly name = 'IdentityProbeError';
  constructor(
    readonly feature: IdentityFeature,
    answer: string,
    options?: ErrorOptions,
  ) {
    super(
      `the core's answer to the ${featureLabels[feature]} check could not be read (${answer}); nothing was sent. Run core-migrate check to see what the core offers.`,
      options,
    );
  }
}

/**
 * Which identity calls the core has: each is asked once about a user that cannot exist, and a 404 `Not found` means
 * the core has no such call (core-behaviour.md). The removal probe removes that non-existent id, which the core
 * answers OK without touching anything. Any other error becomes an `IdentityProbeError`.
 */
export async function probeIdentityFeatures(client: ProbeClient, options: Pick<CallOptions, 'signal'> = {}): Promise<FeatureSupport> {
  const call: CallOptions = { retry: false, ...options };
  const { userId, email } = probeIds();
  const probes: Record<IdentityFeature, () => Promise<unknown>> = {
    mapping: () => client.userIdMapping(userId, call),
    verification: () => client.isEmailVerified({ userId, email }, call),
    metadata: () => client.userMetadata(userId, call),
    lookup: () => client.userByEmail(email, call),
    removal: () => client.removeUser(userId, call),
    roles: () => client.listRoles(call),
  };
  const support = {} as FeatureSupport;
  for (const feature of identityFeatures) {
    try {
      await probes[feature]();
      support[feature] = true;
    } catch (error) {
      if (error instanceof NotFound) support[feature] = false;
      // A 400 is the call refusing the probe's invented values: the core has the call.
      else if (error instanceof RecordRejected) support[feature] = true;
      else if (isCoreError(error)) throw new IdentityProbeError(feature, error.message, { cause: error });
      else throw error;
    }
  }
  return support;
}

export type PlanIdentity = Pick<PlanSummary, 'identity' | 'passwordImports' | 'roles'>;

/** The flag that turns each step off, for the sentence that asks for it. */
const turnOffFlags: Record<StepFeature, string> = {
  mapping: '--no-keep-ids',
  verification: '--no-verify-emails',
  metadata: '--no-metadata',
  lookup: '--existing replace',
  roles: '--no-roles',
};

/** The identity features a push's steps use (removal is the rollback's). */
export type StepFeature = Exclude<IdentityFeature, 'removal'>;

/**
 * The sentence that stops a push needing features the core lacks; `turnOff` says how to do without them, in the
 * words of the face that shows it (default: the flags).
 */
export function missingFeaturesSentence(
  missing: readonly StepFeature[],
  target: string,
  turnOff = `pass ${missing.map((feature) => turnOffFlags[feature]).join(' ')}`,
): string {
  const names = missing.map((feature) => featureLabels[feature]).join(', ');
  return `The core at ${target} has no ${names} (it answered 404), which this push needs; nothing was sent. Upgrade the core, or ${turnOff} to push without ${missing.length === 1 ? 'it' : 'them'}.`;
}

/**
 * The steps a push runs: what the operator asked for, less what the core lacks. A step the plan needs and the core
 * lacks stops the push before anything is sent, with one sentence (the step is never turned off silently).
 */
export function identityOptionsFor(
  requested: IdentityOptions,
  support: FeatureSupport,
  plan: PlanIdentity | undefined,
  target: string,
): { options: IdentityOptions } | { problem: string; missing: StepFeature[] } {
  // Not counted (a sync reads its export once): any step the operator asked for may be needed.
  const identity = plan?.identity;
  const needs: Record<StepFeature, boolean> = {
    mapping: requested.keepIds && (identity === undefined || identity.keepsSourceId > 0),
    verification: requested.verifyEmails && (identity === undefined || identity.verifiedEmails > 0),
    metadata:
      requested.metadata &&
      (identity === undefined || identity.keepsSourceId + identity.separateAccounts + identity.withProfile + identity.disabledImported > 0),
    // Replace can do without the lookup; skip cannot tell an existing user from a new one without it.
    lookup: requested.lookup && requested.existing === 'skip' && (plan === undefined || plan.passwordImports > 0),
    roles: requested.roles && (plan === undefined || plan.roles.operationsWithRoles > 0),
  };
  const missing = (Object.keys(needs) as StepFeature[]).filter((feature) => needs[feature] && !support[feature]);
  if (missing.length > 0) return { problem: missingFeaturesSentence(missing, target), missing };
  return {
    options: {
      ...requested,
      keepIds: requested.keepIds && support.mapping,
      verifyEmails: requested.verifyEmails && support.verification,
      metadata: requested.metadata && support.metadata,
      lookup: requested.lookup && support.lookup,
      roles: requested.roles && support.roles,
    },
  };
}
