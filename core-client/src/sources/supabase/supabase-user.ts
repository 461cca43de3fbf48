import type { RecordLocation } from '../../location.js';
import { optional, optionalFrom } from '../../optional.js';
import { booleanOf, jsonListOf, jsonObjectOf, RowFieldProblem, textIn, textOf, timeOf } from '../database/row-values.js';
import { dropUndefined } from '../generic/generic-record.js';
import type { LinkedProvider, SourceRecord, SourceUser } from '../source-user.js';

/**
 * The columns of Supabase's `auth.users` read here (Supabase Auth, formerly GoTrue; its migrations add `phone`,
 * `banned_until`, `is_sso_user`, `deleted_at` and `is_anonymous` over the years), and the `identities` of each user
 * from `auth.identities`, gathered into one list per user.
 */
export const SUPABASE_REQUIRED_COLUMNS = ['id', 'email', 'encrypted_password', 'email_confirmed_at', 'raw_app_meta_data', 'raw_user_meta_data'] as const;
export const SUPABASE_OPTIONAL_COLUMNS = [
  'phone',
  'phone_confirmed_at',
  'banned_until',
  'deleted_at',
  'is_anonymous',
  'is_sso_user',
  'created_at',
  'last_sign_in_at',
] as const;
/** Columns that only Supabase's rows have: a record with neither is another system's. */
const SUPABASE_OWN_COLUMNS = ['encrypted_password', 'raw_app_meta_data'] as const;
/** The column a file of the rows carries the user's `auth.identities` in (docs/exports.md gives the query). */
export const IDENTITIES_COLUMN = 'identities';

/** Providers of Supabase's own logins: its identities of these are no third-party accounts. */
const OWN_PROVIDERS = new Set(['email', 'phone', 'anonymous']);

/** Supabase Auth keeps phone numbers in E.164 without the plus (`14155550123`). */
function phoneLogin(phone: string): string {
  return /^\d+$/.test(phone.trim()) ? `+${phone.trim()}` : phone;
}

function identitiesOf(list: readonly unknown[]): LinkedProvider[] {
  const providers: LinkedProvider[] = [];
  list.forEach((entry, position) => {
    const field = `${IDENTITIES_COLUMN}[${position}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new RowFieldProblem(field, 'must be an object with a "provider"');
    const identity = entry as Record<string, unknown>;
    const provider = textIn(identity, 'provider');
    if (provider === undefined) throw new RowFieldProblem(field, 'has no "provider"');
    if (OWN_PROVIDERS.has(provider)) return;
    const data =
      typeof identity['identity_data'] === 'object' && identity['identity_data'] !== null ? (identity['identity_data'] as Record<string, unknown>) : {};
    const providerUserId = textIn(identity, 'provider_id') ?? textIn(data, 'sub');
    if (providerUserId === undefined) throw new RowFieldProblem(field, `the ${provider} identity has neither "provider_id" nor "identity_data.sub"`);
    providers.push({ providerId: provider, providerUserId, ...optional('email', textIn(data, 'email')) });
  });
  return providers;
}

/** The third-party providers `raw_app_meta_data.providers` names: a file without identities cannot link them. */
function namedThirdParties(appMetadata: Readonly<Record<string, unknown>> | undefined): string[] {
  const named = appMetadata?.['providers'];
  if (!Array.isArray(named)) return [];
  return named.filter((provider): provider is string => typeof provider === 'string' && !OWN_PROVIDERS.has(provider));
}

function isBefore(time: string | undefined, asOfMs: number): boolean {
  return time !== undefined && Date.parse(time) > asOfMs;
}

export interface SupabaseRowContext {
  location: RecordLocation;
  /** When the rows were read (the transaction's time, or a file's time): a ban that ends later still holds. */
  asOfMs: number;
  /** Whether the rows carry their identities (a database always; a file when its query added the column). */
  withIdentities: boolean;
}

/**
 * One `auth.users` row as the plan reads every user. Its id, email and verified state, its bcrypt hash (imported as
 * it is), its third-party accounts from its identities, its phone login when it has nothing else to sign in with,
 * its profile and metadata; a ban that has not ended and a deletion keep it shut, an anonymous user is marked so.
 */
export function supabaseUser(row: Readonly<Record<string, unknown>>, context: SupabaseRowContext): SourceRecord {
  const { location } = context;
  let id: string | undefined;
  try {
    if (!SUPABASE_OWN_COLUMNS.some((column) => Object.hasOwn(row, column))) {
      return {
        kind: 'malformed',
        location,
        reason: `not a row of Supabase's auth.users: it has neither ${SUPABASE_OWN_COLUMNS.join(' nor ')} (an export of another system? name its format with --format)`,
      };
    }
    const missing = SUPABASE_REQUIRED_COLUMNS.filter((column) => !Object.hasOwn(row, column));
    const [first] = missing;
    if (first !== undefined) throw new RowFieldProblem(first, `the row has no "${first}" (every auth.users row has ${SUPABASE_REQUIRED_COLUMNS.join(', ')})`);
    id = textOf(row, 'id');
    if (id === undefined) throw new RowFieldProblem('id', 'the user has no id');
    const email = textOf(row, 'email');
    const appMetadata = jsonObjectOf(row, 'raw_app_meta_data');
    const userMetadata = jsonObjectOf(row, 'raw_user_meta_data');
    const list = jsonListOf(row, IDENTITIES_COLUMN);
    const providers = list === undefined ? [] : identitiesOf(list);
    if (!context.withIdentities) {
      const unlinked = namedThirdParties(appMetadata);
      if (unlinked.length > 0) {
        throw new RowFieldProblem(
          IDENTITIES_COLUMN,
          `the user signs in with ${unlinked.join(', ')}, whose account ids are in auth.identities, which this file does not hold: export the rows with their identities (docs/exports.md, Supabase)`,
        );
      }
    }
    const phone = textOf(row, 'phone');
    const phoneConfirmed = timeOf(row, 'phone_confirmed_at') !== undefined;
    const bannedUntil = timeOf(row, 'banned_until');
    const deletedAt = timeOf(row, 'deleted_at');
    const banned = isBefore(bannedUntil, context.asOfMs);
    // The core's password users sign in by email: a phone-and-password user without one signs in by its phone.
    const passwordHash = email === undefined ? undefined : textOf(row, 'encrypted_password');
    const phoneIsLogin = phone !== undefined && phoneConfirmed && email === undefined && providers.length === 0;
    const profile = dropUndefined({
      displayName: textOf(userMetadata ?? {}, 'full_name') ?? textOf(userMetadata ?? {}, 'name'),
      photoUrl: textOf(userMetadata ?? {}, 'avatar_url') ?? textOf(userMetadata ?? {}, 'picture'),
      signedUpAt: timeOf(row, 'created_at'),
      lastSignedInAt: timeOf(row, 'last_sign_in_at'),
      phoneNumber: phone,
      userMetadata,
      appMetadata,
    });
    const user: SourceUser = {
      kind: 'user',
      location,
      sourceId: id,
      system: 'supabase',
      ...dropUndefined({
        email,
        emailVerified: email === undefined ? undefined : timeOf(row, 'email_confirmed_at') !== undefined,
        passwordHash,
        disabled: banned || deletedAt !== undefined ? true : undefined,
        disabledBecause: deletedAt !== undefined ? `deleted_at ${deletedAt}` : banned ? `banned until ${bannedUntil ?? ''}` : undefined,
        deleted: deletedAt !== undefined ? true : undefined,
        anonymous: booleanOf(row, 'is_anonymous') === true ? true : undefined,
      }),
      ...(Object.keys(profile).length === 0 ? {} : { profile }),
      providers,
      ...optional('phoneNumber', phoneIsLogin ? phoneLogin(phone) : undefined),
      // Supabase keeps no password it did not hash: an email without one signs in by a link or a code.
      ...optionalFrom('signsInByEmailCode', email, () => passwordHash === undefined),
    };
    // An SSO user signs in through its `sso:<provider>` identity (refused unless mapped, `--provider-map`), never by email.
    if (booleanOf(row, 'is_sso_user') === true && providers.length === 0) {
      throw new RowFieldProblem(IDENTITIES_COLUMN, 'the user signs in through single sign-on, but it has no sso: identity to link');
    }
    return user;
  } catch (error) {
    if (!(error instanceof RowFieldProblem)) throw error;
    return { kind: 'malformed', location: { ...location, field: error.field }, ...optional('sourceId', id), reason: error.message };
  }
}
