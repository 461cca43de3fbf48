import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CoreClient } from '../../core-client/src/http/core-client.js';
import { probeIdentityFeatures } from '../../core-client/src/identity/features.js';
import type { PlanItem } from '../../core-client/src/plan/operation.js';
import type { PlannedRecord } from '../../core-client/src/plan/plan-source.js';
import { runPush } from '../../core-client/src/push/engine.js';
import { defaultIdentityOptions } from '../../core-client/src/identity/identity-options.js';
import { Secret } from '../../core-client/src/secret.js';
import { emailLinkOperation, fastRetry, phoneOperation } from '../core-client/push/plan-fixtures.js';
import { callCore } from './support/core-calls.js';
import { REAL_CORE_API_KEY, describeLive, useRealCore, type RealCore } from './support/real-core.js';

async function* recordsOf(items: PlanItem[]): AsyncGenerator<PlannedRecord> {
  for (const item of items) yield { location: item.location, items: [item] };
}

/** Passwordless users (issue 27) on a real core: the client's calls, then a push of phone and email-link users. */
describeLive('passwordless users on a real core', { core: 'memory' }, () => {
  let core: RealCore;
  let client: CoreClient;
  let dir: string;

  beforeAll(async () => {
    [core, dir] = await Promise.all([useRealCore({ core: 'memory' }), mkdtemp(join(tmpdir(), 'real-core-passwordless-'))]);
    // One request at a time: the in-memory store answers concurrent writes with lock conflicts (retried, but slower).
    client = new CoreClient({ baseUrl: core.url, apiKey: new Secret(REAL_CORE_API_KEY), retry: fastRetry });
  });
  afterAll(async () => {
    await client?.close();
    await core?.stop();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('the client: code+consume creates a phone user found by its number; a second one finds it; codes/remove; the rid-header change', async () => {
    expect((await probeIdentityFeatures(client)).passwordless).toBe(true);
    const created = await client.consumePasswordlessCode(await client.createPasswordlessCode({ phoneNumber: '+14155550100' }));
    expect(created).toEqual({ outcome: 'created', userId: expect.any(String) });
    const userId = created.outcome === 'codeGone' ? '' : created.userId;
    expect(await client.usersByAccountInfo({ phoneNumber: '+14155550100' })).toEqual([{ userId, recipes: ['passwordless'] }]);
    expect(await client.consumePasswordlessCode(await client.createPasswordlessCode({ phoneNumber: '+14155550100' }))).toEqual({ outcome: 'existing', userId });

    const left = await client.createPasswordlessCode({ phoneNumber: '+14155550100' });
    await client.removePasswordlessCodes({ phoneNumber: '+14155550100' });
    expect(await client.consumePasswordlessCode(left)).toEqual({ outcome: 'codeGone' });

    expect(await client.changePasswordlessLogin({ recipeUserId: userId, phoneNumber: '+14155550101' })).toEqual({ outcome: 'changed' });
    expect(await client.usersByAccountInfo({ phoneNumber: '+14155550101' })).toEqual([{ userId, recipes: ['passwordless'] }]);
    expect(await client.usersByAccountInfo({ phoneNumber: '+14155550100' })).toEqual([]);
    // Without the rid header the same call is the password user's update.
    const withoutRid = await callCore(core.url, 'PUT', '/recipe/user', { recipeUserId: userId, phoneNumber: '+14155550102' });
    expect([withoutRid.status, withoutRid.text.trim()]).toEqual([400, 'You have to provide either email or password.']);
    await client.removeUser(userId);
  });

  it("a push keeps a phone-only user's old id, metadata and roles, found by its number; a second push creates nothing", async () => {
    await client.putRole({ role: 'member', permissions: ['read'] });
    const items = [phoneOperation(1), emailLinkOperation(2)];
    const push = (journal: string) =>
      runPush({
        records: recordsOf(items),
        total: items.length,
        client,
        sourceFingerprint: 'sha256:real-core-passwordless',
        journalPath: join(dir, journal),
        reportPath: join(dir, `${journal}.report`),
        retryPolicy: fastRetry,
        identity: defaultIdentityOptions,
        concurrency: { initial: 1, min: 1, max: 1 },
      });
    expect(await push('first.journal')).toMatchObject({ passwordlessCreated: 2, failed: 0, steps: { mapped: 2, metadataWritten: 2, rolesAssigned: 1 } });
    expect(await client.usersByAccountInfo({ phoneNumber: '+14155550001' })).toEqual([{ userId: 'old-1', recipes: ['passwordless'] }]);
    expect(await client.userMetadata('old-1')).toMatchObject({ displayName: 'P1' });
    expect(await client.userRoles('old-1')).toEqual(['member']);
    expect(await client.usersByAccountInfo({ email: 'link2@example.com' })).toEqual([{ userId: 'old-2', recipes: ['passwordless'] }]);

    const count = (await callCore(core.url, 'GET', '/users/count')).body;
    // Resumed from its journal: nothing is sent again. With a new journal: both logins are there, left untouched.
    expect(await push('first.journal')).toMatchObject({ skipped: 2, passwordlessCreated: 0 });
    expect(await push('second.journal')).toMatchObject({ passwordlessExisting: 2, passwordlessCreated: 0 });
    expect((await callCore(core.url, 'GET', '/users/count')).body).toEqual(count);
  });
});
