import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CoreClient } from '../../../core-client/src/http/core-client.js';
import { runRollback } from '../../../core-client/src/rollback/rollback.js';
import type { ImportOperation } from '../../../core-client/src/plan/operation.js';
import { Journal, JournalError } from '../../../core-client/src/journal/journal.js';
import { Secret } from '../../../core-client/src/secret.js';
import { type CoreDouble, startCoreDouble } from '../../core-double/index.js';
import { bcryptHashOf } from '../../core-double/known-hashes.js';

const API_KEY = 'rollback-test-key-0123456789';

function operation(line: number): ImportOperation {
  return {
    kind: 'passwordImport',
    operationKey: `users.json:L${line}#pw`,
    location: { file: 'users.json', line },
    email: `u${line}@example.com`,
    family: 'bcrypt',
    body: { email: `u${line}@example.com`, passwordHash: `h${line}` },
    exportedCredential: `h${line}`,
    warnings: [],
  };
}

describe('runRollback', () => {
  let core: CoreDouble;
  let client: CoreClient;
  let dir: string;
  beforeEach(async () => {
    core = await startCoreDouble({ apiKeys: [API_KEY] });
    client = new CoreClient({ baseUrl: core.url, apiKey: new Secret(API_KEY) });
    dir = await mkdtemp(join(tmpdir(), 'rollback-'));
  });
  afterEach(async () => {
    await client.close();
    await core.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('removes what the journal says was created, by the name the core now gives it; leaves found users and reused old ids alone', async () => {
    const hash = await bcryptHashOf('pw');
    const create = async (email: string) => (await client.importPasswordHash({ email, passwordHash: hash })).userId;
    const [a, b, c, before] = [await create('a@example.com'), await create('b@example.com'), await create('c@example.com'), await create('e@example.com')];
    await client.mapUserId({ superTokensUserId: a, externalUserId: 'old-a' });
    // B was mapped at the core, but the push was killed before it journalled that.
    await client.mapUserId({ superTokensUserId: b, externalUserId: 'old-b' });
    // C was mapped, then removed by someone, and its old id now names a user this migration did not create.
    await client.removeUser(c);
    const d = await create('d@example.com');
    await client.mapUserId({ superTokensUserId: d, externalUserId: 'old-c' });

    const journalPath = join(dir, 'push.journal');
    const journal = await Journal.open(journalPath, { sourceFingerprint: 'sha256:x', target: client.describe(), digestKey: (salt) => client.digestKey(salt) });
    if (journal instanceof JournalError) throw journal;
    journal.recordStep(operation(1), 'created', { u: a });
    journal.recordStep(operation(1), 'mapped', { x: 'old-a' });
    journal.record(operation(1), { outcome: 'imported' });
    journal.recordStep(operation(2), 'created', { u: b });
    journal.recordStep(operation(3), 'created', { u: c });
    journal.recordStep(operation(3), 'mapped', { x: 'old-c' });
    journal.record(operation(3), { outcome: 'imported' });
    journal.recordStep(operation(4), 'found', { u: before });
    journal.record(operation(4), { outcome: 'alreadyExisted' });
    journal.close();

    const summary = await runRollback({ journalPath, client });
    expect(summary).toMatchObject({ created: 3, removed: 2, leftAlone: 1, failed: 0, uncertain: 0 });
    expect(summary.problems).toEqual([expect.stringContaining('old-c now names another core user')]);
    expect(
      core
        .users()
        .map((user) => user.email)
        .sort(),
    ).toEqual(['d@example.com', 'e@example.com']);
    const removals = core.requests().filter((request) => request.path === '/user/remove');
    expect(
      removals
        .map((request) => (request.body as { userId: string }).userId)
        .slice(-2)
        .sort(),
    ).toEqual(['old-a', 'old-b']);
  });

  it('refuses a journal written for another core', async () => {
    const journalPath = join(dir, 'other.journal');
    const journal = await Journal.open(journalPath, {
      sourceFingerprint: 'sha256:x',
      target: 'http://127.0.0.1:1 (tenant public)',
      digestKey: (salt) => client.digestKey(salt),
    });
    if (journal instanceof JournalError) throw journal;
    journal.close();
    await expect(runRollback({ journalPath, client })).rejects.toThrow(/records a push to http:\/\/127\.0\.0\.1:1 \(tenant public\)/);
  });
});
