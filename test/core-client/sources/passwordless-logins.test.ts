import { describe, expect, it } from 'vitest';
import { parseFieldMapping, type FieldMapping } from '../../../core-client/src/sources/generic/field-mapping.js';
import { readSource } from '../../../core-client/src/sources/read-source.js';
import type { SourceUser } from '../../../core-client/src/sources/source-user.js';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fixture, readAll, withTempDir } from './support.js';

/** What each reader says of how its users sign in: the fields the plan turns into passwordless users. */
function logins(records: readonly unknown[]) {
  return (records as SourceUser[]).map((user) => ({
    id: user.sourceId,
    phone: user.phoneNumber,
    byEmailCode: user.signsInByEmailCode,
    providers: user.providers.map((provider) => provider.providerId),
  }));
}

describe('the phone and email-link logins of an export', () => {
  it('Firebase JSON: the user\'s phoneNumber, else its "phone" provider entry; kept in the profile too', async () => {
    const { records, error } = await readAll(readSource(fixture('passwordless/firebase-users.json'), { format: 'firebase-json' }));
    expect(error).toBeUndefined();
    expect(logins(records)).toEqual([
      { id: 'pl-1', phone: '+1 415 555 0123', byEmailCode: undefined, providers: [] },
      { id: 'pl-2', phone: undefined, byEmailCode: undefined, providers: [] },
      { id: 'pl-3', phone: '+44 7700 900123', byEmailCode: undefined, providers: [] },
      { id: 'pl-4', phone: '07700 900456', byEmailCode: undefined, providers: [] },
      { id: 'pl-5', phone: 'call me maybe', byEmailCode: undefined, providers: [] },
      { id: 'pl-6', phone: '+1 (415) 555-0123', byEmailCode: undefined, providers: [] },
      { id: 'pl-7', phone: '+16505550100', byEmailCode: undefined, providers: [] },
    ]);
    expect(records[0]).toMatchObject({ profile: { phoneNumber: '+1 415 555 0123', displayName: 'Phone Only' } });
    expect(records[6]).toMatchObject({ profile: { phoneNumber: '+16505550100' } });
  });

  it('Firebase CSV: the phone number column (26th)', async () => {
    const { records, error } = await readAll(readSource(fixture('passwordless/firebase-users.csv'), { format: 'firebase-csv' }));
    expect(error).toBeUndefined();
    expect(logins(records).map((user) => [user.id, user.phone])).toEqual([
      ['plc-1', '+14155550199'],
      ['plc-2', undefined],
      ['plc-3', '+442079460018'],
      ['plc-4', '(650) 555-0142'],
      ['plc-5', 'not-a-number'],
      ['plc-6', '+1 415-555-0199'],
    ]);
  });

  it('Auth0: an sms user signs in with phone_number, an email user by a code to its email, a database user with a password', async () => {
    const { records, error } = await readAll(readSource(fixture('passwordless/auth0-users.ndjson'), { format: 'auth0' }));
    expect(error).toBeUndefined();
    // The passwordless connections are logins, not linked accounts; without identities the user_id's prefix says.
    expect(logins(records)).toEqual([
      { id: 'sms|5f1a', phone: '+14155550177', byEmailCode: false, providers: [] },
      { id: 'email|6a2b', phone: undefined, byEmailCode: true, providers: [] },
      { id: 'auth0|db-1', phone: undefined, byEmailCode: false, providers: [] },
      { id: 'sms|7c3d', phone: '+447700900777', byEmailCode: false, providers: [] },
      { id: 'email|8d4e', phone: undefined, byEmailCode: true, providers: [] },
    ]);
  });

  it('Auth0: an sms user whose number is missing is not taken for an email-link user for having an email', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'users.ndjson');
      await writeFile(file, `${JSON.stringify({ user_id: 'sms|9', email: 'has@example.com', identities: [{ provider: 'sms', user_id: '9' }] })}\n`);
      const { records } = await readAll(readSource(file, { format: 'auth0' }));
      expect(logins(records)).toEqual([{ id: 'sms|9', phone: undefined, byEmailCode: false, providers: [] }]);
    });
  });

  it('generic exports: the mapped phone field (phoneNumber by default)', async () => {
    const mapping = parseFieldMapping({ phoneNumber: 'Mobile' }) as FieldMapping;
    const csv = await readAll(readSource(fixture('passwordless/generic-users.csv'), { format: 'csv', mapping }));
    expect(csv.error).toBeUndefined();
    expect(logins(csv.records).map((user) => [user.id, user.phone])).toEqual([
      ['g-1', '+14155550166'],
      ['g-2', undefined],
      ['g-3', '+14155550155'],
      ['g-4', '555-0100'],
    ]);
    const ndjson = await readAll(readSource(fixture('passwordless/generic-users.ndjson'), { format: 'ndjson' }));
    expect(logins(ndjson.records).map((user) => user.phone)).toEqual(['+14155550144', '+1 415 555 0144', undefined]);
  });
});
