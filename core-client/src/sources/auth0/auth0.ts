import type { MalformedRecord, SourceRecord, SourceUser, LinkedProvider } from '../source-user.js';
import { SourceError } from '../source-error.js';
import { type NdjsonEntry, readNdjsonObjects } from '../json/ndjson-objects.js';
import { splitLines, type TextLine } from '../text/lines.js';
import { openText } from '../text/open-text.js';
import { dropUndefined, isPlainObject, oldIdAt } from '../generic/generic-record.js';
import {
  type Auth0Password,
  type Auth0User,
  Auth0PasswordSchema,
  Auth0UserSchema,
  DATABASE_PROVIDER,
  EMAIL_PROVIDER,
  issueField,
  passwordJoinId,
  SMS_PROVIDER,
  userJoinId,
} from './auth0-records.js';
import { HashFile } from './hash-file.js';
import { PasswordIndex } from './password-index.js';
import { optional } from '../../optional.js';

type Auth0FileRole = 'users' | 'passwords';

function objectsOf(file: string) {
  return readNdjsonObjects(file, splitLines(openText(file), { file }));
}

/** Tells the user export from the password-hash export by the first object's keys. */
export async function auth0FileRole(file: string): Promise<Auth0FileRole> {
  for await (const entry of objectsOf(file)) {
    if (entry.kind === 'object') {
      if ('user_id' in entry.value) return 'users';
      if ('_id' in entry.value && 'passwordHash' in entry.value) return 'passwords';
      throw new SourceError(
        'wrong-format',
        { file, line: entry.line },
        'neither an Auth0 user export (no "user_id") nor a password-hash export (no "_id" and "passwordHash")',
      );
    }
  }
  throw new SourceError('empty', { file }, 'the file holds no JSON object');
}

function malformed(file: string, line: number, field: string | undefined, reason: string, sourceId?: string): MalformedRecord {
  return { kind: 'malformed', location: { file, line, ...optional('field', field) }, ...optional('sourceId', sourceId), reason };
}

/** The id a hash entry joins on, when the broken entry still has it: `auth0|<alt_id or _id.$oid>`, as its user is named. */
function oldIdOfHashEntry(value: unknown): string | undefined {
  const joinId = oldIdAt(value, 'alt_id') ?? (isPlainObject(value) ? oldIdAt(value['_id'], '$oid') : undefined);
  return joinId === undefined ? undefined : `${DATABASE_PROVIDER}|${joinId}`;
}

/** The user's connections, as its identities (or, when the export job left them out, its user_id's prefix) name them. */
function connectionsOf(user: Auth0User): LinkedProvider[] {
  if (user.identities) return user.identities.map((identity) => ({ providerId: identity.provider, providerUserId: identity.user_id }));
  const separator = user.user_id.indexOf('|');
  return separator > 0 ? [{ providerId: user.user_id.slice(0, separator), providerUserId: user.user_id.slice(separator + 1) }] : [];
}

/** The database connection is the password user itself and the passwordless connections are logins: the rest are links. */
const ownConnections = new Set([DATABASE_PROVIDER, SMS_PROVIDER, EMAIL_PROVIDER]);

function loginsOf(user: Auth0User): Pick<SourceUser, 'providers' | 'phoneNumber' | 'phoneNumberMissingFrom' | 'signsInByEmailCode'> {
  const connections = connectionsOf(user);
  const has = (provider: string): boolean => connections.some((connection) => connection.providerId === provider);
  return {
    providers: connections.filter((connection) => !ownConnections.has(connection.providerId)),
    ...(has(SMS_PROVIDER) && user.phone_number ? { phoneNumber: user.phone_number } : {}),
    ...(has(SMS_PROVIDER) && !user.phone_number ? { phoneNumberMissingFrom: 'phone_number' } : {}),
    // A database or sms user whose hash or number is missing is not an email-link user for having an email.
    ...(has(EMAIL_PROVIDER) ? { signsInByEmailCode: true } : has(DATABASE_PROVIDER) || has(SMS_PROVIDER) ? { signsInByEmailCode: false } : {}),
  };
}

interface HashFileEntry {
  readonly entry: NdjsonEntry;
  readonly byteOffset: number;
}

/** The hash file's NDJSON entries, each with the byte offset of its line. */
async function* hashFileEntries(file: string, lines: AsyncIterable<TextLine>): AsyncGenerator<HashFileEntry> {
  let current: TextLine | undefined;
  const tracked = async function* (): AsyncGenerator<TextLine> {
    for await (const line of lines) {
      current = line;
      yield line;
    }
  };
  // readNdjsonObjects yields each entry before it pulls the next line, so `current` is that entry's line.
  for await (const entry of readNdjsonObjects(file, tracked())) {
    if (current?.number !== entry.line) throw new Error(`internal: the hash file's line ${entry.line} lost its offset`);
    yield { entry, byteOffset: current.byteOffset };
  }
}

function parsedEntry(text: string): Auth0Password | undefined {
  try {
    const parsed = Auth0PasswordSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * First pass over the password-hash file: each entry's join id goes into the compact index (a digest and the
 * line's offset, never the id or the hash), so memory stays a few dozen bytes an entry.
 */
async function* indexPasswords(hashFile: HashFile, index: PasswordIndex): AsyncGenerator<MalformedRecord> {
  const file = hashFile.file;
  for await (const { entry, byteOffset } of hashFileEntries(file, hashFile.firstPass())) {
    if (entry.kind === 'bad-line') {
      yield malformed(file, entry.line, undefined, entry.reason);
      continue;
    }
    const parsed = Auth0PasswordSchema.safeParse(entry.value);
    if (!parsed.success) {
      const field = issueField(parsed.error);
      const oldId = field === 'alt_id' || field.startsWith('_id') ? undefined : oldIdOfHashEntry(entry.value);
      yield malformed(file, entry.line, field, `field "${field}": ${parsed.error.issues[0]?.message ?? 'invalid'}`, oldId);
      continue;
    }
    const joinId = passwordJoinId(parsed.data);
    if (!(await index.add(joinId, byteOffset, entry.line))) {
      const oldId = `${DATABASE_PROVIDER}|${joinId}`;
      yield malformed(file, entry.line, '_id', `another line already has the id "${oldId}"; this one is left out`, oldId);
    }
  }
}

async function* readUsers(file: string, index: PasswordIndex | undefined): AsyncGenerator<SourceRecord> {
  for await (const entry of objectsOf(file)) {
    if (entry.kind === 'bad-line') {
      yield malformed(file, entry.line, undefined, entry.reason);
      continue;
    }
    const parsed = Auth0UserSchema.safeParse(entry.value);
    if (!parsed.success) {
      const field = issueField(parsed.error);
      const oldId = field === 'user_id' ? undefined : oldIdAt(entry.value, 'user_id');
      yield malformed(file, entry.line, field, `field "${field}": ${parsed.error.issues[0]?.message ?? 'invalid'}`, oldId);
      continue;
    }
    const user = parsed.data;
    const joinId = userJoinId(user.user_id);
    // Claimed once: what no user claimed are the password-only users at the end.
    const password = joinId === undefined || index === undefined ? undefined : await index.claim(joinId);
    const profile = dropUndefined({
      displayName: user.name || undefined,
      photoUrl: user.picture || undefined,
      signedUpAt: user.created_at || undefined,
      lastSignedInAt: user.last_login || undefined,
      phoneNumber: user.phone_number || undefined,
      userMetadata: user.user_metadata,
      appMetadata: user.app_metadata,
    });
    const record: SourceUser = {
      kind: 'user',
      location: { file, line: entry.line },
      sourceId: user.user_id,
      system: 'auth0',
      ...dropUndefined({ email: user.email || undefined, emailVerified: user.email_verified, passwordHash: password?.passwordHash, disabled: user.blocked }),
      ...(Object.keys(profile).length === 0 ? {} : { profile }),
      ...loginsOf(user),
    };
    yield record;
  }
}

/** Hash entries no user matched are users in their own right: read back in file order (so in few reads). */
async function* readUnmatchedPasswords(hashFile: HashFile, index: PasswordIndex): AsyncGenerator<SourceUser> {
  for (const { byteOffset, line } of index.unclaimed()) {
    const password = parsedEntry(await hashFile.lineAt(byteOffset));
    if (password === undefined) continue;
    yield {
      kind: 'user',
      location: { file: hashFile.file, line },
      sourceId: `${DATABASE_PROVIDER}|${passwordJoinId(password)}`,
      system: 'auth0',
      ...dropUndefined({ email: password.email || undefined, emailVerified: password.email_verified }),
      passwordHash: password.passwordHash,
      providers: [],
    };
  }
}

/** Test seams for the join; the defaults are what production uses. */
export interface Auth0JoinSeams {
  /** Where a gzipped hash file is decompressed to (default: the system's temp folder). */
  tempRoot?: string;
  /** Maps a join id to the key that is digested; one constant key makes every digest collide. */
  indexKey?: (joinId: string) => string;
}

/**
 * Auth0: the user export joined with the password-hash export on user_id == "auth0|" + (alt_id ?? _id.$oid),
 * never on email. Order: bad lines of the hash file, then every user, then hash entries no user matched.
 * Either file alone works: `file` may be the hash file itself.
 */
export async function* readAuth0(file: string, passwordFile?: string, seams: Auth0JoinSeams = {}): AsyncGenerator<SourceRecord> {
  const role = await auth0FileRole(file);
  const hashFileName = role === 'passwords' ? file : passwordFile;
  if (role === 'passwords' && passwordFile !== undefined) {
    throw new SourceError(
      'wrong-format',
      { file },
      `this is a password-hash export, and so is the password file "${passwordFile}": give the user export first`,
    );
  }
  if (role === 'users' && passwordFile !== undefined && (await auth0FileRole(passwordFile)) !== 'passwords') {
    throw new SourceError('wrong-format', { file: passwordFile }, 'the password file is not an Auth0 password-hash export (no "_id" and "passwordHash")');
  }
  if (hashFileName === undefined) {
    yield* readUsers(file, undefined);
    return;
  }
  const hashFile = await HashFile.open(hashFileName, seams.tempRoot);
  try {
    const index = new PasswordIndex(async (offset) => parsedEntry(await hashFile.lineAt(offset)), seams.indexKey);
    yield* indexPasswords(hashFile, index);
    if (role === 'users') yield* readUsers(file, index);
    yield* readUnmatchedPasswords(hashFile, index);
  } finally {
    // Also when the reader is abandoned (a `break` or an error): the decompressed copy is removed.
    await hashFile.close();
  }
}
