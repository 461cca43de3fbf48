/**
 * Better Auth's tables as its adapters make them (its "core schema", and the columns its plugins add): its own
 * adapter names columns as the fields (`emailVerified`), Drizzle and Prisma schemas often in snake_case
 * (`email_verified`), and `usePlural` names the tables `users` and `accounts`. Which is there is asked of the database
 * before any row is read, so a column a plugin did not add is read as absent and a missing required one is named.
 */

interface ColumnSpec {
  /** The names an adapter gives the field, the field's own first. */
  names: readonly string[];
  required: boolean;
}

const column = (names: readonly string[], required = false): ColumnSpec => ({ names, required });

export const USER_COLUMNS = {
  id: column(['id'], true),
  email: column(['email'], true),
  emailVerified: column(['emailVerified', 'email_verified'], true),
  name: column(['name']),
  image: column(['image']),
  createdAt: column(['createdAt', 'created_at']),
  // the admin plugin
  role: column(['role']),
  banned: column(['banned']),
  banExpires: column(['banExpires', 'ban_expires']),
  // the username plugin
  username: column(['username']),
  displayUsername: column(['displayUsername', 'display_username']),
  // the phone-number plugin
  phoneNumber: column(['phoneNumber', 'phone_number']),
  phoneNumberVerified: column(['phoneNumberVerified', 'phone_number_verified']),
  // the anonymous plugin
  isAnonymous: column(['isAnonymous', 'is_anonymous']),
} as const satisfies Record<string, ColumnSpec>;

export const ACCOUNT_COLUMNS = {
  userId: column(['userId', 'user_id'], true),
  providerId: column(['providerId', 'provider_id'], true),
  accountId: column(['accountId', 'account_id'], true),
  password: column(['password'], true),
} as const satisfies Record<string, ColumnSpec>;

export type UserField = keyof typeof USER_COLUMNS;
export type AccountField = keyof typeof ACCOUNT_COLUMNS;

/** The tables by the names Better Auth gives them, singular (its default) or plural (`usePlural`). */
export const TABLE_NAMES = { user: ['user', 'users'], account: ['account', 'accounts'] } as const;

/** A table's fields resolved to the columns it has (undefined: an optional one it lacks). */
export interface ResolvedColumns<Field extends string> {
  table: string;
  columns: Record<Field, string | undefined>;
}

/** The fields of `spec` as `table` names them, or the sentence naming every required one it lacks. */
export function resolveColumns<Field extends string>(
  table: string,
  present: ReadonlySet<string>,
  spec: Readonly<Record<Field, ColumnSpec>>,
): ResolvedColumns<Field> | string {
  const columns = {} as Record<Field, string | undefined>;
  const missing: string[] = [];
  for (const field of Object.keys(spec) as Field[]) {
    const { names, required } = spec[field];
    const found = names.find((name) => present.has(name));
    columns[field] = found;
    if (found === undefined && required) missing.push(names.map((name) => `"${name}"`).join(' or '));
  }
  if (missing.length === 0) return { table, columns };
  const list = missing.length === 1 ? `column ${missing[0] ?? ''}` : `columns ${missing.slice(0, -1).join(', ')} and ${missing[missing.length - 1] ?? ''}`;
  return `the table "${table}" has no ${list}, which core-migrate needs to read Better Auth's users: is it Better Auth's ${table} table?`;
}

/** `"column" AS "field"` for each field, `NULL AS "field"` for one the table lacks; the rows then have the fields' names. */
export function selectList<Field extends string>(alias: string, resolved: ResolvedColumns<Field>): string[] {
  return (Object.keys(resolved.columns) as Field[]).map((field) => {
    const name = resolved.columns[field];
    return name === undefined ? `NULL AS "${field}"` : `${alias}."${name}" AS "${field}"`;
  });
}

/** The column a field of either table is read from, for a message naming it; the field itself when none. */
export function columnName(field: string, users: ResolvedColumns<UserField>, accounts: ResolvedColumns<AccountField>): string {
  const names: Readonly<Record<string, string | undefined>> = { ...accounts.columns, ...users.columns };
  return names[field] ?? field;
}

/** The provider id Better Auth gives an email-and-password account; every other is a third-party (social) account. */
export const CREDENTIAL_PROVIDER = 'credential';
