import type { PasswordImportOperation, PasswordlessOperation, PlanItem, ThirdPartyOperation } from '../../../core-client/src/plan/operation.js';
import type { PlannedRecord } from '../../../core-client/src/plan/plan-source.js';

/** Small in-test plans, so the engine is tested without reading files. Hashes only need the right prefix here. */
export const FILE = 'users.ndjson';

export function bcryptOperation(line: number, email = `user${line}@example.com`): PasswordImportOperation {
  const filler = String(line).padStart(53, 'x').slice(-53);
  return {
    kind: 'passwordImport',
    operationKey: `${FILE}:L${line}#pw`,
    location: { file: FILE, line },
    email,
    family: 'bcrypt',
    body: { email, passwordHash: `$2a$04$${filler}` },
    exportedCredential: `$2a$04$${filler}`,
    warnings: [],
  };
}

export function scryptOperation(line: number, email = `scrypt${line}@example.com`): PasswordImportOperation {
  return {
    kind: 'passwordImport',
    operationKey: `${FILE}:L${line}#pw`,
    location: { file: FILE, line },
    email,
    family: 'vendor_scrypt',
    body: {
      email,
      passwordHash: `$f_scrypt$aGFzaC0ke${line}$c2FsdC0ke${line}$m=14$r=8$s=Bw==`,
      hashingAlgorithm: 'vendor_scrypt',
    },
    exportedCredential: `aGFzaC0ke${line}\nc2FsdC0ke${line}\n`,
    warnings: [],
  };
}

export function thirdPartyOperation(line: number, email = `social${line}@example.com`): ThirdPartyOperation {
  return {
    kind: 'thirdPartySignInUp',
    operationKey: `${FILE}:L${line}#tp:google`,
    location: { file: FILE, line },
    email,
    sourceProviderId: 'google.com',
    body: { thirdPartyId: 'google', thirdPartyUserId: `g-${line}`, email: { id: email, isVerified: true } },
  };
}

export function planRejection(line: number): PlanItem {
  return {
    kind: 'rejection',
    operationKey: `${FILE}:L${line}#pw`,
    location: { file: FILE, line },
    email: `broken${line}@example.com`,
    code: 'unusableHash',
    operation: 'passwordImport',
    reason: 'the password hash is not a complete BCrypt hash (60 characters expected)',
  };
}

/** A mixed plan: mostly bcrypt users, every 5th a third-party user, every 11th refused by the plan. */
export function mixedItems(count: number): PlanItem[] {
  const items: PlanItem[] = [];
  for (let line = 1; line <= count; line += 1) {
    if (line % 11 === 0) items.push(planRejection(line));
    else if (line % 5 === 0) items.push(thirdPartyOperation(line));
    else items.push(bcryptOperation(line));
  }
  return items;
}

/** One record per item, streamed. */
export async function* recordsOf(items: PlanItem[]): AsyncGenerator<PlannedRecord> {
  for (const item of items) yield { location: item.location, items: [item] };
}

/** A fast retry policy: no real waiting beyond a few ms (Retry-After is still honoured). */
export const fastRetry = { maxAttempts: 8, baseDelayMs: 1, maxDelayMs: 20, maxTotalMs: 20_000 };

/** A phone-number user (E.164, as the plan normalises it) with its old id, a profile and a role. */
export function phoneOperation(line: number, phoneNumber = `+1415555${String(line).padStart(4, '0')}`): PasswordlessOperation {
  return {
    kind: 'passwordlessSignInUp',
    operationKey: `${FILE}:L${line}#pl`,
    location: { file: FILE, line },
    body: { phoneNumber },
    identity: {
      sourceId: `old-${line}`,
      carriesSourceId: true,
      emailVerified: false,
      disabled: false,
      profile: { displayName: `P${line}` },
      roles: ['member'],
    },
  };
}

/** An email-link user: its email is its login. */
export function emailLinkOperation(line: number, email = `link${line}@example.com`): PasswordlessOperation {
  return {
    kind: 'passwordlessSignInUp',
    operationKey: `${FILE}:L${line}#pl`,
    location: { file: FILE, line },
    body: { email },
    email,
    identity: { sourceId: `old-${line}`, carriesSourceId: true, emailVerified: true, disabled: false, profile: { displayName: `E${line}` } },
  };
}
