import { z } from 'zod';
import { LegacyHashFamilySchema } from '../../hashes/legacy/registry.js';
import { optional } from '../../optional.js';
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
  'state',
  'lease_until',
  'parked_at',
  'core_user_id',
  'migrated_at',
] as const;

/** The columns a push writes (and rewrites while the user waits). */
export const parkedColumns = ['source_id', 'map_source_id', 'mapping_info', 'email_verified', 'metadata', 'roles', 'family', 'legacy_hash'] as const;

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
  family: LegacyHashFamilySchema,
  legacy_hash: z.string(),
  state: z.enum(waitingStates),
  parked_at: z.union([z.number(), z.string()]).transform(Number),
  core_user_id: optionalText,
  migrated_at: optionalTime,
});

/** A row as a driver answers it → the stored user. */
export function userOfRow(row: unknown): StoredWaitingUser {
  const parsed = RowSchema.parse(row);
  return {
    email: parsed.email,
    ...optional('sourceId', parsed.source_id),
    mapSourceId: parsed.map_source_id,
    ...optional('mappingInfo', parsed.mapping_info),
    emailVerified: parsed.email_verified,
    ...optional('metadata', parsed.metadata),
    ...optional('roles', parsed.roles),
    family: parsed.family,
    legacyHash: parsed.legacy_hash,
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
    user.family,
    user.legacyHash,
  ];
}
