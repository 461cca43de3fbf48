import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CoreClient } from '../../../core-client/src/http/core-client.js';
import { openWaitingStore } from '../../../core-client/src/login-time/store/open-store.js';
import { isWaitingStoreError } from '../../../core-client/src/login-time/store/waiting-store.js';
import { runMigration } from '../../../core-client/src/push/migration.js';
import { Secret } from '../../../core-client/src/secret.js';
import { describeProblem } from '../../../core-client/src/settings/setting-problem.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { waitingUsersFromFixtures } from '../../support/login-migrate-fixture.js';

const API_KEY = 'store-failure-test-key-0123456789';

let core: CoreDouble;
let client: CoreClient;
let folder: string;

beforeEach(async () => {
  core = await startCoreDouble({ apiKeys: [API_KEY] });
  client = new CoreClient({ baseUrl: core.url, apiKey: new Secret(API_KEY), retry: false });
  folder = await mkdtemp(join(tmpdir(), 'store-failure-'));
});

afterEach(async () => {
  await client.close();
  await core.close();
});

describe('a push whose waiting store fails while it parks users', () => {
  it("ends with the store's problem, its code and setting as data, and says a resume parks the rest", async () => {
    const [user] = waitingUsersFromFixtures(['django_pbkdf2_sha256']);
    if (user === undefined) throw new Error('no Django fixture');
    const sourcePath = join(folder, 'users.ndjson');
    await writeFile(sourcePath, `${JSON.stringify({ email: user.email, passwordHash: user.hash })}\n`);
    // Opened, then closed under the run: every write the push asks of it fails as the store's problem.
    const store = await openWaitingStore(join(folder, 'waiting.sqlite'));
    await store.close();

    const ended: unknown = await runMigration({
      sourcePath,
      planOptions: { loginTime: true },
      client,
      journalPath: join(folder, 'journal.ndjson'),
      reportPath: join(folder, 'report.ndjson'),
      loginTimeStore: store,
    }).catch((error: unknown) => error);

    expect(ended).toMatchObject({ code: 'waitingStoreUnavailable', kind: 'setting', setting: 'loginTime', exitCode: 2 });
    expect(isWaitingStoreError(ended) && describeProblem(ended, 'flags')).toMatch(/nothing more was sent; a resume parks the rest$/);
    expect(core.emailPasswordUsers()).toEqual([]);
  });
});
