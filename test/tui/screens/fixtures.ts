import type { PlanSummary } from '../../../core-client/src/plan/summary.js';
import type { PushSummary } from '../../../core-client/src/push/summary.js';

/** A plan as the tally would summarise a small mixed export. */
export function planSummary(overrides: Partial<PlanSummary> = {}): PlanSummary {
  return {
    records: 14,
    operations: 16,
    passwordImports: 7,
    thirdPartySignInUps: 4,
    byFamily: { bcrypt: 2, argon2: 2, vendor_scrypt: 3 },
    byProvider: { google: 2, github: 2 },
    strippedByRule: { 'django bcrypt$': 1 },
    warnings: {},
    rejected: 5,
    rejectionsByCode: [
      { code: 'unusableHash', count: 1, examples: [{ location: 'users.json, record #9', reason: 'malformed BCrypt hash: it has 30 characters' }] },
      { code: 'duplicateEmail', count: 1, examples: [{ location: 'users.json, record #13', reason: 'duplicate of users.json, record #0' }] },
      { code: 'withoutCredentials', count: 1, examples: [{ location: 'users.json, record #12', reason: 'neither a hash nor a provider' }] },
      { code: 'invalidEmail', count: 1, examples: [{ location: 'users.json, record #11', reason: 'not an email address' }] },
      { code: 'unsupportedHashFamily', count: 1, examples: [{ location: 'users.json, record #10', reason: 'unsupported family: MD5' }] },
    ],
    rejections: [],
    rejectionsNotListed: 0,
    duplicates: 1,
    withoutCredentials: 1,
    identity: { keepsSourceId: 0, verifiedEmails: 0, withProfile: 0, separateAccounts: 0, disabledSkipped: 0, disabledImported: 0 },
    ...overrides,
  };
}

export function pushSummary(overrides: Partial<PushSummary> = {}): PushSummary {
  return {
    imported: 7,
    alreadyExisted: 0,
    thirdPartyCreated: 4,
    thirdPartyExisting: 0,
    existingUntouched: 0,
    disabledSkipped: 0,
    rejected: 5,
    failed: 0,
    skipped: 0,
    notAttempted: 0,
    total: 16,
    dryRun: false,
    elapsedMs: 120,
    journalPath: '/tmp/walk/journal.ndjson',
    reportPath: '/tmp/walk/report.ndjson',
    ...overrides,
  };
}
