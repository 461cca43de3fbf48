import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandLineOf, formatCommandLine } from '../../../core-client/src/settings/command-line.js';
import { planOptionsOf } from '../../../core-client/src/run/plan-options.js';
import { resolveRunPaths } from '../../../core-client/src/settings/run-paths.js';
import { Problem } from '../../../core-client/src/problem.js';
import { describeProblem, parseSettings, type SettingProblem } from '../../../core-client/src/settings/setting-problem.js';
import { settingFlags, settingName } from '../../../core-client/src/settings/setting-flags.js';
import { defaultSettings, MigrationSettingsSchema, type MigrationSettings } from '../../../core-client/src/settings/settings.js';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'core-migrate-settings-'));
  await writeFile(join(folder, 'roles.json'), '{"admin":"all"}');
  await writeFile(join(folder, 'hash_config.txt'), 'hash_config { algorithm: SCRYPT, base64_salt_separator: Bw==, rounds: 99, mem_cost: 14 }');
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

function settings(input: Record<string, unknown>): MigrationSettings {
  return MigrationSettingsSchema.parse(input);
}

describe('the settings of a run', () => {
  it('have one set of defaults: adaptive concurrency, identity kept, existing users untouched, first wins', () => {
    expect(defaultSettings.concurrency).toBeUndefined();
    expect(defaultSettings).toMatchObject({
      keepIds: true,
      verifyEmails: true,
      metadata: true,
      existing: 'skip',
      duplicates: 'first-wins',
      disabled: 'skip',
      dryRun: false,
      core: [],
    });
  });

  it('take what both faces give: flag values, or fields where empty means unset and a number is typed as text', () => {
    expect(settings({ concurrency: '8', journal: '', format: 'auto', core: 'http://127.0.0.1:3567' })).toMatchObject({
      concurrency: 8,
      journal: undefined,
      format: undefined,
      core: ['http://127.0.0.1:3567'],
    });
  });

  it("refuse a value beyond its limits with a sentence naming the setting in each face's terms", () => {
    const errors = parseSettings({ concurrency: '2000', duplicates: 'sometimes' as never });
    expect(Array.isArray(errors)).toBe(true);
    const concurrency = (errors as SettingProblem[]).find((error) => error.setting === 'concurrency');
    expect(concurrency && describeProblem(concurrency, 'flags')).toBe('--concurrency must be a whole number from 1 to 1024, not "2000"');
    expect(concurrency && describeProblem(concurrency, 'app')).toBe('concurrency must be a whole number from 1 to 1024, not "2000"');
    expect((errors as SettingProblem[]).map((error) => error.setting)).toContain('duplicates');
  });

  it('are each named by one flag, and the table covers every setting', () => {
    const keys = Object.keys(MigrationSettingsSchema.shape).sort();
    expect(settingFlags.map((entry) => entry.key).sort()).toEqual(keys);
    expect(settingName('keepIds', 'flags')).toBe('--no-keep-ids');
    expect(settingName('auth0PasswordFile', 'app')).toBe('Auth0 password file');
  });
});

describe('the command line that repeats a run', () => {
  it('holds the export and every setting that differs from its default, with lists repeated and quoting where needed', () => {
    const run = settings({
      file: 'my users.json',
      core: ['http://a:3567', 'http://b:3567'],
      stripPrefix: ['re:^x\\$'],
      providerMap: ['oidc.acme=acme'],
      keepIds: false,
      dryRun: true,
      existing: 'replace',
      concurrency: 4,
    });
    const args = commandLineOf(run);
    expect(args).toEqual([
      'push',
      'my users.json',
      '--provider-map',
      'oidc.acme=acme',
      '--strip-prefix',
      're:^x\\$',
      '--core',
      'http://a:3567',
      '--core',
      'http://b:3567',
      '--concurrency',
      '4',
      '--dry-run',
      '--no-keep-ids',
      '--existing',
      'replace',
    ]);
    expect(formatCommandLine('core-migrate', args)).toBe(
      "core-migrate push 'my users.json' --provider-map oidc.acme=acme --strip-prefix 're:^x\\$' --core http://a:3567 --core http://b:3567 --concurrency 4 --dry-run --no-keep-ids --existing replace",
    );
    expect(commandLineOf(run, 'plan')).toEqual(['plan', 'my users.json', '--provider-map', 'oidc.acme=acme', '--strip-prefix', 're:^x\\$']);
  });
});

describe('the files of a run', () => {
  it("put the report in the command's folder, named after the export, and the journal beside the report", () => {
    expect(resolveRunPaths(settings({ file: 'exports/users.json' }), '/work')).toMatchObject({
      sourcePath: '/work/exports/users.json',
      reportPath: '/work/users.json.push-report.ndjson',
      journalPath: '/work/users.json.push-journal.ndjson',
    });
    expect(resolveRunPaths(settings({ file: 'users.json', report: 'out/r.ndjson' }), '/work').journalPath).toBe('/work/out/users.json.push-journal.ndjson');
  });
});

describe('the plan options of the settings', () => {
  it('carry the passwordless settings, the default region in capitals', async () => {
    const options = await planOptionsOf(settings({ file: 'users.json', defaultRegion: 'gb', emailLink: 'reset', passwordless: false }), { cwd: folder });
    expect(options).toMatchObject({ defaultRegion: 'GB', emailLink: 'reset', passwordless: false });
    expect(await planOptionsOf(settings({ file: 'users.json' }), { cwd: folder })).toMatchObject({ emailLink: 'passwordless', passwordless: true });
  });

  it('name the setting that cannot be used', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ map: ['email'] }, 'map', /must look like field=column/],
      [{ map: ['colour=blue'] }, 'map', /unknown field "colour"/],
      [{ stripPrefix: ['re:('] }, 'stripPrefix', /./],
      [{ providerMap: ['nothing'] }, 'providerMap', /must look like/],
      [{ hashConfig: 'missing.txt' }, 'hashConfig', /cannot read the file \(ENOENT\)/],
      [{ hashConfig: 'hash_config.txt' }, 'hashConfig', /r=99, m=14 is 198 MiB, above 128 MiB/],
      [{ defaultRegion: 'Narnia' }, 'defaultRegion', /^--default-region "Narnia" is not a country the phone number rules know: give its ISO 3166 code/],
    ];
    for (const [input, setting, message] of cases) {
      const result = await planOptionsOf(settings({ file: 'users.json', ...input }), { cwd: folder });
      expect(result, JSON.stringify(input)).toBeInstanceOf(Problem);
      expect((result as SettingProblem).setting).toBe(setting);
      expect(describeProblem(result as SettingProblem, 'flags')).toMatch(message);
    }
  });

  it('refuse a role map entry and a roles file that cannot be read as roles, each with its code, naming the entry or the file', async () => {
    const roles = { rolesFrom: 'customClaims.roles', roles: true };
    const badMap = await planOptionsOf(settings({ file: 'users.json', ...roles, roleMap: ['=editor'] }), { cwd: folder });
    expect(badMap).toMatchObject({ code: 'roleMapInvalid', kind: 'setting', setting: 'roleMap' });
    expect(describeProblem(badMap as SettingProblem, 'flags')).toMatch(/^--role-map "=editor" must look like old=new/);
    const badFile = await planOptionsOf(settings({ file: 'users.json', ...roles, rolesFile: 'roles.json' }), { cwd: folder });
    expect(badFile).toMatchObject({ code: 'rolesFileInvalid', kind: 'setting', setting: 'rolesFile' });
    expect(describeProblem(badFile as SettingProblem, 'flags')).toContain(`--roles-file ${join(folder, 'roles.json')} must be a JSON object of role`);
  });
});
