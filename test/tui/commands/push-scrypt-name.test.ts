import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../core-client/src/settings/verdict.js';
import { VENDOR_SCRYPT_VECTOR } from '../../core-double/known-hashes.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { SIGNER_KEY, writeFirebaseExport } from './identity-support.js';
import { API_KEY, isTenantProbe, jsonOf, runCli, signIn } from './push-support.js';

/**
 * A core in the field imports the scrypt variant as `firebase_scrypt` and answers `Unsupported password hashing
 * algorithm` to the contract's `vendor_scrypt` (issue 38; ../shared/spec/core-transcripts/scrypt-names.json). The
 * pre-flight learns the name; the push sends it; the users sign in with their old passwords.
 */
let field: CoreDouble;
let contract: CoreDouble;
let dir: string;
const firebase = ['users.json', '--hash-config', 'hash_config.txt'];

beforeAll(async () => {
  [field, contract, dir] = await Promise.all([
    startCoreDouble({ apiKeys: [API_KEY], signerKey: SIGNER_KEY, scryptAlgorithmName: 'firebase_scrypt' }),
    startCoreDouble({ apiKeys: [API_KEY], signerKey: SIGNER_KEY }),
    mkdtemp(join(tmpdir(), 'core-migrate-scrypt-name-')),
  ]);
  await writeFirebaseExport(dir, 3);
});

afterAll(async () => {
  await Promise.all([field.close(), contract.close()]);
  await rm(dir, { recursive: true, force: true });
});

/** The names the scrypt-variant users were imported under (the pre-flight's probes left out). */
function namesSent(core: CoreDouble): string[] {
  return core
    .requests()
    .filter((request) => request.path.endsWith('/passwordhash/import') && !isTenantProbe(request))
    .map((request) => String((request.body as { hashingAlgorithm?: unknown }).hashingAlgorithm));
}

describe('the scrypt variant under the name the core takes', () => {
  it('check names it', async () => {
    const run = await runCli(['check', '--core', field.url], dir);
    expect(run.exitCode).toBe(ExitCode.ok);
    expect(run.stdout).toContain('The core imports the scrypt variant as "firebase_scrypt" (it does not know the contract\'s "vendor_scrypt").');
    const json = await runCli(['check', '--core', field.url, '--json'], dir);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, scryptAlgorithm: 'firebase_scrypt' });
  });

  it('a push to a core that takes only firebase_scrypt imports every scrypt-variant user, and each signs in', async () => {
    const run = await runCli(['push', ...firebase, '--core', field.url, '--json', '--journal', 'field.journal'], dir);
    expect(run.exitCode, run.stderr).toBe(ExitCode.ok);
    expect(jsonOf(run)).toMatchObject({ failed: 0 });
    const names = namesSent(field);
    expect(names.length).toBeGreaterThanOrEqual(5);
    expect(new Set(names)).toEqual(new Set(['firebase_scrypt']));
    for (const email of ['ada@example.com', 'linus@example.com', 'user1@example.com', 'user3@example.com'])
      expect(await signIn(field, email, VENDOR_SCRYPT_VECTOR.password)).toBe('OK');
  });

  it('a push to a core that takes the contract name is unchanged: vendor_scrypt', async () => {
    const run = await runCli(['push', ...firebase, '--core', contract.url, '--json', '--journal', 'contract.journal'], dir);
    expect(run.exitCode, run.stderr).toBe(ExitCode.ok);
    expect(new Set(namesSent(contract))).toEqual(new Set(['vendor_scrypt']));
    expect(await signIn(contract, 'ada@example.com', VENDOR_SCRYPT_VECTOR.password)).toBe('OK');
  });
});
