import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseHashConfig, type HashConfig } from '../../../core-client/src/hashes/hash-config.js';
import { metadataOf } from '../../../core-client/src/plan/metadata.js';
import type { PlanItem } from '../../../core-client/src/plan/operation.js';
import { planRecord, type RecordPlanningRules } from '../../../core-client/src/plan/plan-record.js';
import { planSource, type PlanOptions, type PlannedRecord } from '../../../core-client/src/plan/plan-source.js';
import { defaultProviderMap } from '../../../core-client/src/plan/providers.js';
import { summarisePlan } from '../../../core-client/src/plan/summarise-plan.js';
import { parseFieldMapping, type FieldMapping } from '../../../core-client/src/sources/generic/field-mapping.js';
import type { SourceUser } from '../../../core-client/src/sources/source-user.js';
import { withTempDir } from '../sources/support.js';

const bcrypt = '$2b$04$ULkXn/xdNAh/YTDVvHd.uuB6OATQ14xNWHf7Yn0hwUsnzb5F/yhue';
const hashConfig = parseHashConfig(
  '{"algorithm":"SCRYPT","base64_signer_key":"jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==","base64_salt_separator":"Bw==","rounds":8,"mem_cost":14}',
) as HashConfig;
const exports = join(import.meta.dirname, '../../fixtures/exports/passwordless');
const rules: RecordPlanningRules = { providerMap: defaultProviderMap };
const at = { file: '/exports/users.json', index: 3 };

function user(fields: Partial<SourceUser>): SourceUser {
  return { kind: 'user', location: at, providers: [], sourceId: 'old-3', system: 'firebase', ...fields };
}

async function planOf(file: string, options: PlanOptions = {}): Promise<PlannedRecord[]> {
  const records: PlannedRecord[] = [];
  for await (const record of planSource(join(exports, file), { hashConfig, ...options })) records.push(record);
  return records;
}

/** Each record's items, as `kind` for an operation and `code: reason` for a rejection. */
function outline(records: readonly PlannedRecord[]): string[][] {
  return records.map((record) => record.items.map((item: PlanItem) => (item.kind === 'rejection' ? `${item.code}: ${item.reason}` : item.kind)));
}

describe('planRecord: phone and email-link users', () => {
  it('turns a phone login into a passwordless user with its number in E.164, its old id and its profile', () => {
    const items = planRecord(user({ phoneNumber: '+1 (415) 555-0123', email: 'Sam@Example.com', profile: { displayName: 'Sam' } }), rules);
    expect(items).toEqual([
      {
        kind: 'passwordlessSignInUp',
        operationKey: 'I3#pl',
        location: at,
        body: { phoneNumber: '+14155550123' },
        email: 'sam@example.com',
        identity: expect.objectContaining({ sourceId: 'old-3', carriesSourceId: true, profile: { displayName: 'Sam' } }),
      },
    ]);
  });

  it('makes an email-only user a passwordless email user by default, and refuses it for a reset with --email-link reset', () => {
    const emailOnly = user({ email: ' Link@Example.com ', emailVerified: true });
    expect(planRecord(emailOnly, rules)).toEqual([
      expect.objectContaining({ kind: 'passwordlessSignInUp', operationKey: 'I3#pl', body: { email: 'link@example.com' } }),
    ]);
    expect(planRecord(emailOnly, { ...rules, emailLink: 'reset' })).toEqual([
      expect.objectContaining({
        kind: 'rejection',
        code: 'withoutCredentials',
        operationKey: 'I3#withoutCredentials',
        operation: 'passwordlessSignInUp',
        reason: 'the user has an email and neither a password hash nor a linked provider (an email-link user); --email-link reset: it needs a password reset',
      }),
    ]);
    // An Auth0 database user whose hash is missing has a password, not an email link.
    expect(planRecord(user({ email: 'db@example.com', signsInByEmailCode: false }), rules)).toEqual([
      expect.objectContaining({ kind: 'rejection', code: 'withoutCredentials' }),
    ]);
  });

  it('keeps the old id on the password user and makes the phone login a separate user named in its metadata', () => {
    const items = planRecord(user({ email: 'both@example.com', passwordHash: bcrypt, phoneNumber: '+447700900123' }), rules);
    expect(items.map((item) => [item.kind, item.operationKey, item.kind === 'rejection' ? undefined : item.identity?.carriesSourceId])).toEqual([
      ['passwordImport', 'I3#pw', true],
      ['passwordlessSignInUp', 'I3#pl', false],
    ]);
    const phone = items[1];
    if (phone?.kind !== 'passwordlessSignInUp' || phone.identity === undefined) throw new Error('no phone operation');
    expect(metadataOf(phone.identity)).toMatchObject({ migratedFrom: { system: 'firebase', sourceId: 'old-3', separateAccountOf: 'old-3' } });
    // An email-link user is only one with no other login.
    expect(planRecord(user({ email: 'x@example.com', passwordHash: bcrypt }), rules).map((item) => item.kind)).toEqual(['passwordImport']);
  });

  it('refuses a number that is not one, naming the field, and still imports the other login of the record', () => {
    const items = planRecord(user({ email: 'both@example.com', passwordHash: bcrypt, phoneNumber: '12' }), rules);
    expect(items[0]).toMatchObject({ kind: 'passwordImport' });
    expect(items[1]).toEqual({
      kind: 'rejection',
      operationKey: 'I3#pl',
      location: { ...at, field: 'phoneNumber' },
      email: 'both@example.com',
      sourceId: 'old-3',
      code: 'invalidPhoneNumber',
      operation: 'passwordlessSignInUp',
      reason:
        '"12" has no country code: write it as +<country code><number>, or name the country of such numbers with --default-region (e.g. GB) (its other login is imported)',
    });
    expect(planRecord(user({ phoneNumber: '020 7946 0018' }), { ...rules, defaultRegion: 'GB' })).toEqual([
      expect.objectContaining({ kind: 'passwordlessSignInUp', body: { phoneNumber: '+442079460018' } }),
    ]);
  });

  it('a phone login beside an unusable password carries the old id, and its refusal does not claim another login is imported', () => {
    const items = planRecord(user({ email: 'both@example.com', passwordHash: '$2b$04$short', phoneNumber: '+14155550123' }), rules);
    expect(
      items.map((item) => [item.kind === 'rejection' ? item.code : item.kind, item.kind === 'rejection' ? undefined : item.identity?.carriesSourceId]),
    ).toEqual([
      ['unusableHash', undefined],
      ['passwordlessSignInUp', true],
    ]);
    const refused = planRecord(user({ email: 'both@example.com', passwordHash: '$2b$04$short', phoneNumber: '12' }), rules)[1];
    expect(refused).toMatchObject({ code: 'invalidPhoneNumber', reason: expect.not.stringContaining('other login') });
  });

  it('leaves phone and email-link users out with --no-passwordless, listed for a reset; a password user keeps its password', () => {
    const off = { ...rules, passwordless: false };
    expect(planRecord(user({ phoneNumber: '+14155550123' }), off)).toEqual([
      expect.objectContaining({
        code: 'passwordlessLeftOut',
        operation: 'passwordlessSignInUp',
        reason: 'the user signs in with its phone number and is left out (--no-passwordless): it needs a password reset',
      }),
    ]);
    expect(planRecord(user({ email: 'link@example.com' }), off)).toEqual([
      expect.objectContaining({
        code: 'passwordlessLeftOut',
        reason: 'the user signs in with an email link and is left out (--no-passwordless): it needs a password reset',
      }),
    ]);
    const both = planRecord(user({ email: 'both@example.com', passwordHash: bcrypt, phoneNumber: '+14155550123' }), off);
    expect(both.map((item) => (item.kind === 'rejection' ? item.reason : item.kind))).toEqual([
      'passwordImport',
      'its phone login is left out (--no-passwordless); the user keeps its other login',
    ]);
  });

  it('treats a disabled phone user as any disabled user', () => {
    const disabled = user({ phoneNumber: '+14155550123', disabled: true });
    expect(planRecord(disabled, rules)).toEqual([expect.objectContaining({ code: 'disabledAccount' })]);
    expect(planRecord(disabled, { ...rules, disabled: 'import' })).toEqual([
      expect.objectContaining({ kind: 'passwordlessSignInUp', identity: expect.objectContaining({ disabled: true }) }),
    ]);
  });
});

describe('planSource: passwordless users of whole exports', () => {
  it('Firebase JSON: phone, email-link and password+phone users; national, unparseable and duplicate numbers refused', async () => {
    const records = await planOf('firebase-users.json');
    const file = join(exports, 'firebase-users.json');
    expect(outline(records)).toEqual([
      ['passwordlessSignInUp'],
      ['passwordlessSignInUp'],
      ['passwordImport', 'passwordlessSignInUp'],
      [
        'invalidPhoneNumber: "07700 900456" has no country code: write it as +<country code><number>, or name the country of such numbers with --default-region (e.g. GB)',
      ],
      ['invalidPhoneNumber: "call me maybe" is not a phone number'],
      [`duplicatePhoneNumber: phone number +14155550123: duplicate of ${file}, record #0, which is imported instead`],
      ['passwordlessSignInUp'],
    ]);
    const bodies = records.flatMap((record) => record.items.flatMap((item) => (item.kind === 'passwordlessSignInUp' ? [item.body] : [])));
    expect(bodies).toEqual([{ phoneNumber: '+14155550123' }, { email: 'link@example.com' }, { phoneNumber: '+447700900123' }, { phoneNumber: '+16505550100' }]);
  });

  it('reads national numbers in --default-region, and a later spelling of one number is the duplicate (or the one kept: last wins)', async () => {
    const withRegion = outline(await planOf('firebase-users.json', { defaultRegion: 'GB' }));
    expect(withRegion[3]).toEqual(['passwordlessSignInUp']);
    const lastWins = outline(await planOf('firebase-users.json', { duplicates: 'last-wins' }));
    expect(lastWins[0]?.[0]).toMatch(/^duplicatePhoneNumber: phone number \+14155550123: duplicate of .*record #5, which is imported instead \(last wins\)$/);
    expect(lastWins[5]).toEqual(['passwordlessSignInUp']);
  });

  it('Firebase CSV, Auth0 and generic exports, counted by kind in the plan summary', async () => {
    const csv = await summarisePlan(join(exports, 'firebase-users.csv'), { hashConfig, defaultRegion: 'US' });
    expect(csv).toMatchObject({ records: 6, passwordImports: 1, passwordlessSignInUps: 4, passwordlessByLogin: { phone: 3, email: 1 }, duplicates: 1 });
    expect(csv.rejectionsByCode.map((group) => [group.code, group.count])).toEqual([
      ['invalidPhoneNumber', 1],
      ['duplicatePhoneNumber', 1],
    ]);
    expect(csv.operations).toBe(csv.passwordImports + csv.thirdPartySignInUps + csv.passwordlessSignInUps + csv.rejected);
    expect(csv.identity).toMatchObject({ keepsSourceId: 4, separateAccounts: 1 });

    const auth0 = await summarisePlan(join(exports, 'auth0-users.ndjson'), { format: 'auth0' });
    expect(auth0).toMatchObject({ passwordlessByLogin: { phone: 2, email: 2 }, withoutCredentials: 1, thirdPartySignInUps: 0 });

    const mapping = parseFieldMapping({ phoneNumber: 'Mobile' }) as FieldMapping;
    const generic = await summarisePlan(join(exports, 'generic-users.csv'), { format: 'csv', mapping, defaultRegion: 'US' });
    expect(generic).toMatchObject({ passwordImports: 1, passwordlessByLogin: { phone: 2, email: 1 } });
    expect(generic.rejections).toEqual([
      expect.objectContaining({ code: 'invalidPhoneNumber', location: expect.stringMatching(/line 5, field "phoneNumber"$/) }),
    ]);

    const ndjson = await summarisePlan(join(exports, 'generic-users.ndjson'));
    expect(ndjson).toMatchObject({ passwordlessByLogin: { phone: 1, email: 1 }, duplicates: 1 });
  });

  it('with --email-link reset and --no-passwordless, no passwordless user is planned and each one is listed', async () => {
    const reset = await summarisePlan(join(exports, 'firebase-users.json'), { hashConfig, emailLink: 'reset' });
    expect(reset.passwordlessByLogin).toEqual({ phone: 3, email: 0 });
    expect(reset.withoutCredentials).toBe(1);
    const off = await summarisePlan(join(exports, 'firebase-users.json'), { hashConfig, passwordless: false });
    expect(off).toMatchObject({ passwordlessSignInUps: 0, passwordImports: 1 });
    expect(off.rejectionsByCode).toContainEqual(expect.objectContaining({ code: 'passwordlessLeftOut', count: 7 }));
  });
});

async function collect(records: AsyncIterable<PlannedRecord>): Promise<PlannedRecord[]> {
  const all: PlannedRecord[] = [];
  for await (const record of records) all.push(record);
  return all;
}

describe('a phone login without its number', () => {
  it('is refused missingPhoneNumber naming the field the number should be in, never missingEmail', async () => {
    await withTempDir(async (dir) => {
      const auth0 = join(dir, 'users.ndjson');
      const smsUser = (id: string, email?: string) => ({
        user_id: `sms|${id}`,
        ...(email === undefined ? {} : { email }),
        identities: [{ provider: 'sms', user_id: id }],
      });
      await writeFile(auth0, [smsUser('1'), smsUser('2', 'has@example.com')].map((line) => JSON.stringify(line)).join('\n'));
      const firebase = join(dir, 'users.json');
      await writeFile(firebase, JSON.stringify({ users: [{ localId: 'fb-1', email: 'fb@example.com', providerUserInfo: [{ providerId: 'phone' }] }] }));
      const refusals = async (file: string, options: PlanOptions) =>
        (await collect(planSource(file, options))).flatMap((record) =>
          record.items.map((item) => (item.kind === 'rejection' ? [item.sourceId, item.code, item.location.field, item.reason] : [item.kind])),
        );
      const reason = (field: string) =>
        `the user signs in with a code sent to its phone, but field "${field}" holds no number: add the number to the export, or the user needs a password reset`;
      expect(await refusals(auth0, { format: 'auth0' })).toEqual([
        ['sms|1', 'missingPhoneNumber', 'phone_number', reason('phone_number')],
        ['sms|2', 'missingPhoneNumber', 'phone_number', reason('phone_number')],
      ]);
      // Not taken for an email-link user for having an email.
      expect(await refusals(firebase, { format: 'firebase-json' })).toEqual([
        ['fb-1', 'missingPhoneNumber', 'providerUserInfo[0].phoneNumber', reason('providerUserInfo[0].phoneNumber')],
      ]);
    });
  });
});
