import { readFailureReason, readSettingText } from '../files/setting-text.js';
import type { CoreClient } from '../http/core-client.js';
import { isCoreError } from '../http/errors.js';
import { verifyPassword } from '../hashes/verify-password.js';
import type { PasswordImportOperation } from '../plan/operation.js';
import type { PlannedRecord } from '../plan/plan-source.js';
import { Problem } from '../problem.js';
import { Secret } from '../secret.js';
import type { CredentialsProof } from '../summary/push-summary.js';

/**
 * The proof that hashes and parameters are right: accounts an operator knows (test accounts) are checked locally
 * against their planned hash before the push, and signed in at the core after it. Passwords stay `Secret`s; results
 * name the email and the file line only.
 */
export interface KnownCredential {
  /** Trimmed and lower-cased, as the core stores it. */
  email: string;
  password: Secret;
  line: number;
}

/** The known accounts' file cannot be read or holds no usable line; the words never hold a password. */
export class CredentialsFileError extends Problem<'verifyCredentials', 'credentialsUnreadable'> {
  override readonly name = 'CredentialsFileError';
  constructor(words: string) {
    super('credentialsUnreadable', 'setting', 'verifyCredentials', words);
  }
}

/**
 * One account per line: the email, whitespace, then the password (the rest of the line, inner spaces kept).
 * Empty lines and lines starting with `#` are skipped.
 */
export function parseCredentials(text: string, file: string): KnownCredential[] | CredentialsFileError {
  const credentials: KnownCredential[] = [];
  const lines = text.split('\n');
  for (const [index, raw] of lines.entries()) {
    const line = raw.replace(/\r$/, '');
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const match = /^\s*(\S+)\s+(.+)$/.exec(line);
    if (match === null || match[1] === undefined || match[2] === undefined) {
      // Never quote the line: it may hold a password.
      return new CredentialsFileError(
        `${file}, line ${index + 1}: expected an email, a space, then the password (the line is not shown: it may hold a password).`,
      );
    }
    credentials.push({ email: match[1].trim().toLowerCase(), password: new Secret(match[2]), line: index + 1 });
  }
  if (credentials.length === 0) return new CredentialsFileError(`${file} holds no account (one "email password" per line).`);
  return credentials;
}

export async function readCredentials(path: string): Promise<KnownCredential[] | CredentialsFileError> {
  let text: string;
  try {
    text = await readSettingText(path);
  } catch (error) {
    return new CredentialsFileError(`${path}: cannot read the file (${readFailureReason(error)}).`);
  }
  return parseCredentials(text, path);
}

export type LocalCheck = 'match' | 'mismatch' | 'notPlanned' | 'uncheckable';
export type SignInCheck = 'signedIn' | 'wrongCredentials' | 'notAvailable' | 'failed';

export interface CredentialCheck {
  email: string;
  line: number;
  local: LocalCheck;
  /** Why it could not be checked, or the hash family's warnings; never the password or the hash. */
  notes: string[];
  signIn?: SignInCheck;
}

/**
 * Reads the plan until every known email is found, keeps their planned password imports only (a handful), and checks each
 * password against its hash the way the core will. An abort of `signal` (the first Ctrl-C) stops the reading or
 * the check under way at once: the promise rejects with the signal's reason.
 */
export async function checkCredentialsLocally(
  records: AsyncIterable<PlannedRecord>,
  credentials: KnownCredential[],
  options: { signerKey?: Secret; signal?: AbortSignal } = {},
): Promise<CredentialCheck[]> {
  const { signal } = options;
  const wanted = new Set(credentials.map((credential) => credential.email));
  const planned = new Map<string, PasswordImportOperation>();
  for await (const record of records) {
    signal?.throwIfAborted();
    for (const item of record.items) {
      if (item.kind === 'passwordImport' && wanted.has(item.email)) planned.set(item.email, item);
    }
    // The plan imports each email at most once (its duplicates are rejections), so the rest of the export cannot
    // change what was found: this read of the export ends as soon as every known account is.
    if (planned.size === wanted.size) break;
  }
  const checks: CredentialCheck[] = [];
  for (const credential of credentials) {
    const operation = planned.get(credential.email);
    const base = { email: credential.email, line: credential.line };
    if (operation === undefined) {
      checks.push({ ...base, local: 'notPlanned', notes: ['no password import is planned for this email (rejected, third-party only, or absent)'] });
      continue;
    }
    const verified = await verifyPassword(credential.password, operation.body.passwordHash, { signerKey: options.signerKey, signal });
    checks.push(
      verified.ok
        ? { ...base, local: verified.match ? 'match' : 'mismatch', notes: verified.warnings }
        : { ...base, local: 'uncheckable', notes: [verified.reason] },
    );
  }
  return checks;
}

/** After the push: signs each planned account in at the core (where it offers /recipe/signin). */
export async function signInCredentials(
  client: Pick<CoreClient, 'signIn'>,
  checks: CredentialCheck[],
  credentials: KnownCredential[],
): Promise<CredentialCheck[]> {
  const passwords = new Map(credentials.map((credential) => [credential.email, credential.password]));
  const results: CredentialCheck[] = [];
  for (const check of checks) {
    const password = passwords.get(check.email);
    if (check.local === 'notPlanned' || password === undefined) {
      results.push(check);
      continue;
    }
    try {
      const answer = await client.signIn({ email: check.email, password });
      results.push({ ...check, signIn: answer.outcome });
    } catch (error) {
      const reason = isCoreError(error) ? error.message : 'the sign-in could not be sent';
      results.push({ ...check, signIn: 'failed', notes: [...check.notes, reason] });
    }
  }
  return results;
}

export function credentialsProof(checks: CredentialCheck[]): CredentialsProof {
  const signInsTried = checks.filter((check) => check.signIn !== undefined);
  const offered = signInsTried.length > 0 && signInsTried.every((check) => check.signIn !== 'notAvailable');
  return {
    checked: checks.length,
    matchedLocally: checks.filter((check) => check.local === 'match').length,
    notPlanned: checks.filter((check) => check.local === 'notPlanned').length,
    loggedIn: offered ? signInsTried.filter((check) => check.signIn === 'signedIn').length : null,
    signIns: signInsTried.length === 0 ? 'notTried' : offered ? 'done' : 'notOffered',
  };
}
