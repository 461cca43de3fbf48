import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { VENDOR_SCRYPT_VECTOR } from '../../core-double/known-hashes.js';
import { makeVendorScryptHash } from '../../support/vendor-scrypt-maker.js';
import { REAL_CORE_SIGNER_KEY } from './real-core.js';

interface OldProfile {
  oldId: string;
  email: string;
  verified: boolean;
  name: string;
  disabled?: boolean;
}
/** A user who signs in with a password: the export carries its hash, the test knows the password. */
export type PasswordUser = OldProfile & { password: string };
/** A user who signs in with Google only (its id there): the export carries no password. */
export type GoogleUser = OldProfile & { googleId: string };
/** A user of an old system as a test knows it: what it exported, and how it signs in. */
export type OldUser = PasswordUser | GoogleUser;

export const isPasswordUser = (user: OldUser): user is PasswordUser => 'password' in user;

/**
 * `count` verified password users with a name, then an unverified one, a Google-only one and a disabled one: what a
 * first migration meets.
 */
export function oldUsers(prefix: string, count: number): OldUser[] {
  const users: OldUser[] = [];
  for (let index = 1; index <= count; index += 1) {
    users.push({ oldId: `${prefix}-u${index}`, email: `user${index}@example.com`, password: `pw-${index}-old`, verified: true, name: `User ${index}` });
  }
  users.push({ oldId: `${prefix}-unverified`, email: 'unverified@example.com', password: 'pw-unverified', verified: false, name: 'Una Verified' });
  users.push({ oldId: `${prefix}-google`, email: 'gus@example.com', googleId: 'g-gus', verified: true, name: 'Gus Google' });
  users.push({ oldId: `${prefix}-disabled`, email: 'disabled@example.com', password: 'pw-disabled', verified: true, name: 'Dis Abled', disabled: true });
  return users;
}

/** What `plan`, `push` and `sync` are given to read an export: its file (relative to the run's folder), then flags. */
export type ExportArguments = [file: string, ...flags: string[]];

/**
 * The scrypt variant's parameters of the suite: the vendor's signer key and separator, with a memory cost and rounds
 * far below the vendor's (14, 8) so each verification is cheap, yet inside what the core and core-migrate accept.
 */
export interface ScryptParameters {
  signerKey: string;
  saltSeparator: string;
  memCost: number;
  rounds: number;
}

export const SUITE_SCRYPT: Readonly<ScryptParameters> = {
  // The live core's own key: the suites' hashes must be made with the key the core verifies with.
  signerKey: REAL_CORE_SIGNER_KEY ?? VENDOR_SCRYPT_VECTOR.signerKey,
  saltSeparator: VENDOR_SCRYPT_VECTOR.saltSeparator,
  memCost: 8,
  rounds: 2,
};

async function firebaseRecord(user: OldUser, index: number): Promise<Record<string, unknown>> {
  const profile = {
    localId: user.oldId,
    email: user.email,
    emailVerified: user.verified,
    displayName: user.name,
    ...(user.disabled === true ? { disabled: true } : {}),
  };
  if (!isPasswordUser(user)) return { ...profile, providerUserInfo: [{ providerId: 'google.com', rawId: user.googleId, email: user.email }] };
  const salt = Buffer.from(`salt-of-${index}`);
  const passwordHash = await makeVendorScryptHash({
    password: user.password,
    salt,
    saltSeparator: Buffer.from(SUITE_SCRYPT.saltSeparator, 'base64'),
    signerKey: Buffer.from(SUITE_SCRYPT.signerKey, 'base64'),
    memCost: SUITE_SCRYPT.memCost,
    rounds: SUITE_SCRYPT.rounds,
  });
  return { ...profile, passwordHash, salt: salt.toString('base64') };
}

/**
 * A hash_config.txt as `firebase auth:export` users get it (owner-only, as it holds the signer key); the suite's own
 * parameters unless told others (a wrong `memCost`, say, to show what a mistaken config does).
 */
export async function writeHashConfig(dir: string, name: string, parameters: Partial<ScryptParameters> = {}): Promise<void> {
  const s = { ...SUITE_SCRYPT, ...parameters };
  await writeFile(
    join(dir, name),
    `hash_config {\n  algorithm: SCRYPT,\n  base64_signer_key: ${s.signerKey},\n  base64_salt_separator: ${s.saltSeparator},\n  rounds: ${s.rounds},\n  mem_cost: ${s.memCost},\n}\n`,
    { mode: 0o600 },
  );
}

/** `firebase auth:export` JSON of these users, and the suite's hash_config.txt beside it. */
export async function writeFirebaseExport(dir: string, name: string, users: readonly OldUser[]): Promise<ExportArguments> {
  const records = await Promise.all(users.map((user, index) => firebaseRecord(user, index)));
  await writeFile(join(dir, name), `${JSON.stringify({ users: records }, null, 1)}\n`);
  await writeHashConfig(dir, 'hash_config.txt');
  return [name, '--hash-config', 'hash_config.txt'];
}

/** Auth0's user_id: `auth0|<id>` for its own database's users, `<connection>|<id at the provider>` for social ones. */
export const auth0UserId = (user: OldUser): string => (isPasswordUser(user) ? `auth0|${user.oldId}` : `google-oauth2|${user.googleId}`);

/** One salt for the run, so a user whose password did not change gets the same hash in a newer export (as it would). */
const BCRYPT_SALT = bcrypt.genSaltSync(4);

/**
 * Auth0's two files: the user export (NDJSON, `user_id` `auth0|<id>`) and the password-hash export support delivers
 * (MongoDB extended JSON, joined on `_id.$oid`), with bcrypt hashes at the smallest cost.
 */
export async function writeAuth0Export(dir: string, name: string, users: readonly OldUser[]): Promise<ExportArguments> {
  const usersName = name;
  const passwordsName = `${name}.passwords`;
  const userLines = users.map((user) =>
    JSON.stringify({
      user_id: auth0UserId(user),
      email: user.email,
      email_verified: user.verified,
      name: user.name,
      user_metadata: { theme: 'dark' },
      identities: isPasswordUser(user)
        ? [{ provider: 'auth0', user_id: user.oldId, connection: 'Username-Password-Authentication', isSocial: false }]
        : [{ provider: 'google-oauth2', user_id: user.googleId, connection: 'google-oauth2', isSocial: true }],
      ...(user.disabled === true ? { blocked: true } : {}),
    }),
  );
  const passwordLines = users.filter(isPasswordUser).map((user) =>
    JSON.stringify({
      _id: { $oid: user.oldId },
      email: user.email,
      email_verified: user.verified,
      passwordHash: bcrypt.hashSync(user.password, BCRYPT_SALT).replace(/^\$2a\$/, '$2b$'),
      connection: 'Username-Password-Authentication',
    }),
  );
  await writeFile(join(dir, usersName), `${userLines.join('\n')}\n`);
  await writeFile(join(dir, passwordsName), `${passwordLines.join('\n')}\n`);
  return [usersName, '--auth0-password-file', passwordsName];
}
