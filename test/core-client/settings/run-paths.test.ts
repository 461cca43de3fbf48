import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileRoles, fileRoleWords, settingOfRole } from '../../../core-client/src/files/file-roles.js';
import { checkOutputPaths } from '../../../core-client/src/files/output-paths.js';
import { roleOfSetting } from '../../../core-client/src/settings/run-paths.js';

describe('the files of a run, by identifier', () => {
  it('each has its words for sentences, and a file a setting names leads back to that setting', () => {
    for (const role of fileRoles) {
      expect(fileRoleWords[role]).toMatch(/^the /);
      const setting = settingOfRole(role);
      if (setting !== undefined) expect(roleOfSetting(setting)).toBe(role);
    }
    expect(settingOfRole('credentials')).toBe('verifyCredentials');
    expect(roleOfSetting('auth0PasswordFile')).toBe('auth0PasswordFile');
    expect(settingOfRole('journalLock')).toBeUndefined();
  });

  it('a refused output is a problem: it carries its identifier and its setting, and its sentence the words', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'core-migrate-roles-'));
    try {
      const path = join(folder, 'users.ndjson');
      await writeFile(path, '');
      const refused = await checkOutputPaths([{ role: 'export', path }], [{ role: 'report', path }]);
      expect(refused?.role).toBe('report');
      expect(settingOfRole(refused?.role)).toBe('report');
      expect([refused?.code, refused?.kind, refused?.setting]).toEqual(['outputRefused', 'setting', 'report']);
      expect(refused?.message).toMatch(/^The report \S+ would overwrite the export /);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
