import { access, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CoreClient } from '../../../core-client/src/http/core-client.js';
import { Secret } from '../../../core-client/src/secret.js';
import { runMigration } from '../../../core-client/src/push/migration.js';
import type { CredentialCheck } from '../../../core-client/src/push/credentials.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';

const API_KEY = 'migration-test-key-0123456789';

let core: CoreDouble;
let client: CoreClient;
let folder: string;

beforeEach(async () => {
  core = await startCoreDouble({ apiKeys: [API_KEY] });
  client = new CoreClient({ baseUrl: core.url, apiKey: new Secret(API_KEY), retry: false });
  folder = await mkdtemp(join(tmpdir(), 'migration-'));
});

afterEach(async () => {
  await client.close();
  await core.close();
});

async function exportWith(users: { email: string; password: string }[]): Promise<string> {
  const path = join(folder, 'users.ndjson');
  await writeFile(path, users.map((user) => JSON.stringify({ email: user.email, passwordHash: bcrypt.hashSync(user.password, 4) })).join('\n'));
  return path;
}

describe('runMigration', () => {
  it('proves known accounts locally, pushes, then signs them in at the core', async () => {
    const sourcePath = await exportWith([
      { email: 'ada@example.com', password: 'analytical' },
      { email: 'bob@example.com', password: 'builder' },
    ]);
    const stages: [string, CredentialCheck[]][] = [];
    const summary = await runMigration({
      sourcePath,
      planOptions: {},
      total: 2,
      client,
      journalPath: join(folder, 'journal.ndjson'),
      reportPath: join(folder, 'report.ndjson'),
      credentials: [{ email: 'ada@example.com', password: new Secret('analytical'), line: 1 }],
      onCredentialChecks: (checks, stage) => stages.push([stage, checks]),
    });
    expect(summary).toMatchObject({ imported: 2, total: 2, credentials: { checked: 1, matchedLocally: 1, loggedIn: 1 } });
    expect(stages.map(([stage]) => stage)).toEqual(['local', 'signIn']);
    expect(
      core
        .emailPasswordUsers()
        .map((user) => user.email)
        .sort(),
    ).toEqual(['ada@example.com', 'bob@example.com']);
  });

  it('sends nothing when a known password does not match its planned hash', async () => {
    const sourcePath = await exportWith([{ email: 'ada@example.com', password: 'analytical' }]);
    const summary = await runMigration({
      sourcePath,
      planOptions: {},
      total: 1,
      client,
      journalPath: join(folder, 'journal.ndjson'),
      reportPath: join(folder, 'report.ndjson'),
      credentials: [{ email: 'ada@example.com', password: new Secret('not the password'), line: 1 }],
    });
    expect(summary).toMatchObject({ stoppedEarly: { reason: 'credentialsMismatch' }, notAttempted: 1, imported: 0, total: 1 });
    expect(summary.stoppedEarly?.message).not.toContain('not the password');
    expect(core.requests()).toEqual([]);
    // Nothing was written: the summary names no journal or report, and says no sign-in was tried.
    expect(summary.journalPath).toBeUndefined();
    expect(summary.reportPath).toBeUndefined();
    expect(summary.credentials).toMatchObject({ signIns: 'notTried', loggedIn: null });
    await expect(access(join(folder, 'journal.ndjson'))).rejects.toThrow();
    await expect(access(join(folder, 'report.ndjson'))).rejects.toThrow();
  });
});
