import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MigrationSettingsSchema } from '../../../core-client/src/settings/settings.js';
import { checkSettingFiles } from '../../../tui/src/app/field-checks.js';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'core-migrate-field-checks-'));
  await writeFile(join(folder, 'not-roles.json'), '{"admin":"all"}');
  await writeFile(join(folder, 'not-json.json'), '{admin');
  await writeFile(join(folder, 'roles.json'), '{"admin":["users:write"]}');
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("the app's check of the files its fields name", () => {
  it("words a roles file that is not roles as the run would refuse it, by the field's label and the file, never a bare message", async () => {
    const problemOf = async (rolesFile: string) =>
      (await checkSettingFiles(MigrationSettingsSchema.parse({ rolesFrom: 'customClaims.roles', rolesFile }), folder)).problems.rolesFile;
    expect(await problemOf('not-roles.json')).toMatch(
      new RegExp(`^permissions file ${join(folder, 'not-roles.json')} must be a JSON object of role → list of permissions.* at admin`),
    );
    expect(await problemOf('not-json.json')).toMatch(new RegExp(`^permissions file ${join(folder, 'not-json.json')} is not valid JSON \\(`));
    expect(await problemOf('roles.json')).toBeUndefined();
  });
});
