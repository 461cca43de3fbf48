import { z } from 'zod';
import { LegacyHashFamilySchema } from '../../hashes/legacy/registry.js';
import { OldSystemKindSchema } from '../../choices.js';
import { optional } from '../../optional.js';
import type { LoginCheck } from '../../plan/operation.js';
import { waitingStates, type ParkedUser, type StoredWaitingUser } from './waiting-user.js';

/**
 * The one table of a waiting store, the same in SQLite and PostgreSQL. A migrated user's hash is erased: from then on
 * the core holds the password, and the store keeps only who arrived and when.
 */
export const WAITING_TABLE = 'core_migrate_waiting_users';

export const tableColumns = [
  'email',
  'source_id',
  'map_source_id',
  'mapping_info',
  'email_verified',
  'metadata',
  'roles',
  'family',
  'legacy_hash',
  'checked_by',
  'state',
  'lease_until',
  'parked_at',
  'core_user_id',
  'migrated_at',
] as const;

/** The columns a push writes (and rewrites while the user waits). */
export const parkedColumns = [
  'source_id',
  'map_source_id',
  'mapping_info',
  'email_verified',
  'metadata',
  'roles',
  'family',
  'legacy_hash',
  'checked_by',
] as const;

/** `checked_by`: who checks the user's password at its first sign-in, the legacy hash in the row or an old system. */
const LEGACY_HASH = 'legacyHash';

/**
 * The version of the table's shape the code reads and writes; a store records the version it was brought to (SQLite
 * `PRAGMA user_version`, PostgreSQL `STORE_VERSION_TABLE`). A store of a later version (a newer core-migrate's) is
 * refused rather than misread; an earlier one is brought up by the steps below, in order, once.
 * 1: the first table. 2: `checked_by`, as users without a usable hash are checked by the old system.
 */
export const STORE_SCHEMA_VERSION = 2;
export const STORE_VERSION_TABLE = 'core_migrate_waiting_store_version';
export const schemaUpgrades: ReadonlyArray<{ version: number; column: string; definition: string }> = [
  { version: 2, column: 'checked_by', definition: `TEXT NOT NULL DEFAULT '${LEGACY_HASH}'` },
];

/** The words a store of a later version is refused with. */
export function laterVersionReason(location: string, version: number): string {
  return `the waiting store ${location} is of version ${version}, written by a newer core-migrate (this one reads up to ${STORE_SCHEMA_VERSION}): use that one`;
}

const flag = z.union([z.boolean(), z.number()]).transform((value) => value === true || value === 1);
const optionalText = z
  .string()
  .nullable()
  .transform((value) => value ?? undefined);
/** PostgreSQL answers a BIGINT as text; SQLite as a number. */
const optionalTime = z
  .union([z.number(), z.string()])
  .nullable()
  .transform((value) => (value === null ? undefined : Number(value)));
const jsonText = <T extends z.ZodType>(schema: T) =>
  z
    .string()
    .nullable()
    .transform((text) => (text === null ? undefined : schema.parse(JSON.parse(text))));

const RowSchema = z.object({
  email: z.string(),
  source_id: optionalText,
  map_source_id: flag,
  mapping_info: optionalText,
  email_verified: flag,
  metadata: jsonText(z.record(z.string(), z.unknown())),
  roles: jsonText(z.array(z.string())),
  /** Empty for a user the old system checks. */
  family: z.union([LegacyHashFamilySchema, z.literal('')]),
  legacy_hash: z.string(),
  checked_by: z.union([z.literal(LEGACY_HASH), OldSystemKindSchema]),
  state: z.enum(waitingStates),
  parked_at: z.union([z.number(), z.string()]).transform(Number),
  core_user_id: optionalText,
  migrated_at: optionalTime,
});

/** A row as a driver answers it → the stored user. */
export function userOfRow(row: unknown): StoredWaitingUser {
  const parsed = RowSchema.parse(row);
  const check: LoginCheck =
    parsed.checked_by === LEGACY_HASH
      ? { family: LegacyHashFamilySchema.parse(parsed.family), legacyHash: parsed.legacy_hash }
      : { oldSystem: parsed.checked_by };
  return {
    email: parsed.email,
    ...optional('sourceId', parsed.source_id),
    mapSourceId: parsed.map_source_id,
    ...optional('mappingInfo', parsed.mapping_info),
    emailVerified: parsed.email_verified,
    ...optional('metadata', parsed.metadata),
    ...optional('roles', parsed.roles),
    ...check,
    state: parsed.state,
    parkedAt: parsed.parked_at,
    ...optional('coreUserId', parsed.core_user_id),
    ...optional('migratedAt', parsed.migrated_at),
  };
}

/** The values of `parkedColumns`, in order, with booleans as the driver takes them (SQLite has none: 0/1). */
export function parkedValues<Bool>(user: ParkedUser, bool: (value: boolean) => Bool): Array<string | Bool | null> {
  return [
    user.sourceId ?? null,
    bool(user.mapSourceId),
    user.mappingInfo ?? null,
    bool(user.emailVerified),
    user.metadata === undefined ? null : JSON.stringify(user.metadata),
    user.roles === undefined ? null : JSON.stringify(user.roles),
    ...('oldSystem' in user ? ['', '', user.oldSystem] : [user.family, user.legacyHash, LEGACY_HASH]),
  ];
}
