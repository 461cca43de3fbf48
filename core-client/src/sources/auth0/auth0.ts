import type { MalformedRecord, SourceRecord, SourceUser, LinkedProvider } from '../source-user.js';
import { SourceError } from '../source-error.js';
import { readNdjsonObjects } from '../json/ndjson-objects.js';
import { splitLines } from '../text/lines.js';
import { openText } from '../text/open-text.js';
import { dropUndefined } from '../generic/generic-record.js';
import { type Auth0User, Auth0PasswordSchema, Auth0UserSchema, DATABASE_PROVIDER, issueField, passwordJoinId, userJoinId } from './auth0-records.js';

type Auth0FileRole = 'users' | 'passwords';

function objectsOf(file: string) {
  return readNdjsonObjects(file, splitLines(openText(file)));
}

/** Tells the user export from the password-hash export by the first object's keys. */
export async function auth0FileRole(file: string): Promise<Auth0FileRole> {
  for await (const entry of objectsOf(file)) {
    if (entry.kind === 'object') {
      if ('user_id' in entry.value) return 'users';
      if ('_id' in entry.value && 'passwordHash' in entry.value) return 'passwords';
      throw new SourceError('wrong-format', { file, line: entry.line }, 'neither an Auth0 user export (no "user_id") nor a password-hash export (no "_id" and "passwordHash")');
    }
  }
  throw new SourceError('empty', { file }, 'the file holds no JSON object');
}

function malformed(file: string, line: number, field: string | undefined, reason: string): MalformedRecord {
  return { kind: 'malformed', location: { file, line, ...(field === undefined ? {} : { field }) }, reason };
}

function linkedProviders(user: Auth0User): LinkedProvider[] {
  if (user.identities) {
    // The `auth0` identity is the database connection: the password user itself, not a link.
    return user.identities.filter((identity) => identity.provider !== DATABASE_PROVIDER).map((identity) => ({ providerId: identity.provider, providerUserId: identity.user_id }));
  }
  // Without identities (not requested in the export job), a social user_id is still `<provider>|<id>`.
  const separator = user.user_id.indexOf('|');
  const provider = separator > 0 ? user.user_id.slice(0, separator) : undefined;
  return provider === undefined || provider === DATABASE_PROVIDER ? [] : [{ providerId: provider, providerUserId: user.user_id.slice(separator + 1) }];
}

/**
 * First pass over the password-hash file: join id -> hash. Memory is about 150 bytes per entry (measured 149
 * with 24-char ids and 60-char bcrypt strings: key, value and map slot). Emails are not kept: a second pass
 * reads them for the entries no user matched.
 */
async function* indexPasswords(file: string, hashes: Map<string, string>): AsyncGenerator<MalformedRecord> {
  for await (const entry of objectsOf(file)) {
    if (entry.kind === 'bad-line') {
      yield malformed(file, entry.line, undefined, entry.reason);
      continue;
    }
    const parsed = Auth0PasswordSchema.safeParse(entry.value);
    if (!parsed.success) {
      const field = issueField(parsed.error);
      yield malformed(file, entry.line, field, `field "${field}": ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      continue;
    }
    const joinId = passwordJoinId(parsed.data);
    if (hashes.has(joinId)) {
      yield malformed(file, entry.line, '_id', `another line already has the id "${DATABASE_PROVIDER}|${joinId}"; this one is left out`);
      continue;
    }
    hashes.set(joinId, parsed.data.passwordHash);
  }
}

async function* readUsers(file: string, hashes: Map<string, string>): AsyncGenerator<SourceRecord> {
  for await (const entry of objectsOf(file)) {
    if (entry.kind === 'bad-line') {
      yield malformed(file, entry.line, undefined, entry.reason);
      continue;
    }
    const parsed = Auth0UserSchema.safeParse(entry.value);
    if (!parsed.success) {
      const field = issueField(parsed.error);
      yield malformed(file, entry.line, field, `field "${field}": ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      continue;
    }
    const user = parsed.data;
    const joinId = userJoinId(user.user_id);
    const passwordHash = joinId === undefined ? undefined : hashes.get(joinId);
    // Deleted once matched: what is left at the end are the password-only users, and the map shrinks.
    if (joinId !== undefined) hashes.delete(joinId);
    const record: SourceUser = {
      kind: 'user',
      location: { file, line: entry.line },
      sourceId: user.user_id,
      ...dropUndefined({ email: user.email || undefined, emailVerified: user.email_verified, passwordHash }),
      providers: linkedProviders(user),
    };
    yield record;
  }
}

/** Second pass over the password-hash file: entries no user matched are users in their own right. */
async function* readUnmatchedPasswords(file: string, hashes: Map<string, string>): AsyncGenerator<SourceUser> {
  for await (const entry of objectsOf(file)) {
    if (entry.kind !== 'object') continue;
    const parsed = Auth0PasswordSchema.safeParse(entry.value);
    if (!parsed.success) continue;
    const joinId = passwordJoinId(parsed.data);
    // Compared with the indexed hash so a duplicate line (already reported) is not read as the user.
    if (hashes.get(joinId) !== parsed.data.passwordHash) continue;
    hashes.delete(joinId);
    yield {
      kind: 'user',
      location: { file, line: entry.line },
      sourceId: `${DATABASE_PROVIDER}|${joinId}`,
      ...dropUndefined({ email: parsed.data.email || undefined, emailVerified: parsed.data.email_verified }),
      passwordHash: parsed.data.passwordHash,
      providers: [],
    };
  }
}

/**
 * Auth0: the user export joined with the password-hash export on user_id == "auth0|" + (alt_id ?? _id.$oid),
 * never on email. Order: bad lines of the hash file, then every user, then hash entries no user matched.
 * Either file alone works: `file` may be the hash file itself.
 */
export async function* readAuth0(file: string, passwordFile?: string): AsyncGenerator<SourceRecord> {
  const role = await auth0FileRole(file);
  const hashFile = role === 'passwords' ? file : passwordFile;
  if (role === 'passwords' && passwordFile !== undefined) {
    throw new SourceError('wrong-format', { file }, `this is a password-hash export, and so is the password file "${passwordFile}": give the user export first`);
  }
  if (role === 'users' && passwordFile !== undefined && (await auth0FileRole(passwordFile)) !== 'passwords') {
    throw new SourceError('wrong-format', { file: passwordFile }, 'the password file is not an Auth0 password-hash export (no "_id" and "passwordHash")');
  }
  const hashes = new Map<string, string>();
  if (hashFile !== undefined) yield* indexPasswords(hashFile, hashes);
  if (role === 'users') yield* readUsers(file, hashes);
  if (hashFile !== undefined) yield* readUnmatchedPasswords(hashFile, hashes);
}
