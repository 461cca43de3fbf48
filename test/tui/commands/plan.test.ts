import { copyFile, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../../tui/src/cli.js';
import { captureIO } from './captured-io.js';

const fixtures = join(import.meta.dirname, '../../fixtures/exports');
const signerKey = 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==';

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const captured = captureIO();
  const code = await main(argv, captured.io);
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

async function hashConfigFile(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'plan-cmd-'));
  const path = join(folder, 'hash-config.txt');
  const { writeFile } = await import('node:fs/promises');
  await writeFile(
    path,
    `hash_config {\n  algorithm: SCRYPT,\n  base64_signer_key: ${signerKey},\n  base64_salt_separator: Bw==,\n  rounds: 8,\n  mem_cost: 14,\n}\n`,
  );
  return path;
}

describe('core-migrate plan', () => {
  it('a first NDJSON line of null or {} is one refused record, as the same line later is: exit 1, not 2', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'plan-null-'));
    const { writeFile } = await import('node:fs/promises');
    const user = JSON.stringify({ email: 'ada@example.com', passwordHash: '$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW' });
    for (const [name, lines] of [
      ['first.ndjson', ['null', user, '{}']],
      ['later.ndjson', [user, 'null', '{}']],
    ] as const) {
      await writeFile(join(folder, name), `${lines.join('\n')}\n`);
      const result = await run(['plan', join(folder, name), '--json']);
      expect(result.code, name).toBe(1);
      const summary = JSON.parse(result.stdout) as { records: number; passwordImports: number; rejected: number; rejections: { code: string }[] };
      expect(summary).toMatchObject({ records: 3, passwordImports: 1, rejected: 2 });
      expect(JSON.stringify(summary.rejections)).toContain('malformedRecord');
      expect(JSON.stringify(summary.rejections)).toContain('missingEmail');
    }
  });

  it('prints the --json summary with the fields scripts rely on, and exits 1 because records are rejected', async () => {
    const result = await run(['plan', join(fixtures, 'firebase/users.json'), '--hash-config', await hashConfigFile(), '--json']);
    expect(result.code).toBe(1);
    const summary = JSON.parse(result.stdout) as Record<string, unknown>;
    const fields = ['records', 'passwordImports', 'thirdPartySignInUps', 'passwordlessSignInUps', 'passwordlessByLogin', 'byFamily', 'rejected', 'rejections'];
    for (const field of [...fields, 'duplicates', 'withoutCredentials']) expect(summary).toHaveProperty(field);
    // fb-4 signs in with its phone number: a passwordless user.
    expect(summary).toMatchObject({
      records: 4,
      byFamily: { bcrypt: 0, argon2: 0, vendor_scrypt: 1 },
      withoutCredentials: 0,
      passwordlessByLogin: { phone: 1, email: 0 },
    });
    expect(result.stdout).not.toContain(signerKey);
  });

  it('prints a table for a person and writes every rejection to the report, never a hash', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'plan-report-'));
    const report = join(folder, 'rejections.ndjson');
    const result = await run([
      'plan',
      join(fixtures, 'auth0/users.ndjson'),
      '--format',
      'auth0',
      '--auth0-password-file',
      join(fixtures, 'auth0/passwords.ndjson'),
      '--report',
      report,
    ]);
    expect(result.stdout).toMatch(/records read\s+\d+/);
    expect(result.stdout).toMatch(/password users\s+bcrypt \d+/);
    const lines = (await readFile(report, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, string>);
    // The run's header first: a report keeps every run's lines.
    expect(lines.shift()).toMatchObject({ stage: 'run', command: 'plan' });
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatchObject({ stage: 'plan', location: expect.any(String), reason: expect.any(String) });
    expect(await readFile(report, 'utf8')).not.toMatch(/\$2[aby]\$/);
  });

  it('exits 0 for a clean file', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'plan-clean-'));
    const path = join(folder, 'clean.ndjson');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(path, `${JSON.stringify({ email: 'a@example.com', thirdPartyId: 'google', thirdPartyUserId: '1', isVerified: true })}\n`);
    const result = await run(['plan', path]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('third-party users     google 1');
  });

  it('exits 0 when the only records left out are disabled accounts, as push does (they are not refusals)', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'plan-disabled-'));
    const path = join(folder, 'users.json');
    const { writeFile } = await import('node:fs/promises');
    const googleUser = (id: string, extra: object) => ({
      localId: id,
      email: `${id}@example.com`,
      providerUserInfo: [{ providerId: 'google.com', rawId: `g-${id}`, email: `${id}@example.com` }],
      ...extra,
    });
    await writeFile(path, JSON.stringify({ users: [googleUser('a', {}), googleUser('b', { disabled: true })] }));
    const result = await run(['plan', path, '--json']);
    expect(JSON.parse(result.stdout)).toMatchObject({ records: 2, identity: { disabledSkipped: 1 } });
    expect(result.code).toBe(0);
  });

  it('stops with exit 2 and names the place when the file itself is broken', async () => {
    const result = await run(['plan', join(fixtures, 'broken/truncated.json'), '--format', 'firebase-json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/truncated\.json/);
    const json = await run(['plan', join(fixtures, 'broken/truncated.json'), '--format', 'firebase-json', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'source.truncated', setting: 'file', exitCode: 2 } });
  });

  it('refuses an endless hash config (/dev/zero) with a sentence and exit 2, without reading it all', async () => {
    const result = await run(['plan', join(fixtures, 'firebase/users.json'), '--hash-config', '/dev/zero']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--hash-config /dev/zero: cannot read the file (more than 4 MiB: is it the right file?)');
  });

  it('refuses an unreadable hash config and a bad provider mapping with exit 2', async () => {
    const unreadable = await run(['plan', join(fixtures, 'firebase/users.json'), '--hash-config', '/nonexistent/hash.txt']);
    expect(unreadable.code).toBe(2);
    // Named by its flag, never by the placeholder the problem keeps in its data.
    expect(unreadable.stderr).toContain('--hash-config /nonexistent/hash.txt: cannot read the file (ENOENT)');
    expect(unreadable.stderr).not.toContain('{setting}');
    const badMap = await run(['plan', join(fixtures, 'firebase/users.json'), '--provider-map', 'nonsense']);
    expect(badMap.code).toBe(2);
    expect(badMap.stderr).toContain('export-provider-id=short-name');
  });

  it("reads the files flags name from the command's folder, not the process's", async () => {
    const folder = await mkdtemp(join(tmpdir(), 'plan-cwd-'));
    await copyFile(join(fixtures, 'generic/mapped.csv'), join(folder, 'mapped.csv'));
    await copyFile(join(fixtures, 'generic/mapping.txt'), join(folder, 'mapping.txt'));
    await copyFile(await hashConfigFile(), join(folder, 'hash-config.txt'));
    expect(process.cwd()).not.toBe(folder);
    const captured = captureIO({ cwd: folder });
    const code = await main(['plan', 'mapped.csv', '--mapping', 'mapping.txt', '--hash-config', 'hash-config.txt', '--json'], captured.io);
    expect(captured.stderr()).not.toMatch(/cannot read the file/);
    expect(code).not.toBe(2);
    expect(JSON.parse(captured.stdout())).toMatchObject({ records: 2 });
  });
});
