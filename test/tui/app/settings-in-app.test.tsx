import { appTestBed } from '../support/app-bed.js';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { MigrationSettingsInput } from '../../../core-client/src/settings/settings.js';
import { type AppResult } from '../../../tui/src/terminal-app.js';
import { keys } from '../keys.js';
import { coreClientOf, ROLES_FILE, writeFirebaseRolesExport } from '../commands/roles-support.js';
import { flat, focusOn, focusedLine, press, waitFor, type Terminal } from '../support/terminal.js';

const fixtures = fileURLToPath(new URL('../../fixtures/exports/', import.meta.url));
const bed = appTestBed('settings-in-app');

function open(input: MigrationSettingsInput, onDone?: (result: AppResult) => void): Terminal {
  return bed.open(input, { size: { columns: 100, rows: 30 }, ...(onDone === undefined ? {} : { onDone }) });
}

async function toSource(app: Terminal): Promise<void> {
  await waitFor(app, 'Where is the core?');
  await press(app, keys.enter);
  await waitFor(app, 'Source]');
}

/** Review, confirm, y: the push runs and its summary shows. */
async function pushFromReview(app: Terminal): Promise<void> {
  await waitFor(app, 'Nothing is sent until you confirm.');
  await press(app, keys.enter);
  await waitFor(app, '(y/n)');
  await press(app, 'y');
  await waitFor(app, (frame) => frame.includes('Push finished.') || frame.includes('Push stopped early.'), 20_000);
}

describe('every push setting in the app', () => {
  it('an Auth0 export: the password-hash file is asked for once the format is known, and joined', async () => {
    await copyFile(join(fixtures, 'auth0/users.ndjson'), join(bed.folder(), 'users.ndjson'));
    await copyFile(join(fixtures, 'auth0/passwords.ndjson'), join(bed.folder(), 'passwords.ndjson'));
    let result: AppResult | undefined;
    const app = open({ file: 'users.ndjson' }, (done) => (result = done));
    await toSource(app);
    await waitFor(app, 'detected: auth0');
    await focusOn(app, 'Auth0 password file');
    await press(app, 'passwords.ndjson', keys.enter);
    await waitFor(app, 'Hash families in the file');
    expect(app.lastFrame()).toMatch(/bcrypt +\d/);
    await press(app, keys.enter, keys.enter);
    await pushFromReview(app);
    expect(
      bed
        .core()
        .emailPasswordUsers()
        .map((user) => user.email),
    ).toContain('ada@example.com');
    await press(app, 'q');
    expect(result?.command?.line).toContain('--auth0-password-file passwords.ndjson');
  }, 30_000);

  it("a generic export: each field mapped to one of the file's own columns, offered by the app", async () => {
    await copyFile(join(fixtures, 'generic/mapped.csv'), join(bed.folder(), 'mapped.csv'));
    let result: AppResult | undefined;
    const app = open({ file: 'mapped.csv' }, (done) => (result = done));
    await toSource(app);
    await waitFor(app, 'detected: csv');
    const choose = async (field: string, column: string) => {
      await focusOn(app, field);
      for (let step = 0; step < 10 && !focusedLine(app.lastFrame()).includes(`‹ ${column} ›`); step += 1) await press(app, keys.right);
      expect(focusedLine(app.lastFrame())).toContain(`‹ ${column} ›`);
    };
    await choose('email', 'E-Mail');
    await choose('passwordHash', 'Hash');
    await choose('isVerified', 'Verified');
    await choose('thirdPartyId', 'Provider');
    await choose('thirdPartyUserId', 'Provider User');
    await choose('sourceId', 'Legacy ID');
    await press(app, keys.enter);
    await waitFor(app, 'Hash families in the file');
    await press(app, keys.enter, keys.enter);
    await pushFromReview(app);
    expect(
      bed
        .core()
        .emailPasswordUsers()
        .map((user) => user.email),
    ).toEqual(['ada@example.com']);
    expect(
      bed
        .core()
        .thirdPartyUsers()
        .map((user) => user.thirdPartyId),
    ).toEqual(['github']);
    expect(bed.core().identity.externalIdOf(bed.core().emailPasswordUsers()[0]?.id ?? '')).toBe('17');
    await press(app, 'q');
    expect(result?.command?.line).toContain('--map email=E-Mail');
    expect(result?.command?.line).toContain("--map 'sourceId=Legacy ID'");
  }, 30_000);

  it('an unmapped provider gets a field of its own; the name typed there makes its accounts importable', async () => {
    const user = (id: string, providerId: string) => ({
      localId: id,
      email: `${id}@example.com`,
      emailVerified: true,
      providerUserInfo: [{ providerId, rawId: `raw-${id}`, email: `${id}@example.com` }],
    });
    await writeFile(join(bed.folder(), 'users.json'), JSON.stringify({ users: [user('u1', 'oidc.acme'), user('u2', 'oidc.acme'), user('u3', 'google.com')] }));
    const app = open({ file: 'users.json' });
    await toSource(app);
    await press(app, keys.enter);
    await waitFor(app, 'provider oidc.acme');
    expect(flat(app.lastFrame())).toContain('1 provider(s) have no short name');
    expect(app.lastFrame()).toContain('Source]');
    await focusOn(app, 'provider oidc.acme');
    await press(app, 'acme');
    await waitFor(app, (frame) => frame.includes('✓ 3 records') && !frame.includes('have no short name'));
    await press(app, keys.enter);
    await waitFor(app, 'Hash families');
    await press(app, keys.enter, keys.enter);
    await pushFromReview(app);
    expect(
      bed
        .core()
        .thirdPartyUsers()
        .map((created) => created.thirdPartyId)
        .sort(),
    ).toEqual(['acme', 'acme', 'google']);
  }, 30_000);

  it('a pasted hash_config that does not parse says why on its line; one that parses fills the fields', async () => {
    const app = open({ file: 'users.json' });
    await toSource(app);
    await press(app, keys.enter);
    await waitFor(app, 'Hash families in the file');
    expect(app.lastFrame()).not.toMatch(/vendor_scrypt +3/);
    app.paste('hash_config {\n  algorithm: SCRYPT,\n  base64_salt_separator: Bw==,\n  rounds: 99,\n  mem_cost: 14,\n}');
    await waitFor(app, 'the pasted hash_config cannot be used');
    expect(flat(app.lastFrame())).toMatch(/✗ .*r=99, m=14 is 198 MiB, above 128 MiB/);
    const block = `hash_config {\n  algorithm: SCRYPT,\n  base64_signer_key: ${bed.signerKey.toString('base64')},\n  base64_salt_separator: Bw==,\n  rounds: 8,\n  mem_cost: 14,\n}`;
    app.paste(block);
    await waitFor(app, 'hash_config read');
    await waitFor(app, (frame) => /vendor_scrypt +3/.test(frame));
    expect(app.lastFrame()).not.toContain(bed.signerKey.toString('base64'));
    // The known-password check uses the pasted signer key.
    await focusOn(app, 'check email');
    await press(app, 'ada@example.com', keys.down, 'analytical-engine', keys.enter);
    await waitFor(app, '✓ the password matches ada@example.com (vendor_scrypt)');
  }, 30_000);

  it('identity options change what the push does: without old ids no mapping is written', async () => {
    const app = open({ file: 'users.json', hashConfig: 'hash_config.txt' });
    await toSource(app);
    await press(app, keys.enter);
    await waitFor(app, 'Hash families in the file');
    await press(app, keys.enter);
    await waitFor(app, 'Identity]');
    await press(app, keys.right);
    expect(focusedLine(app.lastFrame())).toContain('no: users get new ids');
    await focusOn(app, 'disabled accounts');
    await press(app, keys.right);
    expect(focusedLine(app.lastFrame())).toContain('import');
    await press(app, keys.enter);
    await pushFromReview(app);
    expect(
      bed
        .core()
        .requests()
        // The pre-flight's probe of the call is an empty body the core refuses: no mapping.
        .filter((request) => request.path.endsWith('/recipe/userid/map') && request.rawBody !== '{}'),
    ).toEqual([]);
    expect(bed.core().emailPasswordUsers().length).toBeGreaterThan(0);
  }, 30_000);
});

describe('roles in the app (issue 21)', () => {
  it('the Identity screen shows where the records keep roles; the path and the permissions file typed there reach the core', async () => {
    const folder = join(bed.folder(), 'roles');
    await mkdir(folder);
    await writeFirebaseRolesExport(folder, { 'fb-ann': { roles: ['admin', 'editors'] }, 'fb-bob': { roles: 'viewer' } });
    let result: AppResult | undefined;
    const app = open({ file: 'roles/users.json', hashConfig: 'roles/hash_config.txt' }, (done) => (result = done));
    await toSource(app);
    await press(app, keys.enter);
    await waitFor(app, 'Hash families in the file');
    await press(app, keys.enter);
    await waitFor(app, 'Identity]');
    await waitFor(app, 'found at customClaims.roles in 2 record(s)');
    expect(flat(app.lastFrame())).toContain('no roles are given until a roles path names one of these');
    await focusOn(app, 'roles path');
    await press(app, 'customClaims.roles');
    await focusOn(app, 'role renames');
    await press(app, 'editors=editor');
    await focusOn(app, 'permissions file');
    await press(app, 'roles/roles.json');
    await waitFor(app, 'from customClaims.roles: admin 1');
    await press(app, keys.enter);
    await pushFromReview(app);
    const client = coreClientOf(bed.core(), bed.apiKey);
    try {
      expect(await client.userRoles('fb-ann')).toEqual(['admin', 'editor']);
      expect(await client.rolePermissions('editor')).toEqual(ROLES_FILE.editor);
    } finally {
      await client.close();
    }
    await press(app, 'q');
    expect(result?.command?.line).toContain('--roles-from customClaims.roles --role-map editors=editor --roles-file roles/roles.json');
  }, 30_000);
});
