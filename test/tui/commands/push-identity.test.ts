import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { SIGNER_KEY, writeFirebaseExport, type FirebaseFixture } from './identity-support.js';
import { jsonOf, notesOf, runCli, summaryText } from './push-support.js';
import { API_KEY } from './push-support.js';
import { VENDOR_SCRYPT_VECTOR, bcryptHashOf } from '../../core-double/known-hashes.js';

async function reportLines(path: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(path, 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('core-migrate push keeps who each user was', () => {
  let core: CoreDouble;
  let dir: string;
  let fixture: FirebaseFixture;
  const push = (...extra: string[]) =>
    runCli(['push', fixture.exportPath, '--core', core.url, '--hash-config', fixture.hashConfigPath, '--report', 'report.ndjson', '--json', ...extra], dir);

  beforeEach(async () => {
    core = await startCoreDouble({ apiKeys: [API_KEY], signerKey: SIGNER_KEY });
    dir = await mkdtemp(join(tmpdir(), 'push-identity-'));
    fixture = await writeFirebaseExport(dir);
  });
  afterEach(async () => {
    await core.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('maps old ids, verifies verified emails, writes the profile, leaves the disabled account out, and counts every step', async () => {
    const run = await push();
    expect(notesOf(run)).toEqual([]);
    expect(run.exitCode).toBe(0);
    const summary = jsonOf(run);
    expect(summary).toMatchObject({ imported: 2, thirdPartyCreated: 2, disabledSkipped: 1, rejected: 0, failed: 0, total: 5 });
    expect(summary['steps']).toEqual({
      mapped: 3,
      verified: 1,
      metadataWritten: 4,
      separateAccounts: 1,
      disabledImported: 0,
      completedAfterResume: 0,
      rolesAssigned: 0,
      rolesCreated: 0,
    });
    expect(summaryText(run)).toContain('Identity: 3 mapped to their old id, 1 emails verified, 4 metadata written, 1 separate accounts');
    expect(summaryText(run)).toContain('= 5 operations');

    const byEmail = (email: string, kind: 'emailPassword' | 'thirdParty') => core.users().find((user) => user.email === email && user.kind === kind);
    // The password user carries the old id; Ada's Google account is a second core user without it.
    expect(byEmail('ada@example.com', 'emailPassword')?.externalId).toBe('fb-ada');
    expect(byEmail('ada@example.com', 'thirdParty')?.externalId).toBeUndefined();
    expect(byEmail('grace@example.com', 'thirdParty')?.externalId).toBe('fb-grace');
    expect(byEmail('linus@example.com', 'emailPassword')?.externalId).toBe('fb-linus');
    expect(core.users().some((user) => user.email === 'mallory@example.com')).toBe(false);

    expect(core.identity.isVerified('fb-ada', 'ada@example.com')).toBe(true);
    expect(core.identity.isVerified('fb-linus', 'linus@example.com')).toBe(false);

    const ada = core.identity.metadataOf('fb-ada');
    expect(ada).toEqual({
      displayName: 'Ada Lovelace',
      photoUrl: 'https://example.com/ada.png',
      signedUpAt: '2020-09-13T12:26:40.000Z',
      lastSignedInAt: '2020-09-13T12:26:41.000Z',
      customClaims: { role: 'admin', level: 3 },
      migratedFrom: { system: 'firebase', sourceId: 'fb-ada' },
    });
    const adaGoogle = byEmail('ada@example.com', 'thirdParty');
    expect(core.identity.metadataOf(adaGoogle?.id ?? '')).toMatchObject({
      migratedFrom: { system: 'firebase', sourceId: 'fb-ada', separateAccountOf: 'fb-ada' },
    });
    for (const user of core.users()) {
      const text = JSON.stringify(core.identity.metadataOf(user.externalId ?? user.id));
      expect(text).not.toContain(VENDOR_SCRYPT_VECTOR.hash);
      expect(text).not.toContain(VENDOR_SCRYPT_VECTOR.salt);
    }

    const report = await reportLines(join(dir, 'report.ndjson'));
    expect(report).toContainEqual(expect.objectContaining({ code: 'disabledAccount', sourceId: 'fb-mallory', email: 'mallory@example.com' }));
    expect(report).toContainEqual(
      expect.objectContaining({ code: 'separateAccount', sourceId: 'fb-ada', operation: 'thirdPartySignInUp', reason: expect.stringContaining('link it') }),
    );
  });

  it('plan counts what the identity steps will do, and --disabled import changes it', async () => {
    const plan = await runCli(['plan', fixture.exportPath, '--hash-config', fixture.hashConfigPath], dir);
    expect(plan.stdout).toMatch(
      /identity +3 keep their old id · 1 verified emails · 4 with metadata to write · 1 separate accounts · disabled: 1 left out, 0 imported/,
    );
    expect(plan.stdout).toContain('disabledAccount (1)');
    const importing = await runCli(['plan', fixture.exportPath, '--hash-config', fixture.hashConfigPath, '--disabled', 'import'], dir);
    expect(importing.stdout).toContain('disabled: 0 left out, 1 imported');
  });

  it('--no-keep-ids, --no-metadata and --no-verify-emails push the contract operations alone', async () => {
    const run = await push('--no-keep-ids', '--no-metadata', '--no-verify-emails');
    expect(run.exitCode).toBe(0);
    expect(jsonOf(run)['steps']).toMatchObject({ mapped: 0, verified: 0, metadataWritten: 0 });
    expect(core.users().every((user) => user.externalId === undefined)).toBe(true);
    expect(core.users().every((user) => Object.keys(core.identity.metadataOf(user.id)).length === 0)).toBe(true);
    // The pre-flight's probe of the call is an empty body the core refuses; no mapping was sent.
    expect(core.requests().some((request) => request.path.includes('/userid/map') && request.method === 'POST' && request.rawBody !== '{}')).toBe(false);
  });

  it('--disabled import imports a disabled account with disabled: true in its metadata, and counts it', async () => {
    const run = await push('--disabled', 'import');
    expect(jsonOf(run)).toMatchObject({ imported: 3, disabledSkipped: 0, steps: expect.objectContaining({ disabledImported: 1 }) });
    expect(core.identity.metadataOf('fb-mallory')).toMatchObject({ disabled: true, migratedFrom: { sourceId: 'fb-mallory' } });
  });

  it('--existing skip leaves a user that was already in the core untouched; --existing replace replaces its hash', async () => {
    const theirs = '$2a$04$abcdefghijklmnopqrstuuVOsr0TBnA6jO1O1xYqxq6wE.wPqHm2';
    const seeded = await fetch(`${core.url}/recipe/user/passwordhash/import`, {
      method: 'POST',
      headers: { 'api-key': API_KEY, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ email: 'linus@example.com', passwordHash: theirs }),
    });
    expect(seeded.status).toBe(200);
    const linusId = core.users()[0]?.id ?? '';
    const graceSeeded = await fetch(`${core.url}/recipe/signinup`, {
      method: 'POST',
      headers: { 'api-key': API_KEY, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ thirdPartyId: 'google', thirdPartyUserId: 'g-grace', email: { id: 'grace@example.com', isVerified: true } }),
    });
    expect(graceSeeded.status).toBe(200);

    const skip = await push();
    expect(skip.exitCode).toBe(0);
    expect(jsonOf(skip)).toMatchObject({ imported: 1, existingUntouched: 1, alreadyExisted: 0, thirdPartyCreated: 1, thirdPartyExisting: 1 });
    // The core offers no lookup by provider: an existing third-party user is known by sign-in-up's answer, and gets no id.
    expect(core.thirdPartyUsers().find((user) => user.thirdPartyUserId === 'g-grace')?.externalId).toBeUndefined();
    const linus = core.users().find((user) => user.email === 'linus@example.com');
    expect(linus).toMatchObject({ id: linusId, passwordHash: theirs });
    expect(linus?.externalId).toBeUndefined();
    expect(core.identity.metadataOf(linusId)).toEqual({});
    expect(summaryText(skip)).toContain('left untouched');
    expect(await reportLines(join(dir, 'report.ndjson'))).toContainEqual(
      expect.objectContaining({ code: 'existingUntouched', email: 'linus@example.com', sourceId: 'fb-linus' }),
    );

    // The same journal: what the first run did is skipped, and the user it left untouched is now sent.
    const replace = await push('--existing', 'replace');
    expect(jsonOf(replace)).toMatchObject({ alreadyExisted: 1, existingUntouched: 0, skipped: 3 });
    expect(core.identity.externalIdOf('fb-linus')).toBe('fb-linus');
    expect(core.emailPasswordUsers().find((user) => user.email === 'linus@example.com')?.passwordHash).not.toBe(theirs);
  });

  it('a core without a feature the push needs stops it before anything is sent, with one sentence; turning the step off runs it', async () => {
    core.identity.setMissing(['mapping']);
    const check = await runCli(['check', '--core', core.url], dir);
    expect(check.stdout).toMatch(/no \(404\)\s+user id mapping/);
    expect(check.stdout).toMatch(/yes\s+email verification/);
    const checkJson = await runCli(['check', '--core', core.url, '--json'], dir);
    expect(JSON.parse(checkJson.stdout)).toMatchObject({
      identityFeatures: { mapping: false, verification: true, metadata: true, lookup: true, removal: true },
    });

    const refused = await push();
    expect(refused.exitCode).toBe(2);
    expect(notesOf(refused)).toHaveLength(1);
    expect(refused.stderr).toContain('has no user id mapping (/recipe/userid/map) (it answered 404)');
    expect(refused.stderr).toContain('--no-keep-ids');
    expect(core.users()).toHaveLength(0);

    const without = await push('--no-keep-ids');
    expect(without.exitCode).toBe(0);
    expect(jsonOf(without)).toMatchObject({ imported: 2, steps: expect.objectContaining({ mapped: 0, verified: 1 }) });

    core.identity.setMissing(['lookup']);
    const noLookup = await push('--journal', 'no-lookup.journal');
    expect(noLookup.exitCode).toBe(2);
    expect(noLookup.stderr).toContain('--existing replace');
  });

  it('Auth0: keeps user_id as exported, user_metadata and app_metadata, and leaves a blocked account out', async () => {
    const users = join(dir, 'auth0-users.ndjson');
    const passwords = join(dir, 'auth0-passwords.ndjson');
    const lines = [
      {
        user_id: 'auth0|a1',
        email: 'ann@example.com',
        email_verified: true,
        name: 'Ann',
        created_at: '2021-01-02T03:04:05.000Z',
        user_metadata: { theme: 'dark' },
        app_metadata: { plan: 'pro' },
      },
      {
        user_id: 'google-oauth2|g7',
        email: 'gus@example.com',
        email_verified: true,
        identities: [{ provider: 'google-oauth2', user_id: 'g7', isSocial: true }],
      },
      { user_id: 'auth0|b2', email: 'bad@example.com', blocked: true },
    ];
    await writeFile(users, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    const hash = await bcryptHashOf('a password');
    const hashes = [
      { _id: { $oid: 'a1' }, email: 'ann@example.com', passwordHash: hash },
      { _id: { $oid: 'b2' }, email: 'bad@example.com', passwordHash: hash },
    ];
    await writeFile(passwords, `${hashes.map((line) => JSON.stringify(line)).join('\n')}\n`);
    const run = await runCli(['push', users, '--auth0-password-file', passwords, '--core', core.url, '--report', 'auth0.report', '--json'], dir);
    expect(notesOf(run)).toEqual([]);
    expect(jsonOf(run)).toMatchObject({ imported: 1, thirdPartyCreated: 1, disabledSkipped: 1, total: 3 });
    expect(core.identity.externalIdOf('auth0|a1')).toBe('auth0|a1');
    expect(core.identity.externalIdOf('google-oauth2|g7')).toBe('google-oauth2|g7');
    expect(core.identity.isVerified('auth0|a1', 'ann@example.com')).toBe(true);
    expect(core.identity.metadataOf('auth0|a1')).toEqual({
      displayName: 'Ann',
      signedUpAt: '2021-01-02T03:04:05.000Z',
      userMetadata: { theme: 'dark' },
      appMetadata: { plan: 'pro' },
      migratedFrom: { system: 'auth0', sourceId: 'auth0|a1' },
    });
    expect(core.users().some((user) => user.email === 'bad@example.com')).toBe(false);
  });

  it('generic exports: the mapped id column is kept as the id, and isVerified verifies', async () => {
    const source = join(dir, 'users.ndjson');
    const hash = await bcryptHashOf('a password');
    await writeFile(source, `${JSON.stringify({ uid: 'legacy-17', email: 'eve@example.com', isVerified: 'yes', passwordHash: hash })}\n`);
    const run = await runCli(['push', source, '--map', 'sourceId=uid', '--core', core.url, '--json'], dir);
    expect(run.exitCode).toBe(0);
    expect(jsonOf(run)).toMatchObject({ imported: 1, steps: expect.objectContaining({ mapped: 1, verified: 1, metadataWritten: 1 }) });
    expect(core.identity.externalIdOf('legacy-17')).toBe('legacy-17');
    expect(core.identity.isVerified('legacy-17', 'eve@example.com')).toBe(true);
    expect(core.identity.metadataOf('legacy-17')).toEqual({ migratedFrom: { system: 'generic export', sourceId: 'legacy-17' } });
  });
});
