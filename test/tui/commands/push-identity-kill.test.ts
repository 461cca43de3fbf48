import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../core-client/push/engine-support.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { SIGNER_KEY, writeFirebaseExport, type FirebaseFixture } from './identity-support.js';
import { API_KEY, jsonOf, notesOf, runCli } from './push-support.js';

const BIN = fileURLToPath(new URL('../../../tui/bin/core-migrate.js', import.meta.url));
const EXTRA_USERS = 30;
const THEIRS = '$2a$04$abcdefghijklmnopqrstuuVOsr0TBnA6jO1O1xYqxq6wE.wPqHm2';

describe('identity steps across a killed push, and a rollback', () => {
  let core: CoreDouble;
  let dir: string;
  let fixture: FirebaseFixture;
  let journal: string;
  const args = (...extra: string[]) => [
    'push',
    fixture.exportPath,
    '--core',
    core.url,
    '--hash-config',
    fixture.hashConfigPath,
    '--journal',
    journal,
    '--report',
    join(dir, 'report.ndjson'),
    ...extra,
  ];
  const startChild = (...extra: string[]) =>
    spawn(process.execPath, [BIN, ...args(...extra)], { cwd: dir, env: { ...process.env, CORE_API_KEY: API_KEY }, stdio: ['ignore', 'pipe', 'pipe'] });

  /** A user already in the core before the migration: skip must leave it, rollback must never remove it. */
  async function seedExistingUser(): Promise<string> {
    const seeded = await fetch(`${core.url}/recipe/user/passwordhash/import`, {
      method: 'POST',
      headers: { 'api-key': API_KEY, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ email: 'linus@example.com', passwordHash: THEIRS }),
    });
    return ((await seeded.json()) as { user: { id: string } }).user.id;
  }

  beforeEach(async () => {
    core = await startCoreDouble({ apiKeys: [API_KEY], signerKey: SIGNER_KEY });
    dir = await mkdtemp(join(tmpdir(), 'push-identity-kill-'));
    fixture = await writeFirebaseExport(dir, EXTRA_USERS);
    journal = join(dir, 'push.journal');
  });
  afterEach(async () => {
    await core.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a push killed (SIGKILL) between "created" and "mapped" is completed by the resume, not skipped; a rollback then removes only its users', async () => {
    const linusId = await seedExistingUser();
    // The first scrypt user goes alone: its mapping is held, so the child is killed with Ada created and not mapped.
    // Only a real mapping (the pre-flight's probe sends an empty body to the same path).
    core.faults.holdPath('/recipe/userid/map', 'POST', 'superTokensUserId');
    const child = startChild();
    const exited = once(child, 'exit');
    await waitFor(() => core.faults.heldCount() >= 1, 'the first mapping request', 20_000);
    child.kill('SIGKILL');
    const [, signal] = (await exited) as [number | null, NodeJS.Signals | null];
    expect(signal).toBe('SIGKILL');
    const ada = core.users().find((user) => user.email === 'ada@example.com' && user.kind === 'emailPassword');
    expect(ada).toBeDefined();
    expect(ada?.externalId).toBeUndefined();
    // The held mapping was fully sent: a real core may still act on it after its client died, or not. Both must resume.
    core.faults.releaseHeld();

    // The journal as a kill an instant later in the same window leaves it: the creation announced, its answer lost.
    const lines = (await readFile(journal, 'utf8')).split('\n');
    expect(lines.some((line) => line.includes('"s":"intent"'))).toBe(true);
    await writeFile(journal, lines.filter((line) => !line.includes('"s":"created"')).join('\n'));

    const resumed = await runCli([...args('--json')], dir);
    // The killed push left its lock: the resume takes it over and says so, and says nothing else.
    expect(notesOf(resumed)).toEqual([
      expect.stringMatching(/^The journal's lock was left by process \d+ \(started [^)]+\), which is gone; this push took it over\.$/),
    ]);
    expect(resumed.exitCode).toBe(0);
    const summary = jsonOf(resumed);
    expect(summary).toMatchObject({ existingUntouched: 1, failed: 0, notAttempted: 0, disabledSkipped: 1 });
    // Ada, Grace and the extra users carry their old id; Linus, untouched, does not.
    expect(summary['steps']).toMatchObject({ completedAfterResume: 1, mapped: EXTRA_USERS + 2 });
    // Ada was completed: mapped, verified, with her profile; and created once.
    expect(core.users().filter((user) => user.email === 'ada@example.com' && user.kind === 'emailPassword')).toHaveLength(1);
    expect(core.identity.externalIdOf(ada?.id ?? '')).toBe('fb-ada');
    expect(core.identity.isVerified('fb-ada', 'ada@example.com')).toBe(true);
    expect(core.identity.metadataOf('fb-ada')).toMatchObject({ displayName: 'Ada Lovelace' });
    // Linus was there before: untouched.
    expect(core.users().find((user) => user.email === 'linus@example.com')).toMatchObject({ id: linusId, passwordHash: THEIRS });

    const dryRun = await runCli(['rollback', '--journal', journal, '--core', core.url, '--dry-run', '--json'], dir);
    expect(dryRun.exitCode).toBe(0);
    const created = core.users().length - 1;
    expect(jsonOf(dryRun)).toMatchObject({ created, removed: 0, notAttempted: created, dryRun: true });
    expect(core.users()).toHaveLength(created + 1);

    const rolledBack = await runCli(['rollback', '--journal', journal, '--core', core.url, '--json'], dir);
    expect(rolledBack.stderr).toBe('');
    expect(rolledBack.exitCode).toBe(0);
    expect(jsonOf(rolledBack)).toMatchObject({ created, removed: created, failed: 0, uncertain: 0 });
    expect(core.users()).toEqual([expect.objectContaining({ id: linusId, email: 'linus@example.com', passwordHash: THEIRS })]);
    expect(core.identity.metadataOf('fb-ada')).toEqual({});
    // Removal went by ids only: the old id once mapped, never an email.
    const removals = core.requests().filter((request) => request.path.endsWith('/user/remove'));
    expect(removals.every((request) => !JSON.stringify(request.body).includes('@'))).toBe(true);
  });

  it('a rollback after a push stopped part-way (Ctrl-C) removes what it created, and a second rollback goes on from the record', async () => {
    const linusId = await seedExistingUser();
    core.faults.setLatencyMs(15);
    const child = startChild('--concurrency', '2');
    const exited = once(child, 'exit');
    await waitFor(() => core.users().length >= 8, 'a few users created', 20_000);
    child.kill('SIGINT');
    const [code] = (await exited) as [number | null, NodeJS.Signals | null];
    expect(code).toBe(1);
    core.faults.setLatencyMs(0);
    const createdCount = core.users().length - 1;
    expect(createdCount).toBeLessThan(EXTRA_USERS + 4);

    const first = await runCli(['rollback', '--journal', journal, '--core', core.url, '--json'], dir);
    expect(first.exitCode).toBe(0);
    expect(jsonOf(first)).toMatchObject({ created: createdCount, removed: createdCount, alreadyRemoved: 0, uncertain: 0 });
    expect(core.users().map((user) => user.id)).toEqual([linusId]);

    const second = await runCli(['rollback', '--journal', journal, '--core', core.url, '--json'], dir);
    expect(jsonOf(second)).toMatchObject({ created: createdCount, removed: 0, alreadyRemoved: createdCount });
    expect(core.users().map((user) => user.id)).toEqual([linusId]);

    // The rolled-back journal no longer says what is on the core: a push on it stops before sending anything, with
    // the way on (not "journalled users missing"); a new journal migrates everyone again, Linus still untouched.
    const onRolledBack = await runCli(args('--json'), dir);
    expect(onRolledBack.exitCode).toBe(2);
    expect(onRolledBack.stderr).toMatch(/The journal .* was rolled back \(.*\.rollback records the users removed on purpose\).*pass a new --journal file/);
    expect(onRolledBack.stderr).not.toMatch(/no such user|journalNotOnCore/);
    // Only the pre-flight's probes reached the core: no user was created or touched.
    expect(core.users().map((user) => user.id)).toEqual([linusId]);
    journal = join(dir, 'again.journal');
    const again = await runCli(args('--json'), dir);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(jsonOf(again)).toMatchObject({ existingUntouched: 1, skipped: 0, failed: 0, notAttempted: 0 });
    expect(core.users().length).toBeGreaterThan(createdCount + 1);
  });
});
