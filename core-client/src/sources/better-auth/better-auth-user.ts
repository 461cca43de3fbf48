import type { RecordLocation } from '../../location.js';
import { optional, optionalFrom } from '../../optional.js';
import { booleanOf, jsonListOf, RowFieldProblem, textIn, textOf, timeOf } from '../database/row-values.js';
import { dropUndefined } from '../generic/generic-record.js';
import type { LinkedProvider, SourceRecord, SourceUser } from '../source-user.js';
import { CREDENTIAL_PROVIDER } from './better-auth-schema.js';

/** The row's field holding the user's accounts, one JSON list gathered from the account table. */
export const ACCOUNTS_FIELD = 'accounts';

export interface BetterAuthRowContext {
  location: RecordLocation;
  /** When the rows were read: a ban whose end (`banExpires`) is later still holds. */
  asOfMs: number;
  /** The table's column for a field, for a message naming what is wrong (`email_verified`, or the field itself). */
  columnOf: (field: string) => string;
}

interface Accounts {
  password: string | undefined;
  providers: LinkedProvider[];
}

function accountsOf(list: readonly unknown[], columnOf: (field: string) => string): Accounts {
  let password: string | undefined;
  const providers: LinkedProvider[] = [];
  list.forEach((entry, position) => {
    const field = `${ACCOUNTS_FIELD}[${position}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new RowFieldProblem(field, 'must be an account');
    const account = entry as Record<string, unknown>;
    const providerId = textIn(account, 'providerId');
    if (providerId === undefined) throw new RowFieldProblem(`${field}.${columnOf('providerId')}`, 'the account has no provider');
    if (providerId === CREDENTIAL_PROVIDER) {
      // One email-and-password account per user; a second one would be a copy of the first.
      password ??= textIn(account, 'password');
      return;
    }
    const accountId = textIn(account, 'accountId');
    if (accountId === undefined) throw new RowFieldProblem(`${field}.${columnOf('accountId')}`, `the ${providerId} account has no account id`);
    providers.push({ providerId, providerUserId: accountId });
  });
  return { password, providers };
}

/**
 * One Better Auth user (its `user` row, with its `account` rows gathered) as the plan reads every user: the
 * `credential` account's password (Better Auth's scrypt, verified at login; a bcrypt or Argon2 hash an app made with its
 * own `password.hash` is imported), the other accounts as third-party accounts (`providerId`, `accountId`), a verified
 * phone number (the phone-number plugin) as the login of a user with nothing else to sign in with, the admin plugin's
 * role as its roles and its ban as a disabled account, and an anonymous user marked so.
 */
export function betterAuthUser(row: Readonly<Record<string, unknown>>, context: BetterAuthRowContext): SourceRecord {
  const { location, columnOf } = context;
  let id: string | undefined;
  try {
    id = textOf(row, 'id');
    if (id === undefined) throw new RowFieldProblem('id', 'the user has no id');
    const email = textOf(row, 'email');
    const list = jsonListOf(row, ACCOUNTS_FIELD) ?? [];
    const { password, providers } = accountsOf(list, columnOf);
    const phone = textOf(row, 'phoneNumber');
    const phoneIsLogin = phone !== undefined && booleanOf(row, 'phoneNumberVerified') === true && password === undefined && providers.length === 0;
    const banExpires = timeOf(row, 'banExpires');
    const banned = booleanOf(row, 'banned') === true && (banExpires === undefined || Date.parse(banExpires) > context.asOfMs);
    const profile = dropUndefined({
      displayName: textOf(row, 'name'),
      photoUrl: textOf(row, 'image'),
      signedUpAt: timeOf(row, 'createdAt'),
      phoneNumber: phone,
      username: textOf(row, 'username'),
      displayUsername: textOf(row, 'displayUsername'),
    });
    const user: SourceUser = {
      kind: 'user',
      location,
      sourceId: id,
      system: 'better-auth',
      ...dropUndefined({
        email,
        emailVerified: booleanOf(row, 'emailVerified') === true,
        passwordHash: password,
        disabled: banned ? true : undefined,
        disabledBecause: banned ? (banExpires === undefined ? 'banned' : `banned until ${banExpires}`) : undefined,
        anonymous: booleanOf(row, 'isAnonymous') === true ? true : undefined,
        roles: textOf(row, 'role'),
      }),
      ...(Object.keys(profile).length === 0 ? {} : { profile }),
      providers,
      ...optional('phoneNumber', phoneIsLogin ? phone : undefined),
      // Better Auth keeps a password only in a credential account: an email without one signs in another way.
      ...optionalFrom('signsInByEmailCode', email, () => password === undefined),
    };
    return user;
  } catch (error) {
    if (!(error instanceof RowFieldProblem)) throw error;
    const field = error.field.includes('[') ? error.field : columnOf(error.field);
    return { kind: 'malformed', location: { ...location, field }, ...optional('sourceId', id), reason: `field "${field}": ${error.reason}` };
  }
}
