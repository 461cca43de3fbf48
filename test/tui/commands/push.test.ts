import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { API_KEY, jsonOf, notesOf, operationRequests, runCli, storeSnapshot, summaryText, writeExport, type KnownUser } from './push-support.js';

describe('core-migrate push', () => {
  let core: CoreDouble;
  let dir: string;
  let source: string;
  let users: KnownUser[];

  beforeEach(async () => {
    core = await startCoreDouble({ apiKeys: [API_KEY] });
    dir = await mkdtemp(join(tmpdir(), 'push-cli-'));
    source = join(dir, 'users.ndjson');
  });
  afterEach(async () => {
    await core.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('imports a mixed export, reports the plan rejection, and ends with the JSON summary whose counts add up', async () => {
    users = await writeExport(source, 40, { broken: true });
    const run = await runCli(['push', 'users.ndjson', '--core', core.url, '--json'], dir);

    expect(notesOf(run)).toEqual([]);
    expect(run.exitCode).toBe(1);
    const summary = jsonOf(run);
    expect(summary).toMatchObject({
      imported: 30,
      thirdPartyCreated: 10,
      rejected: 1,
      failed: 0,
      skipped: 0,
      alreadyExisted: 0,
      thirdPartyExisting: 0,
      total: 41,
    });
    expect(summaryText(run)).toContain('= 41 operations');
    expect(core.emailPasswordUsers()).toHaveLength(30);
    expect(core.thirdPartyUsers()).toHaveLength(10);

    const report = (await readFile(join(dir, 'users.ndjson.push-report.ndjson'), 'utf8')).trim().split('\n');
    expect(report).toHaveLength(2);
    expect(JSON.parse(report[0] ?? '')).toMatchObject({ stage: 'run', command: 'push', dryRun: false });
    expect(JSON.parse(report[1] ?? '')).toMatchObject({ stage: 'plan', email: 'broken@example.com', code: 'unusableHash' });
  });

  it('shows progress as one updating line on a TTY, and as plain lines otherwise', async () => {
    users = await writeExport(source, 8);
    const onTty = await runCli(['push', source, '--core', core.url, '--journal', 'a.journal'], dir, {}, { tty: true });
    expect(onTty.stdout).toMatch(/\rpush 8\/8 100\.0% .*concurrency \d+/);
    const plain = await runCli(['push', source, '--core', core.url, '--journal', 'b.journal'], dir);
    expect(plain.stdout).not.toContain('\r');
    expect(plain.stdout).toMatch(/^push \d+\/8 /m);
  });

  it('a re-run resumes from the journal: nothing is sent twice, everything is counted as skipped', async () => {
    users = await writeExport(source, 20);
    const first = await runCli(['push', source, '--core', core.url, '--json'], dir);
    expect(first.exitCode).toBe(0);
    const sent = operationRequests(core).length;
    expect(sent).toBe(20);

    const again = await runCli(['push', source, '--core', core.url, '--json'], dir);
    expect(again.exitCode).toBe(0);
    expect(operationRequests(core)).toHaveLength(sent);
    expect(jsonOf(again)).toMatchObject({ skipped: 20, imported: 0, total: 20 });
  });

  it('--dry-run plans and runs the pre-flight but writes nothing to the core', async () => {
    users = await writeExport(source, 12);
    const run = await runCli(['push', source, '--core', core.url, '--dry-run', '--json'], dir);
    expect(run.exitCode).toBe(0);
    expect(operationRequests(core)).toHaveLength(0);
    expect(core.users()).toHaveLength(0);
    expect(jsonOf(run)).toMatchObject({ dryRun: true, notAttempted: 12, total: 12 });
    expect(summaryText(run)).toContain('Dry run');
  });

  it('a refused key stops before anything is sent, with exit 3', async () => {
    users = await writeExport(source, 8);
    const run = await runCli(['push', source, '--core', core.url], dir, { CORE_API_KEY: 'wrong-key-0123456789-abcdefghijkl' });
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toMatch(/api-key/);
    expect(operationRequests(core)).toHaveLength(0);
    expect(`${run.stdout}${run.stderr}`).not.toContain('wrong-key-0123456789');
  });

  it('an unreachable core gives exit 3, usage errors exit 2', async () => {
    users = await writeExport(source, 4);
    const closed = await startCoreDouble();
    const url = closed.url;
    await closed.close();
    expect((await runCli(['push', source, '--core', url], dir)).exitCode).toBe(3);
    expect((await runCli(['push', source, '--core', core.url, '--concurrency', 'lots'], dir)).exitCode).toBe(2);
    expect((await runCli(['push', join(dir, 'missing.ndjson'), '--core', core.url], dir)).exitCode).toBe(2);
    expect((await runCli(['push', source, '--core', core.url], dir, { CORE_API_KEY: '' })).exitCode).toBe(2);
  });

  it('--give-up-after: a core that only pushes back stops the push after that long (exit 3), nothing failed, the resume hint given', async () => {
    users = await writeExport(source, 8);
    // The pre-flight passes; every user's write is then answered 503.
    core.faults.failBodiesContaining('@example.com', { status: 503 });
    const run = await runCli(['push', source, '--core', core.url, '--give-up-after', '1', '--json'], dir);
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toMatch(/Stopping \(coreUnreachable\): The core answered nothing useful for \d+ s/);
    expect(run.stderr).toMatch(/To resume, run: (?:npx )?core-migrate push .* --give-up-after 1/);
    expect(jsonOf(run)).toMatchObject({ failed: 0, imported: 0, notAttempted: 8, total: 8 });
    for (const wrong of ['0', '1.5', 'soon', '86401']) {
      const refused = await runCli(['push', source, '--core', core.url, '--give-up-after', wrong], dir);
      expect(refused.exitCode).toBe(2);
      expect(refused.stderr).toMatch(/--give-up-after must be a whole number of seconds from 1 to 86400/);
    }
  });

  it('--core given twice spreads the push over both cores of one database; the resume hint repeats both', async () => {
    users = await writeExport(source, 40);
    const replica = await startCoreDouble({ apiKeys: [API_KEY], shareStoreWith: core });
    try {
      const run = await runCli(['push', source, '--core', core.url, '--core', replica.url, '--json'], dir);
      expect(run.exitCode).toBe(0);
      expect(jsonOf(run)).toMatchObject({ failed: 0, total: 40 });
      expect(storeSnapshot(core)).toHaveLength(40);
      expect(operationRequests(core).length).toBeGreaterThan(0);
      expect(operationRequests(replica).length).toBeGreaterThan(0);
      // Stopped at once by a core that only pushes back: the hint to resume names both cores.
      core.faults.failBodiesContaining('@example.com', { status: 503 });
      replica.faults.failBodiesContaining('@example.com', { status: 503 });
      const stopped = await runCli(
        ['push', source, '--core', core.url, '--core', replica.url, '--journal', join(dir, 'other.journal'), '--give-up-after', '1'],
        dir,
      );
      expect(stopped.exitCode).toBe(3);
      expect(stopped.stdout).toContain(`--core ${core.url} --core ${replica.url}`);
    } finally {
      await replica.close();
    }
  });

  it('refuses a journal written for another file', async () => {
    users = await writeExport(source, 4);
    await runCli(['push', source, '--core', core.url, '--journal', 'shared.journal'], dir);
    const other = join(dir, 'other.ndjson');
    await writeExport(other, 6);
    const run = await runCli(['push', other, '--core', core.url, '--journal', 'shared.journal'], dir);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/different source file/);
  });

  it('the first scrypt user goes alone: without a signer key the push stops after that one import (exit 2)', async () => {
    await writeFile(
      source,
      [
        JSON.stringify({ email: 'grace@example.com', passwordHash: '$f_scrypt$aGFzaA==$c2FsdA==$m=14$r=8$s=Bw==', hashingAlgorithm: 'vendor_scrypt' }),
        JSON.stringify({ email: 'ada@example.com', passwordHash: '$2a$04$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy' }),
      ].join('\n'),
    );
    const run = await runCli(['push', source, '--core', core.url, '--json'], dir);
    expect(run.exitCode).toBe(2);
    expect(operationRequests(core)).toHaveLength(1);
    expect(run.stderr).toContain('VENDOR_PASSWORD_HASHING_SIGNER_KEY');
    expect(run.stderr).toMatch(/To resume, run: (?:npx )?core-migrate push/);
  });

  it('--verify-credentials checks known accounts before, signs them in after, and never prints a password', async () => {
    users = await writeExport(source, 9);
    const known = users.slice(0, 2);
    const credentials = join(dir, 'known.txt');
    await writeFile(credentials, `# test accounts\n${known.map((user) => `${user.email} ${user.password}`).join('\n')}\n`);
    const run = await runCli(['push', source, '--core', core.url, '--verify-credentials', credentials, '--json'], dir);
    expect(run.exitCode).toBe(0);
    expect(jsonOf(run)).toMatchObject({ credentials: { checked: 2, matchedLocally: 2, loggedIn: 2 } });
    expect(summaryText(run)).toContain('2 of 2 logged in');

    const output = `${run.stdout}${run.stderr}`;
    const written = `${await readFile(join(dir, 'users.ndjson.push-journal.ndjson'), 'utf8')}${await readFile(join(dir, 'users.ndjson.push-report.ndjson'), 'utf8')}`;
    for (const text of [output, written]) {
      expect(text).not.toContain(API_KEY);
      for (const user of users) {
        expect(text).not.toContain(user.password);
        expect(text).not.toContain(user.passwordHash);
        expect(text).not.toContain(user.passwordHash.slice(29));
      }
    }
  });

  it('a known account that does not match its planned hash stops the push before it starts (exit 2)', async () => {
    users = await writeExport(source, 5);
    const credentials = join(dir, 'known.txt');
    await writeFile(credentials, `${users[0]?.email ?? ''} not-the-password\n`);
    const run = await runCli(['push', source, '--core', core.url, '--verify-credentials', credentials], dir);
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toMatch(/mismatch/);
    expect(operationRequests(core)).toHaveLength(0);
    expect(`${run.stdout}${run.stderr}`).not.toContain('not-the-password');
  });

  it('records failing at the core are reported with the core text and exit 1; the double holds the rest', async () => {
    users = await writeExport(source, 10);
    // 3 pre-flight requests, 9 identity-feature probes (the passwordless feature's two calls among them), then each
    // password user's lookup and import: 14 is the same import as before the passwordless probes.
    core.faults.failRequestNumber(14, { status: 400, body: 'Password hash is in invalid format\n' });
    const run = await runCli(['push', source, '--core', core.url, '--json', '--concurrency', '1'], dir);
    expect(run.exitCode).toBe(1);
    expect(jsonOf(run)).toMatchObject({ failed: 1, total: 10 });
    const report = await readFile(join(dir, 'users.ndjson.push-report.ndjson'), 'utf8');
    expect(report).toContain('Password hash is in invalid format');
    expect(storeSnapshot(core)).toHaveLength(9);
  });
});
