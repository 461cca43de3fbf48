import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { prepareMigration, type PreparedMigration } from '../../../core-client/src/run/prepare-migration.js';
import { resumeCommandLine, runPrepared } from '../../../core-client/src/run/run-prepared.js';
import { Problem } from '../../../core-client/src/problem.js';
import { Journal, JournalError } from '../../../core-client/src/journal/journal.js';
import { describeProblem, type SettingProblem } from '../../../core-client/src/settings/setting-problem.js';
import { MigrationSettingsSchema } from '../../../core-client/src/settings/settings.js';
import { exitCodeOfPush, exitCodeOfRollback } from '../../../core-client/src/settings/verdict.js';
import { emptyCounts, type PushSummary } from '../../../core-client/src/summary/push-summary.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';

const apiKey = randomBytes(24).toString('hex');
const bcrypt = '$2a$04$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy';
let core: CoreDouble;
let folder: string;

beforeAll(async () => {
  core = await startCoreDouble({ apiKeys: [apiKey] });
});
afterAll(async () => {
  await core.close();
});
beforeEach(async () => {
  core.reset();
  folder = await mkdtemp(join(tmpdir(), 'core-migrate-prepare-'));
  await writeFile(
    join(folder, 'users.ndjson'),
    [1, 2, 3].map((n) => JSON.stringify({ id: `u${n}`, email: `u${n}@example.com`, passwordHash: bcrypt })).join('\n'),
  );
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function prepare(input: Record<string, unknown>, env: NodeJS.ProcessEnv = { CORE_API_KEY: apiKey }): Promise<PreparedMigration | SettingProblem> {
  return prepareMigration(MigrationSettingsSchema.parse({ file: 'users.ndjson', core: [core.url], ...input }), { cwd: folder, env });
}

describe('the checks before a push, one sequence for both faces', () => {
  it('prepares a run that pushes, and derives the command that resumes it', async () => {
    const messages: string[] = [];
    const prepared = await prepareMigration(MigrationSettingsSchema.parse({ file: 'users.ndjson', core: [core.url], concurrency: 2 }), {
      cwd: folder,
      env: { CORE_API_KEY: apiKey },
      onMessage: ({ text }) => messages.push(text),
    });
    expect(prepared).not.toBeInstanceOf(Problem);
    if (prepared instanceof Problem) return;
    expect(prepared.limits).toMatchObject({ max: 2 });
    expect(prepared.planned?.summary.operations).toBe(3);
    expect(messages).toEqual([expect.stringContaining('is reachable and accepts the key'), 'Plan: 3 operations from 3 records (0 rejected by the plan).']);
    try {
      const summary = await runPrepared(prepared);
      expect(summary).toMatchObject({ imported: 3, total: 3 });
      expect(resumeCommandLine(prepared)).toEqual([
        'push',
        'users.ndjson',
        '--core',
        core.url,
        '--concurrency',
        '2',
        '--journal',
        join(folder, 'users.ndjson.push-journal.ndjson'),
      ]);
    } finally {
      await prepared.client.close();
    }
    expect(core.emailPasswordUsers()).toHaveLength(3);
  });

  it('stops before sending with the exit code and the setting that fixes it', async () => {
    const cases: [Record<string, unknown>, NodeJS.ProcessEnv | undefined, number, string, RegExp][] = [
      [{ file: 'missing.ndjson' }, undefined, 2, 'file', /no such file/],
      [{ report: 'users.ndjson' }, undefined, 2, 'report', /would overwrite the export/],
      [{ verifyCredentials: 'nothing.txt' }, undefined, 2, 'verifyCredentials', /--verify-credentials .*nothing\.txt: cannot read the file/],
      [{ core: [] }, {}, 2, 'core', /No core address was given/],
      [{}, {}, 2, 'apiKeyFile', /No api-key was found/],
      [{ core: ['http://127.0.0.1:1'] }, undefined, 3, 'core', /the pre-flight failed, nothing was sent/],
    ];
    for (const [input, env, exitCode, setting, message] of cases) {
      const result = await prepare(input, env);
      expect(result, JSON.stringify(input)).toBeInstanceOf(Problem);
      const error = result as SettingProblem;
      expect([error.exitCode, error.setting], JSON.stringify(input)).toEqual([exitCode, setting]);
      expect(describeProblem(error, 'flags')).toMatch(message);
    }
    expect(core.emailPasswordUsers()).toEqual([]);
  });

  it('says in each face how to do without an identity feature the core lacks', async () => {
    core.identity.setMissing(['mapping']);
    const result = await prepare({});
    expect(result).toBeInstanceOf(Problem);
    const error = result as SettingProblem;
    expect(error.setting).toBe('keepIds');
    expect(describeProblem(error, 'flags')).toContain('pass --no-keep-ids');
    expect(describeProblem(error, 'app')).toContain('turn off "keep old ids"');
    core.identity.setMissing([]);
  });

  it('a core without the passwordless calls stops a run that may meet phone or email-link users, naming --no-passwordless (exit 2)', async () => {
    core.identity.setMissing(['passwordless']);
    // A push whose plan has none runs.
    const push = await prepare({});
    expect(push).not.toBeInstanceOf(Problem);
    if (!(push instanceof Problem)) await push.client.close();
    // A sync reads its export once, after the checks: it may meet them, so it needs the calls or the flag.
    const journal = await Journal.open(join(folder, 'journal.ndjson'), { sourceFingerprint: 'sha256:x', target: 'x', digestKey: () => Buffer.alloc(32) });
    if (journal instanceof JournalError) throw journal;
    journal.close();
    const settings = (input: Record<string, unknown>) =>
      MigrationSettingsSchema.parse({ file: 'users.ndjson', core: [core.url], journal: 'journal.ndjson', ...input });
    const sync = await prepareMigration(settings({}), { cwd: folder, env: { CORE_API_KEY: apiKey }, command: 'sync' });
    expect(sync).toBeInstanceOf(Problem);
    const error = sync as SettingProblem;
    expect([error.exitCode, error.setting]).toEqual([2, 'passwordless']);
    expect(describeProblem(error, 'flags')).toContain('pass --no-passwordless');
    expect(describeProblem(error, 'flags')).toContain('listed in the report for a password reset');
    expect(describeProblem(error, 'app')).toContain('turn off "passwordless users"');
    const leftOut = await prepareMigration(settings({ passwordless: false }), { cwd: folder, env: { CORE_API_KEY: apiKey }, command: 'sync' });
    expect(leftOut).not.toBeInstanceOf(Problem);
    if (!(leftOut instanceof Problem)) await leftOut.client.close();
    expect(core.writeCount()).toBe(0);
    core.identity.setMissing([]);
  });
});

describe('the exit verdict, the same for both faces', () => {
  const summary = (patch: Partial<PushSummary>): PushSummary => ({
    ...emptyCounts(),
    total: 2,
    imported: 2,
    dryRun: false,
    retries: 0,
    elapsedMs: 1,
    ...patch,
  });
  it("maps every outcome to push's exit codes", () => {
    expect(exitCodeOfPush(summary({}))).toBe(0);
    expect(exitCodeOfPush(summary({ imported: 1, rejected: 1 }))).toBe(1);
    expect(exitCodeOfPush(summary({ stoppedEarly: { reason: 'authRejected', message: '' } }))).toBe(3);
    expect(exitCodeOfPush(summary({ stoppedEarly: { reason: 'credentialsMismatch', message: '' } }))).toBe(2);
    expect(exitCodeOfPush(summary({ credentials: { checked: 1, matchedLocally: 1, notPlanned: 0, loggedIn: 0, signIns: 'done' } }))).toBe(1);
    const rollback = {
      created: 2,
      removed: 2,
      alreadyRemoved: 0,
      removedBySync: 0,
      leftAlone: 0,
      failed: 0,
      notAttempted: 0,
      uncertain: 0,
      dryRun: false,
      recordPath: 'r',
      problems: [],
    };
    expect(exitCodeOfRollback(rollback)).toBe(0);
    expect(exitCodeOfRollback({ ...rollback, failed: 1 })).toBe(1);
    expect(exitCodeOfRollback({ ...rollback, stoppedEarly: { reason: 'tenantNotFound', message: '' } })).toBe(3);
  });
});
