import { z } from 'zod';
import { OldSystemKindSchema } from '../choices.js';
import { formatLocation } from '../location.js';
import { metadataOf } from './metadata.js';
import { passwordlessLogin, rejectionCodes, type PlanItem, type RejectionCode } from './operation.js';
import type { PlannedRecord } from './plan-source.js';
import { emptyPlanRoles, PlanRolesSchema, tallyCandidates, tallyOperationRoles } from '../roles/plan-roles.js';

const EXAMPLES_PER_REASON = 3;
/** The summary lists rejections for the screen and --json; the report file holds every one of them. */
export const LISTED_REJECTIONS_LIMIT = 10_000;

export const PlanSummarySchema = z.object({
  records: z.number(),
  operations: z.number(),
  passwordImports: z.number(),
  thirdPartySignInUps: z.number(),
  /** Users who sign in with a code sent to their phone or email: created as the core's passwordless users. */
  passwordlessSignInUps: z.number(),
  passwordlessByLogin: z.object({ phone: z.number(), email: z.number() }),
  byFamily: z.object({ bcrypt: z.number(), argon2: z.number(), vendor_scrypt: z.number() }),
  byProvider: z.record(z.string(), z.number()),
  strippedByRule: z.record(z.string(), z.number()),
  warnings: z.record(z.string(), z.number()),
  rejected: z.number(),
  rejectionsByCode: z.array(
    z.object({
      code: z.enum(rejectionCodes),
      count: z.number(),
      examples: z.array(z.object({ location: z.string(), reason: z.string() })),
    }),
  ),
  rejections: z.array(z.object({ location: z.string(), reason: z.string(), code: z.enum(rejectionCodes) })),
  rejectionsNotListed: z.number(),
  duplicates: z.number(),
  withoutCredentials: z.number(),
  /** Export provider ids that have no short name, with how many accounts each holds: the provider map fixes them. */
  unmappedProviders: z.record(z.string(), z.number()),
  /** What the identity steps after each creation will have to do (they decide which core features a push needs). */
  identity: z.object({
    /** Operations whose account carries the old id (a mapping each). */
    keepsSourceId: z.number(),
    /** Password imports whose email the source marks verified (a verification each). */
    verifiedEmails: z.number(),
    /**
     * Operations whose user metadata the push writes (`metadataOf`: the profile, where the user came from, the disabled
     * flag): one write each, the number the push counts as "metadata written".
     */
    withMetadata: z.number(),
    /** Accounts of another account's record: separate core users, reported with the old id. */
    separateAccounts: z.number(),
    disabledSkipped: z.number(),
    disabledImported: z.number(),
  }),
  /** Roles found in the records, and with `--roles-from` those the push gives (issue 21). */
  roles: PlanRolesSchema,
  /**
   * With a login-time migration (`--login-time`): the users parked for their first login, by how each will be checked:
   * by legacy family (the family's id, e.g. `django_pbkdf2_sha256`), or by the old system asked (`--verify-with`: its
   * kind, e.g. `cognito`). Absent when the plan parks none.
   */
  loginTime: z
    .object({ parked: z.number(), byFamily: z.record(z.string(), z.number()), byOldSystem: z.partialRecord(OldSystemKindSchema, z.number()).optional() })
    .optional(),
});
export type PlanSummary = z.infer<typeof PlanSummarySchema>;

/** Counts a plan as it streams by, in memory that does not grow with the number of records. */
export class PlanTally {
  #summary: PlanSummary = {
    records: 0,
    operations: 0,
    passwordImports: 0,
    thirdPartySignInUps: 0,
    passwordlessSignInUps: 0,
    passwordlessByLogin: { phone: 0, email: 0 },
    byFamily: { bcrypt: 0, argon2: 0, vendor_scrypt: 0 },
    byProvider: {},
    strippedByRule: {},
    warnings: {},
    rejected: 0,
    rejectionsByCode: [],
    rejections: [],
    rejectionsNotListed: 0,
    duplicates: 0,
    withoutCredentials: 0,
    unmappedProviders: {},
    identity: { keepsSourceId: 0, verifiedEmails: 0, withMetadata: 0, separateAccounts: 0, disabledSkipped: 0, disabledImported: 0 },
    roles: emptyPlanRoles(),
  };

  /** With `--roles-from`: where the roles are read from, shown beside what was found. */
  constructor(rolesFrom?: string) {
    if (rolesFrom !== undefined) this.#summary.roles.from = rolesFrom;
  }

  addRecord(record: PlannedRecord): void {
    this.#summary.records += 1;
    if (record.rolesFound !== undefined) tallyCandidates(this.#summary.roles, record.rolesFound);
    let unreadableRoles = false;
    for (const item of record.items) {
      this.#addItem(item);
      if (item.kind !== 'rejection' && item.identity?.unreadableRoles !== undefined) unreadableRoles = true;
    }
    if (unreadableRoles) this.#summary.roles.unreadable += 1;
  }

  get records(): number {
    return this.#summary.records;
  }

  summary(): PlanSummary {
    return structuredClone(this.#summary);
  }

  #addItem(item: PlanItem): void {
    const summary = this.#summary;
    summary.operations += 1;
    if (item.kind !== 'rejection' && item.identity !== undefined) {
      const { identity } = item;
      if (identity.carriesSourceId) summary.identity.keepsSourceId += 1;
      else if (identity.sourceId !== undefined) summary.identity.separateAccounts += 1;
      if (identity.emailVerified && item.kind === 'passwordImport') summary.identity.verifiedEmails += 1;
      if (metadataOf(identity) !== undefined) summary.identity.withMetadata += 1;
      if (identity.disabled) summary.identity.disabledImported += 1;
      if (identity.roles !== undefined) tallyOperationRoles(summary.roles, identity.roles, identity.unknownRoles ?? []);
    }
    switch (item.kind) {
      case 'passwordImport':
        summary.passwordImports += 1;
        summary.byFamily[item.family] += 1;
        if (item.strippedBy !== undefined) increment(summary.strippedByRule, item.strippedBy);
        for (const warning of item.warnings) increment(summary.warnings, warning);
        return;
      case 'thirdPartySignInUp':
        summary.thirdPartySignInUps += 1;
        increment(summary.byProvider, item.body.thirdPartyId);
        return;
      case 'passwordlessSignInUp':
        summary.passwordlessSignInUps += 1;
        summary.passwordlessByLogin[passwordlessLogin(item).kind] += 1;
        return;
      case 'loginTimeWait': {
        const loginTime = (summary.loginTime ??= { parked: 0, byFamily: {} });
        loginTime.parked += 1;
        if ('oldSystem' in item) {
          const byOldSystem = (loginTime.byOldSystem ??= {});
          byOldSystem[item.oldSystem] = (byOldSystem[item.oldSystem] ?? 0) + 1;
        } else increment(loginTime.byFamily, item.family);
        return;
      }
      case 'rejection': {
        summary.rejected += 1;
        if (duplicateCodes.has(item.code)) summary.duplicates += 1;
        if (item.code === 'withoutCredentials') summary.withoutCredentials += 1;
        if (item.code === 'disabledAccount') summary.identity.disabledSkipped += 1;
        if (item.code === 'unmappedProvider' && item.providerId !== undefined) increment(summary.unmappedProviders, item.providerId);
        const listed = { location: formatLocation(item.location), reason: item.reason };
        let group = summary.rejectionsByCode.find((entry) => entry.code === item.code);
        if (group === undefined) {
          group = { code: item.code, count: 0, examples: [] };
          summary.rejectionsByCode.push(group);
        }
        group.count += 1;
        if (group.examples.length < EXAMPLES_PER_REASON) group.examples.push(listed);
        if (summary.rejections.length < LISTED_REJECTIONS_LIMIT) summary.rejections.push({ ...listed, code: item.code });
        else summary.rejectionsNotListed += 1;
      }
    }
  }
}

const duplicateCodes = new Set<RejectionCode>(['duplicateEmail', 'duplicateThirdPartyUser', 'duplicateSourceId', 'duplicatePhoneNumber']);

function increment(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}
