import { execFileSync } from 'node:child_process';
import { chmod, link, mkdtemp, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { jsonOf, operationRequests, runCli, API_KEY, writeExport } from './push-support.js';

describe('core-migrate push and plan: the files they read and write', () => {
  let core: CoreDouble;
  let dir: string;
  let source: string;
  beforeEach(async () => {
    core = await startCoreDouble({ apiKeys: [API_KEY] });
    dir = await mkdtemp(join(tmpdir(), 'push-files-'));
    source = join(dir, 'users.ndjson');
  });
  afterEach(async () => {
    await core.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('plan --report naming the export is refused before anything is opened; the export is untouched (exit 2)', async () => {
    await writeExport(source, 8);
    const before = await readFile(source, 'utf8');
    const run = await runCli(['plan', source, '--report', source], dir);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/^core-migrate plan: The report .*users\.ndjson would overwrite the export .*same path.*nothing was opened\.\n$/);
    expect(await readFile(source, 'utf8')).toBe(before);
  });

  it('push refuses --journal F --report F, a report that is a symbolic or hard link to the export, and sends nothing (exit 2)', async () => {
    await writeExport(source, 8);
    const before = await readFile(source, 'utf8');
    await symlink(source, join(dir, 'alias.ndjson'));
    await link(source, join(dir, 'hard.ndjson'));
    const cases = [
      ['--journal', 'same.out', '--report', 'same.out'],
      ['--report', 'alias.ndjson'],
      ['--journal', 'hard.ndjson'],
    ];
    for (const flags of cases) {
      const run = await runCli(['push', source, '--core', core.url, ...flags], dir);
      expect(run.exitCode, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/would overwrite|symbolic link/);
    }
    expect(await readFile(source, 'utf8')).toBe(before);
    expect(core.requests()).toHaveLength(0);
  });

  it('refuses a credentials, hash-config or Auth0 password file as an output, in push and plan alike', async () => {
    await writeExport(source, 4);
    await writeFile(join(dir, 'known.txt'), 'user1@example.com pw-1-secret\n', { mode: 0o600 });
    const hashConfig = `hash_config { algorithm: SCRYPT, base64_signer_key: ${Buffer.alloc(64, 7).toString('base64')}, base64_salt_separator: Bw==, rounds: 8, mem_cost: 14, }\n`;
    await writeFile(join(dir, 'hash_config.txt'), hashConfig, { mode: 0o600 });
    const auth0Users = join(dir, 'auth0-users.ndjson');
    const auth0Hashes = `${JSON.stringify({ _id: { $oid: 'id1' }, email: 'a@example.com', passwordHash: '$2b$04$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy' })}\n`;
    await writeFile(auth0Users, `${JSON.stringify({ user_id: 'auth0|id1', email: 'a@example.com' })}\n`);
    await writeFile(join(dir, 'hashes.ndjson'), auth0Hashes);
    const auth0 = [auth0Users, '--format', 'auth0', '--auth0-password-file', 'hashes.ndjson'];
    const cases: [string[], RegExp][] = [
      [['push', source, '--core', core.url, '--verify-credentials', 'known.txt', '--report', 'known.txt'], /would overwrite the credentials file/],
      [['push', source, '--core', core.url, '--hash-config', 'hash_config.txt', '--journal', 'hash_config.txt'], /would overwrite the hash-config file/],
      [['plan', source, '--hash-config', 'hash_config.txt', '--report', 'hash_config.txt'], /would overwrite the hash-config file/],
      [['push', ...auth0, '--core', core.url, '--report', 'hashes.ndjson'], /would overwrite the Auth0 password-hash file/],
      [['plan', ...auth0, '--report', 'hashes.ndjson'], /would overwrite the Auth0 password-hash file/],
    ];
    for (const [args, sentence] of cases) {
      const run = await runCli(args, dir);
      expect(run.exitCode, run.stderr).toBe(2);
      expect(run.stderr).toMatch(sentence);
    }
    expect(await readFile(join(dir, 'known.txt'), 'utf8')).toBe('user1@example.com pw-1-secret\n');
    expect(await readFile(join(dir, 'hash_config.txt'), 'utf8')).toBe(hashConfig);
    expect(await readFile(join(dir, 'hashes.ndjson'), 'utf8')).toBe(auth0Hashes);
    expect(core.requests()).toHaveLength(0);
  });

  it('creates the report and the journal readable by their owner only', async () => {
    await writeExport(source, 4);
    expect((await runCli(['push', source, '--core', core.url], dir)).exitCode).toBe(0);
    expect((await stat(join(dir, 'users.ndjson.push-report.ndjson'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'users.ndjson.push-journal.ndjson'))).mode & 0o777).toBe(0o600);
  });

  it('a renamed export keeps its journal: nothing is sent again', async () => {
    await writeExport(source, 12);
    expect((await runCli(['push', source, '--core', core.url, '--journal', 'push.journal'], dir)).exitCode).toBe(0);
    const sent = operationRequests(core).length;
    await rename(source, join(dir, 'users-v2.ndjson'));
    const again = await runCli(['push', 'users-v2.ndjson', '--core', core.url, '--journal', 'push.journal', '--json'], dir);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(operationRequests(core)).toHaveLength(sent);
    expect(jsonOf(again)).toMatchObject({ skipped: 12, imported: 0, total: 12 });
  });

  it("a core restarted empty at the journal's address: the resume stops with a sentence (exit 2), skipping and sending nothing", async () => {
    await writeExport(source, 40);
    expect((await runCli(['push', source, '--core', core.url, '--journal', 'push.journal'], dir)).exitCode).toBe(0);
    const { port } = core;
    await core.close();
    core = await startCoreDouble({ apiKeys: [API_KEY], port });
    const resumed = await runCli(['push', source, '--core', core.url, '--journal', 'push.journal', '--json'], dir);
    expect(resumed.exitCode, resumed.stderr).toBe(2);
    expect(resumed.stderr).toMatch(
      /Stopping \(journalNotOnCore\): The journal .*push\.journal records 40 users created by this migration, but the core has only 0/,
    );
    expect(jsonOf(resumed)).toMatchObject({ skipped: 0, imported: 0, notAttempted: 40, total: 40 });
    expect(`${resumed.stdout}${resumed.stderr}`).not.toMatch(/To resume, run/);
    expect(operationRequests(core)).toHaveLength(0);
    expect(core.users()).toHaveLength(0);
  });

  it('--journal /dev/null, a FIFO and a missing folder are refused before anything is sent, each with one sentence (exit 2)', async () => {
    await writeExport(source, 4);
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    const cases: [string[], RegExp][] = [
      [['--journal', '/dev/null'], /The journal \/dev\/null is a device, not a regular file: choose a file path\./],
      [['--journal', 'fifo'], /The journal .*fifo is a FIFO \(named pipe\), not a regular file/],
      [['--journal', 'missing/j'], /The journal .*missing\/j cannot be created: the folder .*missing does not exist\. Create it, or choose another path\./],
      [['--report', 'missing/r'], /The report .*missing\/r cannot be created: the folder .*missing does not exist/],
    ];
    for (const [flags, sentence] of cases) {
      const run = await runCli(['push', source, '--core', core.url, ...flags], dir);
      expect(run.exitCode).toBe(2);
      expect(run.stderr).toMatch(sentence);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(core.requests()).toHaveLength(0);
  });

  it('a second push on a journal another push holds stops with a sentence (exit 2), sending nothing', async () => {
    await writeExport(source, 6);
    await writeFile(join(dir, 'push.journal.lock'), JSON.stringify({ pid: process.pid, host: (await import('node:os')).hostname(), startedAt: 'now' }));
    const run = await runCli(['push', source, '--core', core.url, '--journal', 'push.journal'], dir);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/The journal .*push\.journal is in use by another push \(process \d+ on /);
    expect(operationRequests(core)).toHaveLength(0);
  });

  it('the export rewritten during the push: stopped with a sentence, exit 2, every planned operation counted', async () => {
    await writeExport(source, 300);
    core.faults.setLatencyMs(5);
    const running = runCli(['push', source, '--core', core.url, '--concurrency', '2', '--json'], dir);
    while (operationRequests(core).length < 20) await new Promise((resolve) => setTimeout(resolve, 2));
    // Cut short, as a re-export in progress would leave it.
    const lines = (await readFile(source, 'utf8')).split('\n');
    await writeFile(source, `${lines.slice(0, 100).join('\n')}\n`);
    const run = await running;
    expect(run.exitCode).toBe(2);
    const summary = jsonOf(run);
    expect(summary['stoppedEarly']).toMatchObject({ reason: 'sourceChanged' });
    expect(String((summary['stoppedEarly'] as { message: string }).message)).toMatch(/users\.ndjson changed during the push|The plan counted 300 operations/);
    expect(summary['total']).toBe(300);
    expect(Number(summary['notAttempted'])).toBeGreaterThan(0);
  });

  it('warns when the api-key or credentials file is readable by others', async () => {
    await writeExport(source, 4);
    await writeFile(join(dir, 'key'), API_KEY, { mode: 0o644 });
    await chmod(join(dir, 'key'), 0o644);
    await writeFile(join(dir, 'known.txt'), 'user1@example.com pw-1-secret\n');
    await chmod(join(dir, 'known.txt'), 0o640);
    const run = await runCli(['push', source, '--core', core.url, '--api-key-file', 'key', '--verify-credentials', 'known.txt', '--dry-run'], dir, {
      CORE_API_KEY: '',
    });
    expect(run.stderr).toMatch(/Warning: .*key holds the api-key and is readable by every user of this machine \(mode 644\): run chmod 600 /);
    expect(run.stderr).toMatch(/Warning: .*known\.txt holds passwords of known accounts and is readable by its group \(mode 640\)/);

    await chmod(join(dir, 'key'), 0o600);
    const quiet = await runCli(['push', source, '--core', core.url, '--api-key-file', 'key', '--dry-run'], dir, { CORE_API_KEY: '' });
    expect(quiet.stderr).not.toMatch(/Warning/);
  });
});

/** An address of this machine that is not loopback, where the core double can listen: plain http to it travels the network. */
const outwardAddress = Object.values(networkInterfaces())
  .flat()
  .find((address) => address !== undefined && address.family === 'IPv4' && !address.internal)?.address;

describe('core-migrate push and check: warnings about secrets exposed', () => {
  it.skipIf(outwardAddress === undefined)(
    'warn for a hash-config (signer key) readable by others, and for plain http:// to a host that is not loopback',
    async () => {
      const core = await startCoreDouble({ apiKeys: [API_KEY], host: outwardAddress ?? '127.0.0.1' });
      const dir = await mkdtemp(join(tmpdir(), 'push-warnings-'));
      try {
        const source = join(dir, 'users.ndjson');
        await writeExport(source, 4);
        const hashConfig = join(dir, 'hash_config.txt');
        await writeFile(
          hashConfig,
          `hash_config { algorithm: SCRYPT, base64_signer_key: ${Buffer.alloc(64, 7).toString('base64')}, base64_salt_separator: Bw==, rounds: 8, mem_cost: 14, }\n`,
        );
        await chmod(hashConfig, 0o644);
        const { url } = core;
        const push = await runCli(['push', source, '--core', url, '--hash-config', 'hash_config.txt', '--dry-run'], dir);
        expect(push.exitCode, push.stderr).toBe(0);
        expect(push.stderr).toMatch(
          /Warning: .*hash_config\.txt holds the signer key and is readable by every user of this machine \(mode 644\): run chmod 600 /,
        );
        expect(push.stderr).toMatch(/Warning: http:\/\/[\d.]+:\d+ is plain http:\/\/ to another host: the api-key and every password hash travel in clear\./);
        for (const command of [['check'], ['rollback', '--journal', 'users.ndjson.push-journal.ndjson', '--dry-run']]) {
          const run = await runCli([...command, '--core', url], dir);
          expect(run.stderr, command[0]).toMatch(/Warning: http:\/\/[\d.]+:\d+ is plain http:\/\/ to another host/);
        }

        await chmod(hashConfig, 0o600);
        const owned = await runCli(['push', source, '--core', url, '--hash-config', 'hash_config.txt', '--dry-run'], dir);
        expect(owned.exitCode, owned.stderr).toBe(0);
        expect(owned.stderr).not.toMatch(/hash_config\.txt/);
      } finally {
        await core.close();
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});

describe('core-migrate push: an Auth0 password-hash file rewritten during the push', () => {
  it('is noticed: stopped with a sentence, exit 2, every planned operation counted', async () => {
    const core = await startCoreDouble({ apiKeys: [API_KEY] });
    const dir = await mkdtemp(join(tmpdir(), 'push-auth0-'));
    try {
      const users: string[] = [];
      const hashes: string[] = [];
      const hash = '$2b$04$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy';
      for (let index = 1; index <= 150; index += 1) {
        users.push(JSON.stringify({ user_id: `auth0|id${index}`, email: `u${index}@example.com`, email_verified: true }));
        hashes.push(JSON.stringify({ _id: { $oid: `id${index}` }, email: `u${index}@example.com`, passwordHash: hash }));
      }
      // Password-only users (no user line): read back from the hash file at the end of the push.
      for (let index = 151; index <= 300; index += 1)
        hashes.push(JSON.stringify({ _id: { $oid: `id${index}` }, email: `u${index}@example.com`, passwordHash: hash }));
      await writeFile(join(dir, 'users.ndjson'), `${users.join('\n')}\n`);
      await writeFile(join(dir, 'hashes.ndjson'), `${hashes.join('\n')}\n`);
      core.faults.setLatencyMs(5);
      const running = runCli(
        [
          'push',
          join(dir, 'users.ndjson'),
          '--format',
          'auth0',
          '--auth0-password-file',
          join(dir, 'hashes.ndjson'),
          '--core',
          core.url,
          '--concurrency',
          '2',
          '--json',
        ],
        dir,
      );
      let ended = false;
      void running.then(() => (ended = true));
      while (!ended && operationRequests(core).length < 20) await new Promise((resolve) => setTimeout(resolve, 2));
      await writeFile(join(dir, 'hashes.ndjson'), `${hashes.slice(0, 10).join('\n')}\n`);
      const run = await running;
      expect(run.exitCode, `${run.stdout}${run.stderr}`).toBe(2);
      const summary = jsonOf(run);
      expect(summary['stoppedEarly']).toMatchObject({ reason: 'sourceChanged' });
      expect(String((summary['stoppedEarly'] as { message: string }).message)).toMatch(/hashes\.ndjson changed during the push/);
      expect(summary['total']).toBe(300);
    } finally {
      await core.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
