import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../core-client/push/engine-support.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { SIGNER_KEY } from './identity-support.js';
import { API_KEY, jsonOf, runCli } from './push-support.js';

const BIN = fileURLToPath(new URL('../../../tui/bin/core-migrate.js', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../../fixtures/exports/passwordless/', import.meta.url));

/** The double's passwordless users as `old id → login`, the way an operator would check them. */
function passwordlessLogins(core: CoreDouble): Record<string, string> {
  const logins: Record<string, string> = {};
  for (const user of core.passwordlessUsers()) logins[core.identity.externalIdOf(user.id) ?? user.id] = user.phoneNumber ?? user.email ?? '';
  return logins;
}

/**
 * Issue 27 end to end with the binary: exports whose users sign in with a phone number or an email link arrive as the
 * core's passwordless users, a kill between a code and its consume costs nobody, a newer export's changed number goes
 * over, and a rollback removes them.
 */
describe('push of phone-number and email-link users', () => {
  let core: CoreDouble;
  let dir: string;
  const push = (file: string, ...extra: string[]) => [
    'push',
    file,
    '--core',
    core.url,
    '--journal',
    join(dir, 'push.journal'),
    '--report',
    join(dir, 'report.ndjson'),
    ...extra,
  ];

  beforeEach(async () => {
    core = await startCoreDouble({ apiKeys: [API_KEY], signerKey: SIGNER_KEY });
    dir = await mkdtemp(join(tmpdir(), 'push-passwordless-'));
    for (const name of ['firebase-users.json', 'firebase-users.csv', 'auth0-users.ndjson', 'hash_config.txt'])
      await copyFile(join(FIXTURES, name), join(dir, name));
  });
  afterEach(async () => {
    await core.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('Firebase JSON: phone-only, email-link and a password user with a phone login; bad and duplicate numbers refused before sending', async () => {
    const run = await runCli([...push('firebase-users.json', '--hash-config', 'hash_config.txt', '--default-region', 'GB', '--json')], dir, {
      CORE_API_KEY: API_KEY,
    });
    // Two records refused by the plan: exit 1, every other record migrated.
    expect(run.exitCode, run.stderr).toBe(1);
    expect(jsonOf(run)).toMatchObject({ imported: 1, passwordlessCreated: 5, rejected: 2, failed: 0 });
    const logins = passwordlessLogins(core);
    expect(logins).toMatchObject({ 'pl-1': '+14155550123', 'pl-2': 'link@example.com', 'pl-4': '+447700900456', 'pl-7': '+16505550100' });
    // The password user keeps the old id; its phone login is a separate user (the core's own id), named in its metadata.
    expect(Object.values(logins)).toHaveLength(5);
    expect(Object.values(logins)).toContain('+447700900123');
    const separate = core.passwordlessUsers().find((user) => user.phoneNumber === '+447700900123');
    expect(core.identity.metadataOf(separate?.id ?? '')).toMatchObject({ migratedFrom: { separateAccountOf: 'pl-3' } });
    expect(core.users().find((user) => user.kind === 'emailPassword')?.email).toBe('both@example.com');
    const report = await readFile(join(dir, 'report.ndjson'), 'utf8');
    expect(report).toMatch(/"code":"invalidPhoneNumber"/);
    expect(report).toMatch(/"code":"duplicatePhoneNumber"/);
    // No code's handle is written anywhere.
    for (const file of ['push.journal', 'report.ndjson'])
      expect(await readFile(join(dir, file), 'utf8')).not.toMatch(/linkCode|preAuthSessionId|userInputCode/);
    expect(core.passwordlessCodes()).toEqual([]);
  });

  it('Firebase CSV and Auth0 sms/email users', async () => {
    const csv = await runCli([...push('firebase-users.csv', '--hash-config', 'hash_config.txt', '--default-region', 'US', '--json')], dir, {
      CORE_API_KEY: API_KEY,
    });
    expect(jsonOf(csv), csv.stderr).toMatchObject({ passwordlessCreated: 4, imported: 1, failed: 0 });
    expect(Object.values(passwordlessLogins(core)).sort()).toEqual(['+14155550199', '+442079460018', '+16505550142', 'csv-link@example.com'].sort());

    const auth0 = await runCli(['push', 'auth0-users.ndjson', '--core', core.url, '--journal', join(dir, 'auth0.journal'), '--json'], dir, {
      CORE_API_KEY: API_KEY,
    });
    expect(jsonOf(auth0), auth0.stderr).toMatchObject({ failed: 0 });
    const logins = passwordlessLogins(core);
    expect(logins['sms|5f1a']).toBe('+14155550177');
    expect(logins['email|6a2b']).toBe('otp@example.com');
  });

  it('a phone user whose record has an email and no password keeps the email in its metadata and a report line', async () => {
    const users = [
      { localId: 'pe-1', email: 'Phone.Mail@Example.com', phoneNumber: '+14155550161', displayName: 'Pat', providerUserInfo: [] },
      // The email of a record with a password is its password user's login: nothing to keep beside the phone user.
      { localId: 'pe-2', email: 'pw@example.com', passwordHash: '$2a$04$Ysj6rkrK6ezLcSgDG3MSsucsWLoW9zxo743ap1duUszVf/Ps1Q7Fi', phoneNumber: '+14155550162' },
    ];
    await writeFile(join(dir, 'phone-email.json'), JSON.stringify({ users }));
    const run = await runCli([...push('phone-email.json', '--json')], dir, { CORE_API_KEY: API_KEY });
    expect(jsonOf(run), run.stderr).toMatchObject({ passwordlessCreated: 2, imported: 1, failed: 0 });
    expect(core.identity.metadataOf('pe-1')).toMatchObject({ email: 'phone.mail@example.com', phoneNumber: '+14155550161', displayName: 'Pat' });
    const separate = core.passwordlessUsers().find((user) => user.phoneNumber === '+14155550162');
    expect(core.identity.metadataOf(separate?.id ?? '')).not.toHaveProperty('email');
    const lines = (await readFile(join(dir, 'report.ndjson'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { code: string });
    expect(lines.filter((line) => line.code === 'emailNotLogin')).toEqual([
      expect.objectContaining({ sourceId: 'pe-1', email: 'phone.mail@example.com', reason: expect.stringContaining('kept in its metadata as "email"') }),
    ]);
  });

  it('a push killed (SIGKILL) between a code and its consume: the resume removes the code and creates the user once', async () => {
    await writeFile(join(dir, 'phones.json'), JSON.stringify({ users: [{ localId: 'k-1', phoneNumber: '+14155550111', providerUserInfo: [] }] }));
    core.faults.holdPath('/recipe/signinup/code/consume', 'POST', 'preAuthSessionId');
    const child = spawn(process.execPath, [BIN, ...push('phones.json')], {
      cwd: dir,
      env: { ...process.env, CORE_API_KEY: API_KEY },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = once(child, 'exit');
    await waitFor(() => core.faults.heldCount() >= 1, 'the consume request', 20_000);
    child.kill('SIGKILL');
    await exited;
    // The held consume's client is gone: the core never acts on it, so a code is left and no user.
    core.faults.releaseHeld();
    expect(core.passwordlessCodes()).toHaveLength(1);
    expect(core.passwordlessUsers()).toEqual([]);

    const resumed = await runCli([...push('phones.json', '--json')], dir, { CORE_API_KEY: API_KEY });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(jsonOf(resumed)).toMatchObject({ passwordlessCreated: 1, failed: 0 });
    expect(passwordlessLogins(core)).toEqual({ 'k-1': '+14155550111' });
    expect(core.passwordlessCodes()).toEqual([]);
  });

  it('a sync brings a changed number over, keeping the old id; a rollback removes the passwordless users it created', async () => {
    const users = (phone: string) =>
      JSON.stringify({
        users: [
          { localId: 's-1', phoneNumber: phone, displayName: 'Sam', providerUserInfo: [] },
          { localId: 's-2', email: 'sam-link@example.com', providerUserInfo: [] },
        ],
      });
    await writeFile(join(dir, 'v1.json'), users('+14155550133'));
    const first = await runCli([...push('v1.json', '--json')], dir, { CORE_API_KEY: API_KEY });
    expect(jsonOf(first), first.stderr).toMatchObject({ passwordlessCreated: 2 });

    await writeFile(join(dir, 'v2.json'), users('+14155550144'));
    const sync = await runCli(['sync', 'v2.json', '--core', core.url, '--journal', join(dir, 'push.journal'), '--json'], dir, { CORE_API_KEY: API_KEY });
    expect(sync.exitCode, sync.stderr).toBe(0);
    expect(jsonOf(sync)).toMatchObject({ updated: 1, failed: 0 });
    expect(passwordlessLogins(core)).toEqual({ 's-1': '+14155550144', 's-2': 'sam-link@example.com' });

    const rollback = await runCli(['rollback', '--journal', join(dir, 'push.journal'), '--core', core.url, '--json'], dir, { CORE_API_KEY: API_KEY });
    expect(rollback.exitCode, rollback.stderr).toBe(0);
    expect(jsonOf(rollback)).toMatchObject({ removed: 2, failed: 0 });
    expect(core.passwordlessUsers()).toEqual([]);
  });
});
