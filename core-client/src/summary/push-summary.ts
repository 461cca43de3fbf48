import { z } from 'zod';
import type { PlanSummary } from '../plan/summary.js';
import { RoleSetupSchema } from '../roles/role-setup.js';

/** Every operation of the plan ends in exactly one of these; the counts add up to `total`. */
export const pushOutcomes = [
  'imported',
  'alreadyExisted',
  'thirdPartyCreated',
  'thirdPartyExisting',
  'passwordlessCreated',
  'passwordlessExisting',
  'existingUntouched',
  'createdWithOtherHash',
  'parkedForLogin',
  'disabledSkipped',
  'rejected',
  'failed',
  'skipped',
  'notAttempted',
  'updated',
  'removed',
  'keptAsIs',
] as const;
export type PushOutcome = (typeof pushOutcomes)[number];

const count = z.number().int().nonnegative();

export const PushCountsSchema = z.object({
  /** Password users created by the import. */
  imported: count,
  /** Password users that existed: the core REPLACED their hash with the imported one. */
  alreadyExisted: count,
  thirdPartyCreated: count,
  /** Third-party users that existed: the core updated their email and its verified flag. */
  thirdPartyExisting: count,
  /** Phone-number and email-link users created as the core's passwordless users (a code made and consumed). */
  passwordlessCreated: count,
  /**
   * Passwordless users whose phone number or email already had a passwordless user in the core, not created by this
   * migration: left untouched (`--existing skip`), or given the identity steps (`--existing replace`).
   */
  passwordlessExisting: count,
  /** Password users already in the core and not created by this migration: left untouched (`--existing skip`). */
  existingUntouched: count,
  /**
   * Password users an earlier run of this journal created from the same record with another hash (other hash
   * parameters or wrappers): a push does not send them again (`sync` re-imports exactly their hashes).
   */
  createdWithOtherHash: count,
  /**
   * Users whose legacy hash the core cannot import, written to the login-time migration's waiting store
   * (`--login-time`): created in the core at their first sign-in.
   */
  parkedForLogin: count,
  /** Accounts disabled in the old system: not imported (`--disabled import` imports them). */
  disabledSkipped: count,
  /** Refused by the plan (never sent): see the report for each reason. */
  rejected: count,
  /** Failed at the core (refused with its sentence, or still failing after retries). */
  failed: count,
  /** Done in an earlier run, according to the journal: not sent again. */
  skipped: count,
  /** Not sent: a dry run, or the push stopped before reaching them (a resume sends them); every planned operation is counted. */
  notAttempted: count,
  /** A sync: accounts the migration created whose changes in the old system were brought over. */
  updated: count,
  /** A sync: accounts the migration created and now removed (disabled in the old system, or gone with --deleted remove). */
  removed: count,
  /** A sync: changed or gone accounts it may not touch (not created by the migration, or gone without --deleted remove). */
  keptAsIs: count,
  total: count,
});
export type PushCounts = z.infer<typeof PushCountsSchema>;

export const stopReasons = [
  'interrupted',
  'authRejected',
  'signerKeyMissing',
  'tenantNotFound',
  'coreRefused',
  'coreUnreachable',
  /** No TLS connection could be made (a plain-HTTP core behind https://, an untrusted or expired certificate). */
  'tlsFailed',
  'credentialsMismatch',
  /** The export (or the Auth0 hash file) changed while the push read it: the plan's count no longer holds. */
  'sourceChanged',
  /** Users the journal records as done are not on this core: another core answers at the journal's address. */
  'journalNotOnCore',
  /** The journal or the report could not be written (disk full, file removed): nothing more may be sent. */
  'outputFailed',
] as const;
export type StopReason = (typeof stopReasons)[number];

export const CredentialsProofSchema = z.object({
  /** Accounts in the --verify-credentials file. */
  checked: count,
  /** Accounts whose password matched their planned hash locally, before the push. */
  matchedLocally: count,
  /** Accounts not found among the planned password imports. */
  notPlanned: count,
  /** Accounts that signed in at the core after the push; null when none was tried, or the core offers no sign-in. */
  loggedIn: count.nullable(),
  /** Whether the sign-ins were tried (after a push that ran to its end), and whether the core offers /recipe/signin. */
  signIns: z.enum(['done', 'notOffered', 'notTried']),
});
export type CredentialsProof = z.infer<typeof CredentialsProofSchema>;

/** The proof in one sentence, the same in both faces. */
export function describeCredentialsProof(proof: CredentialsProof): string {
  const signIn =
    proof.signIns === 'done'
      ? `${proof.loggedIn ?? 0} of ${proof.checked} logged in at the core`
      : proof.signIns === 'notOffered'
        ? 'the core offers no /recipe/signin to prove log-ins'
        : 'no sign-in was tried (the push did not run to its end)';
  return `Known accounts: ${proof.matchedLocally} of ${proof.checked} matched their planned hash locally (${proof.notPlanned} not planned); ${signIn}.`;
}

/** What the steps after each creation did in this run (issue 13); not outcomes, so not part of the sum. */
export const StepCountsSchema = z.object({
  /** Users whose core id was mapped to their old id. */
  mapped: count,
  /** Password users whose email was verified, as in the source. */
  verified: count,
  metadataWritten: count,
  /** Linked accounts that became their own core user, reported with the old id beside them. */
  separateAccounts: count,
  /** Accounts disabled in the old system imported with `disabled: true` in their metadata. */
  disabledImported: count,
  /** Users an earlier run stopped between steps, finished by this one. */
  completedAfterResume: count,
  /** Roles given to users (one per user and role; a role the user held already counts too). */
  rolesAssigned: count,
  /** Roles this run created on the core before its first user. */
  rolesCreated: count,
});
export type StepCounts = z.infer<typeof StepCountsSchema>;

export function emptyStepCounts(): StepCounts {
  return { mapped: 0, verified: 0, metadataWritten: 0, separateAccounts: 0, disabledImported: 0, completedAfterResume: 0, rolesAssigned: 0, rolesCreated: 0 };
}

/**
 * What the roles step did, for both faces: one line of counts, then a sentence per existing role left with other
 * permissions and per role the core refused. Empty when the push gave no roles.
 */
export function describeRoles(summary: Pick<PushSummary, 'roles' | 'steps' | 'dryRun'>): string[] {
  const { roles } = summary;
  if (roles === undefined) return [];
  const created = summary.dryRun ? `${roles.created.length} would be created` : `${summary.steps?.rolesCreated ?? roles.created.length} created`;
  const updated = roles.updated.length > 0 ? ` (${roles.updated.length} given more permissions)` : '';
  const given = summary.dryRun ? '' : `, ${summary.steps?.rolesAssigned ?? 0} given to users`;
  return [
    `Roles: ${created}, ${roles.existing.length} already on the core${updated}${given}`,
    ...roles.differing,
    ...Object.entries(roles.refused).map(
      ([role, sentence]) => `The core refused the role "${role}" (${sentence}): no user got it; the report names each record.`,
    ),
  ];
}

/**
 * What a sync found, user by user (an old id is a user): each user of the newer export is new, changed, disabled,
 * unchanged or refused by the plan, and each user of the journal the export no longer has is deleted in source, so
 * these add up to the export's users plus the vanished ones. The kinds of change (password, email, ...) say what
 * changed; a user may have several, so they are not part of the sum.
 */
export const SyncCountsSchema = z.object({
  new: count,
  changed: count,
  disabled: count,
  unchanged: count,
  refused: count,
  deletedInSource: count,
  /** Users of the newer export plus those that vanished from it: the sum of the six above. */
  users: count,
  passwordChanged: count,
  /** Password users this migration created whose hash is sent again from the same exported credential (corrected hash parameters or wrappers). */
  passwordResent: count,
  emailChanged: count,
  /** Phone users whose number changed (their login: a change of it is not an email change). */
  phoneNumberChanged: count.default(0),
  verified: count,
  unverified: count,
  profileChanged: count,
  rolesChanged: count,
  accountsAdded: count,
  reEnabled: count,
  /** Of the deleted in source, removed from the core (--deleted remove, created by the migration). */
  removed: count,
  /**
   * Users waiting for their first login (`--login-time`) that the sync took out of the waiting store: disabled or gone
   * in the old system, or no longer parked (their newer hash is one the core imports).
   */
  leftLoginTimeStore: count.default(0),
});
export type SyncCounts = z.infer<typeof SyncCountsSchema>;

export function emptySyncCounts(): SyncCounts {
  return {
    new: 0,
    changed: 0,
    disabled: 0,
    unchanged: 0,
    refused: 0,
    deletedInSource: 0,
    users: 0,
    passwordChanged: 0,
    passwordResent: 0,
    emailChanged: 0,
    phoneNumberChanged: 0,
    verified: 0,
    unverified: 0,
    profileChanged: 0,
    rolesChanged: 0,
    accountsAdded: 0,
    reEnabled: 0,
    leftLoginTimeStore: 0,
    removed: 0,
  };
}

/** The delta of a sync in lines, the same in both faces: the users by what happened to them, then the kinds of change. */
export function describeSyncCounts(sync: SyncCounts): string[] {
  const sum = sync.new + sync.changed + sync.disabled + sync.unchanged + sync.refused + sync.deletedInSource;
  return [
    `Users: ${sync.new} new, ${sync.changed} changed, ${sync.disabled} disabled, ${sync.unchanged} unchanged, ${sync.refused} refused by the plan, ` +
      `${sync.deletedInSource} deleted in source = ${sum} of ${sync.users} users (the newer export's and the vanished ones)`,
    `Changes: ${sync.passwordChanged} password, ${sync.passwordResent} password re-sent, ${sync.emailChanged} email, ${sync.phoneNumberChanged} phone number, ${sync.verified} verified, ${sync.unverified} unverified, ` +
      `${sync.profileChanged} profile, ${sync.rolesChanged} roles, ${sync.accountsAdded} third-party accounts added, ${sync.reEnabled} re-enabled; ` +
      `${sync.removed} of the deleted in source removed from the core` +
      (sync.leftLoginTimeStore > 0 ? `; ${sync.leftLoginTimeStore} waiting for their first login left the store (disabled, gone or now importable)` : ''),
  ];
}

export const SyncForecastSchema = z.object({
  /** Users of the journal still in the core: an account created or left untouched, not removed since. */
  journalUsers: z.number().int().nonnegative(),
  /** Of those, the ones the newer export still has: the same old id, with the same email or password hash (`keepsAnAccount`). */
  recognised: z.number().int().nonnegative(),
  minOverlapPercent: z.number().int().min(0).max(100),
  /** Users the sync would remove (disabled in the export, or gone with --deleted remove; only those the migration created). */
  removals: z.number().int().nonnegative(),
  removalLimit: z.number().int().nonnegative(),
  /** Over the limit: the sync removes nobody and says how many it would have removed. */
  removalsWithheld: z.boolean(),
});
export type SyncForecast = z.infer<typeof SyncForecastSchema>;

export const PushSummarySchema = PushCountsSchema.extend({
  dryRun: z.boolean(),
  sync: SyncCountsSchema.optional(),
  /** A sync's first pass: how much of the journal the export still has, and the removals against their limit. */
  syncGuard: SyncForecastSchema.optional(),
  steps: StepCountsSchema.optional(),
  roles: RoleSetupSchema.optional(),
  stoppedEarly: z.object({ reason: z.enum(stopReasons), message: z.string() }).optional(),
  credentials: CredentialsProofSchema.optional(),
  /**
   * Requests sent again after an answer that was not final: a push-back (429, 503), a busy store (the in-memory store's
   * lock conflicts answer 500), a server error, a lost answer. Not outcomes: each operation still ends once.
   */
  retries: count,
  journalPath: z.string().optional(),
  reportPath: z.string().optional(),
  elapsedMs: z.number().nonnegative(),
});
export type PushSummary = z.infer<typeof PushSummarySchema>;

/**
 * What the identity steps did, for both faces: the steps that are not zero, of the users this run counted as created
 * or found (a user stopped between its steps counts when a resume finishes it). Undefined when there is nothing.
 */
export function describeSteps(summary: Pick<PushSummary, 'steps' | 'dryRun'>): string | undefined {
  const { steps } = summary;
  if (steps === undefined || summary.dryRun) return undefined;
  const parts = [
    [steps.mapped, 'mapped to their old id'],
    [steps.verified, 'emails verified'],
    [steps.metadataWritten, 'metadata written'],
    [steps.separateAccounts, 'separate accounts'],
    [steps.disabledImported, 'disabled imported'],
    [steps.completedAfterResume, 'completed after a stop'],
  ] as const;
  const shown = parts.filter(([count]) => count > 0).map(([count, words]) => `${count} ${words}`);
  return shown.length === 0 ? undefined : `Identity: ${shown.join(', ')}`;
}

/** The retries in one sentence, the same in both faces; undefined when nothing was sent again. */
export function describeRetries(summary: Pick<PushSummary, 'retries'>): string | undefined {
  if (summary.retries === 0) return undefined;
  return `Retries: ${summary.retries} request(s) sent again after a push-back, a busy store, a server error or a lost answer (each operation is counted once above).`;
}

export function emptyCounts(): PushCounts {
  return {
    imported: 0,
    alreadyExisted: 0,
    thirdPartyCreated: 0,
    thirdPartyExisting: 0,
    passwordlessCreated: 0,
    passwordlessExisting: 0,
    existingUntouched: 0,
    createdWithOtherHash: 0,
    parkedForLogin: 0,
    disabledSkipped: 0,
    rejected: 0,
    failed: 0,
    skipped: 0,
    notAttempted: 0,
    updated: 0,
    removed: 0,
    keptAsIs: 0,
    total: 0,
  };
}

export function addOutcome(counts: PushCounts, outcome: PushOutcome, by = 1): void {
  counts[outcome] += by;
  counts.total += by;
}

/** The plan's refusals by the outcome they end in (`plannedRejectionsOf`): a run that stops before reading them still counts them so. */
export type PlannedRejections = Pick<PushCounts, 'rejected' | 'disabledSkipped'>;

/** A plan's refusals: disabled accounts left out are their own outcome, every other refusal is "rejected by plan". */
export function plannedRejectionsOf(plan: Pick<PlanSummary, 'rejected' | 'identity'>): PlannedRejections {
  return { rejected: plan.rejected - plan.identity.disabledSkipped, disabledSkipped: plan.identity.disabledSkipped };
}

/**
 * Counts the operations of the plan a stopped run never read: those the plan refused as the plan ended them (never
 * sent, whatever the run does), the others as not attempted (a resume sends them).
 */
export function addUnread(counts: PushCounts, unread: number, planned: PlannedRejections | undefined): void {
  let left = unread;
  for (const outcome of ['rejected', 'disabledSkipped'] as const) {
    const owed = Math.min(left, Math.max(0, (planned?.[outcome] ?? 0) - counts[outcome]));
    addOutcome(counts, outcome, owed);
    left -= owed;
  }
  addOutcome(counts, 'notAttempted', left);
}

/** Operations that ended well: imported, already there, or done in an earlier run as this run would do them. */
export function allSucceeded(counts: PushCounts): boolean {
  return counts.rejected === 0 && counts.failed === 0 && counts.notAttempted === 0 && counts.createdWithOtherHash === 0;
}

/** The outcomes a summary shows: those that are not zero (the sum line and --json still say the total). */
export function outcomesShown(counts: PushCounts): PushOutcome[] {
  return pushOutcomes.filter((outcome) => counts[outcome] !== 0);
}

/** The sum line the summary shows, so an operator sees that nothing went missing: the outcomes that are not zero. */
export function formatCountsSum(counts: PushCounts): string {
  const parts = outcomesShown(counts).map((outcome) => `${counts[outcome]} ${outcomeLabels[outcome]}`);
  return parts.length === 0 ? `${counts.total} operations` : `${parts.join(' + ')} = ${counts.total} operations`;
}

export const outcomeLabels: Record<PushOutcome, string> = {
  imported: 'imported',
  alreadyExisted: 'already existed (hash replaced)',
  thirdPartyCreated: 'third-party created',
  thirdPartyExisting: 'third-party existing',
  passwordlessCreated: 'passwordless created',
  passwordlessExisting: 'passwordless existing',
  existingUntouched: 'existing, left untouched',
  createdWithOtherHash: 'created with another hash (for sync)',
  parkedForLogin: 'parked for login-time migration',
  disabledSkipped: 'disabled, not imported',
  rejected: 'rejected by plan',
  failed: 'failed at core',
  skipped: 'skipped (journal)',
  notAttempted: 'not attempted',
  updated: 'updated (sync)',
  removed: 'removed (sync)',
  keptAsIs: 'kept as is (sync)',
};
