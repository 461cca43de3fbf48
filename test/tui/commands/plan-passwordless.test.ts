import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../../tui/src/cli.js';
import { captureIO } from './captured-io.js';

const exports = join(import.meta.dirname, '../../fixtures/exports/passwordless');
const hashConfig = join(exports, 'hash_config.txt');

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const captured = captureIO();
  const code = await main(argv, captured.io);
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

describe('core-migrate plan: phone and email-link users', () => {
  it('counts passwordless users by kind and names each refused number with its record and field', async () => {
    const file = join(exports, 'firebase-users.json');
    const result = await run(['plan', file, '--hash-config', hashConfig]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('operations            8 = 1 password imports + 0 third-party sign-in-ups + 4 passwordless sign-in-ups + 3 rejected');
    expect(result.stdout).toContain('passwordless users    phone 3 · email 1');
    expect(result.stdout).toContain(
      `${file}, record #3, field "phoneNumber": "07700 900456" has no country code: write it as +<country code><number>, or name the country of such numbers with --default-region (e.g. GB)`,
    );
    expect(result.stdout).toContain(`${file}, record #4, field "phoneNumber": "call me maybe" is not a phone number`);
    expect(result.stdout).toContain(
      `duplicatePhoneNumber (1)\n      ${file}, record #5: phone number +14155550123: duplicate of ${file}, record #0, which is imported instead`,
    );
  });

  it('--default-region reads national numbers; --json shows the counts by kind', async () => {
    const result = await run(['plan', join(exports, 'firebase-users.csv'), '--hash-config', hashConfig, '--default-region', 'us', '--json']);
    const summary = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({ passwordImports: 1, passwordlessSignInUps: 4, passwordlessByLogin: { phone: 3, email: 1 }, duplicates: 1 });
  });

  it('an unknown --default-region is a setting problem naming the flag: exit 2', async () => {
    const result = await run(['plan', join(exports, 'firebase-users.json'), '--default-region', 'Atlantis']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--default-region "Atlantis" is not a country the phone number rules know');
  });

  it('--email-link reset and --no-passwordless list the users for a reset in the report', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'plan-passwordless-'));
    const report = join(folder, 'report.ndjson');
    const reset = await run(['plan', join(exports, 'auth0-users.ndjson'), '--format', 'auth0', '--email-link', 'reset', '--json']);
    expect(JSON.parse(reset.stdout)).toMatchObject({ passwordlessByLogin: { phone: 2, email: 0 }, withoutCredentials: 3 });
    const off = await run(['plan', join(exports, 'auth0-users.ndjson'), '--format', 'auth0', '--no-passwordless', '--report', report]);
    expect(off.code).toBe(1);
    expect(off.stdout).toContain('passwordless users    none');
    const lines = (await readFile(report, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, string>);
    expect(lines.filter((line) => line['code'] === 'passwordlessLeftOut').map((line) => [line['sourceId'], line['operation']])).toEqual([
      ['sms|5f1a', 'passwordlessSignInUp'],
      ['email|6a2b', 'passwordlessSignInUp'],
      ['sms|7c3d', 'passwordlessSignInUp'],
      ['email|8d4e', 'passwordlessSignInUp'],
    ]);
  });
});
