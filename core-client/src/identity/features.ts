import { CorePaths, type CorePath } from '../contract/names.js';
import type { CallOptions, CoreClient } from '../http/core-client.js';
import { isCoreError } from '../http/errors.js';
import { pushBacksOnly } from '../http/retry.js';
import { Problem } from '../problem.js';
import type { PlanSummary } from '../plan/summary.js';
import { type IdentityFeature, type IdentityOptions, featureLabels, identityFeatures } from './identity-options.js';

export type FeatureSupport = Record<IdentityFeature, boolean>;

type ProbeClient = Pick<CoreClient, 'probeCall' | 'retryPolicy'>;

/**
 * The call each feature is known by: the one a push (or a rollback) uses to write, or for the lookup the read it
 * makes. Each is sent with nothing to act on, so the core refuses it (400) when it has the call and answers 404 when
 * it does not; no probe creates, changes or removes anything, not even a user that does not exist.
 */
type ProbedCall = { method: 'GET' | 'POST' | 'PUT'; path: CorePath };
const probedCalls: Record<IdentityFeature, readonly ProbedCall[]> = {
  mapping: [{ method: 'POST', path: CorePaths.userIdMap }],
  verification: [{ method: 'POST', path: CorePaths.emailVerifyToken }],
  metadata: [{ method: 'PUT', path: CorePaths.userMetadata }],
  lookup: [{ method: 'GET', path: CorePaths.userByEmail }],
  removal: [{ method: 'POST', path: CorePaths.removeUser }],
  roles: [{ method: 'PUT', path: CorePaths.role }],
  emailChange: [{ method: 'PUT', path: CorePaths.userEmailChange }],
  // A code request with neither login (400 "Please provide exactly one of ..."), and a lookup without its query: the
  // push makes codes and looks its passwordless users up, so it needs both.
  passwordless: [
    { method: 'POST', path: CorePaths.passwordlessCode },
    { method: 'GET', path: CorePaths.usersByAccountInfo },
  ],
};

/** The core answered a probe with neither a refusal nor 404: nothing can be decided, nothing is sent. */
export class IdentityProbeError extends Problem<'core', 'identityProbeFailed'> {
  override readonly name = 'IdentityProbeError';
  constructor(
    readonly feature: IdentityFeature,
    answer: string,
    options?: ErrorOptions,
  ) {
    super(
      'identityProbeFailed',
      'core',
      'core',
      `the core's answer to the ${featureLabels[feature]} check could not be read (${answer}); nothing was sent. Run core-migrate check to see what the core offers.`,
      options,
    );
  }
}

/**
 * Which identity calls the core has, learnt from how it refuses a request with nothing to act on (400 with its
 * sentence: it has the call; 404 `Not found`: it has not; core-behaviour.md). A push-back is waited out within the
 * client's give-up time, like every request; any other answer becomes an `IdentityProbeError`.
 */
export async function probeIdentityFeatures(client: ProbeClient, options: Pick<CallOptions, 'signal'> = {}): Promise<FeatureSupport> {
  const call = { retry: pushBacksOnly(client.retryPolicy), ...options };
  const support = {} as FeatureSupport;
  for (const feature of identityFeatures) {
    support[feature] = true;
    for (const { method, path } of probedCalls[feature]) {
      try {
        support[feature] = await client.probeCall(method, path, call);
      } catch (error) {
        if (isCoreError(error)) throw new IdentityProbeError(feature, error.message, { cause: error });
        throw error;
      }
      if (!support[feature]) break;
    }
  }
  return support;
}

export type PlanIdentity = Pick<PlanSummary, 'identity' | 'passwordImports' | 'passwordlessSignInUps' | 'roles'>;

/** The flag that turns each step off, for the sentence that asks for it. */
const turnOffFlags: Record<StepFeature, string> = {
  mapping: '--no-keep-ids',
  verification: '--no-verify-emails',
  metadata: '--no-metadata',
  lookup: '--existing replace',
  roles: '--no-roles',
  passwordless: '--no-passwordless',
};

/**
 * The identity features a push's steps use (removal is the rollback's; a sync without an email change or a removal
 * reports each user it could not change, so nothing needs turning off).
 */
export type StepFeature = Exclude<IdentityFeature, 'removal' | 'emailChange'>;

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
  const leftOut = missing.includes('passwordless')
    ? ' Without the passwordless calls, the phone-number and email-link users are left out of the push and listed in the report for a password reset.'
    : '';
  return `The core at ${target} has no ${names} (it answered 404), which this push needs; nothing was sent. Upgrade the core, or ${turnOff} to push without ${missing.length === 1 ? 'it' : 'them'}.${leftOut}`;
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
    metadata: requested.metadata && (identity === undefined || identity.withMetadata > 0),
    // Replace can do without the lookup; skip cannot tell an existing user from a new one without it.
    lookup: requested.lookup && requested.existing === 'skip' && (plan === undefined || plan.passwordImports > 0),
    roles: requested.roles && (plan === undefined || plan.roles.operationsWithRoles > 0),
    // Never turned off by itself: without the calls these users would be neither created nor reported for a reset.
    passwordless: requested.passwordless && (plan === undefined || plan.passwordlessSignInUps > 0),
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
      passwordless: requested.passwordless && support.passwordless,
    },
  };
}
