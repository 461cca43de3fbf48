import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import {
  CredentialsFileError,
  checkCredentialsLocally,
  credentialsProof,
  parseCredentials,
  signInCredentials,
} from '../../../core-client/src/push/credentials.js';
import type { PlannedRecord } from '../../../core-client/src/plan/plan-source.js';
import { Secret } from '../../../core-client/src/secret.js';
import { bcryptOperation, recordsOf, thirdPartyOperation } from './plan-fixtures.js';

describe('known credentials', () => {
  it('reads "email password" lines, keeping spaces inside the password and skipping comments', () => {
    const parsed = parseCredentials('# test accounts\n Ada@Example.com  correct horse battery\r\n\nbob@example.com pw\n', 'known.txt');
    expect(parsed).not.toBeInstanceOf(CredentialsFileError);
    const credentials = parsed as Exclude<typeof parsed, CredentialsFileError>;
    expect(credentials.map((credential) => [credential.email, credential.line, credential.password.reveal()])).toEqual([
      ['ada@example.com', 2, 'correct horse battery'],
      ['bob@example.com', 4, 'pw'],
    ]);
    expect(String(credentials[0]?.password)).toBe('***');
  });

  it('refuses a line without a password without quoting it', () => {
    const refused = parseCredentials('only-an-email@example.com\n', 'known.txt');
    expect(refused).toBeInstanceOf(CredentialsFileError);
    expect((refused as CredentialsFileError).message).toContain('line 1');
    expect((refused as CredentialsFileError).message).not.toContain('only-an-email');
    expect(parseCredentials('\n# nothing\n', 'known.txt')).toBeInstanceOf(CredentialsFileError);
  });

  it('checks each known account against its planned hash, then counts sign-ins', async () => {
    const hash = bcrypt.hashSync('right password', 4);
    const planned = { ...bcryptOperation(1, 'ada@example.com'), body: { email: 'ada@example.com', passwordHash: hash } };
    const credentials = [
      { email: 'ada@example.com', password: new Secret('right password'), line: 1 },
      { email: 'social2@example.com', password: new Secret('whatever'), line: 2 },
    ];
    const checks = await checkCredentialsLocally(recordsOf([planned, thirdPartyOperation(2)]), credentials);
    expect(checks.map((check) => check.local)).toEqual(['match', 'notPlanned']);

    const wrong = await checkCredentialsLocally(recordsOf([planned]), [{ email: 'ada@example.com', password: new Secret('wrong'), line: 1 }]);
    expect(wrong[0]?.local).toBe('mismatch');

    const signedIn = await signInCredentials({ signIn: async () => ({ outcome: 'signedIn' }) }, checks, credentials);
    expect(credentialsProof(signedIn)).toEqual({ checked: 2, matchedLocally: 1, notPlanned: 1, loggedIn: 1, signIns: 'done' });
    const noSignIn = await signInCredentials({ signIn: async () => ({ outcome: 'notAvailable' }) }, checks, credentials);
    expect(credentialsProof(noSignIn)).toMatchObject({ loggedIn: null, signIns: 'notOffered' });
    // A push that never ran to its end tried no sign-in: that is not "the core offers none".
    expect(credentialsProof(checks)).toMatchObject({ loggedIn: null, signIns: 'notTried' });
  });

  it('stops reading the plan once every known account is found', async () => {
    const hash = bcrypt.hashSync('pw', 4);
    async function* planThenFailure(): AsyncGenerator<PlannedRecord> {
      yield* recordsOf([{ ...bcryptOperation(1, 'ada@example.com'), body: { email: 'ada@example.com', passwordHash: hash } }]);
      throw new Error('read past the last known account');
    }
    const checks = await checkCredentialsLocally(planThenFailure(), [{ email: 'ada@example.com', password: new Secret('pw'), line: 1 }]);
    expect(checks.map((check) => check.local)).toEqual(['match']);
  });
});
