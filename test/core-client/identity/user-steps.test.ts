import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultIdentityOptions } from '../../../core-client/src/identity/identity-options.js';
import type { PasswordImportOperation } from '../../../core-client/src/plan/operation.js';
import { type PushBench, startPushBench } from '../push/engine-support.js';
import { bcryptOperation } from '../push/plan-fixtures.js';

function withIdentity(line: number): PasswordImportOperation {
  return {
    ...bcryptOperation(line),
    identity: { sourceId: `old-${line}`, system: 'test', carriesSourceId: true, emailVerified: true, disabled: false, profile: { displayName: `U${line}` } },
  };
}

describe("runPush with each user's identity steps", () => {
  let bench: PushBench;
  beforeEach(async () => {
    bench = await startPushBench();
  });
  afterEach(async () => {
    await bench.close();
  });

  it('runs lookup, import, mapping, verification and metadata for each user, one after another', async () => {
    const items = [withIdentity(1), withIdentity(2), withIdentity(3)];
    const { summary } = await bench.push(items, { identity: defaultIdentityOptions });
    expect(summary).toMatchObject({ imported: 3, total: 3, steps: { mapped: 3, verified: 3, metadataWritten: 3 } });
    const forUser1 = bench.core
      .requests()
      .filter(
        (request) =>
          request.path.includes('user1%40') || JSON.stringify(request.body ?? '').includes('user1@') || JSON.stringify(request.body ?? '').includes('old-1'),
      )
      .map((request) => `${request.method} ${request.path.split('?')[0] ?? ''}`);
    expect(forUser1).toEqual([
      'GET /recipe/user',
      'POST /recipe/user/passwordhash/import',
      'POST /recipe/userid/map',
      'POST /recipe/user/email/verify/token',
      'PUT /recipe/user/metadata',
    ]);
  });

  it('a verification carried out whose answer was lost: its retry hears the token is gone, a fresh token hears "already verified"', async () => {
    // The verify is acted on, but its body comes after the client's 2 s deadline: a lost answer, retried.
    bench.core.faults.slowBodyNext(1, 3_000, 'POST', '/recipe/user/email/verify');
    const item = withIdentity(1);
    const { summary } = await bench.push([item], { identity: defaultIdentityOptions });
    expect(summary).toMatchObject({ imported: 1, failed: 0, steps: { verified: 1, metadataWritten: 1 } });
    const [user] = bench.core.users();
    expect(user !== undefined && bench.core.identity.isVerified(user.id, item.email)).toBe(true);
    expect(bench.core.requests().filter((request) => request.path.endsWith('/email/verify/token'))).toHaveLength(2);
  });

  it('a core that refuses its own fresh token (answered, nothing lost): the user fails with the reason, no second token', async () => {
    bench.core.faults.failBodiesContaining('"method":"token"', {
      status: 200,
      body: '{"status":"EMAIL_VERIFICATION_INVALID_TOKEN_ERROR"}',
      contentType: 'application/json',
    });
    const { summary } = await bench.push([withIdentity(1)], { identity: defaultIdentityOptions });
    expect(summary).toMatchObject({ imported: 0, failed: 1, steps: { verified: 0 } });
    expect(await bench.reportLines()).toContainEqual(expect.objectContaining({ code: 'verificationFailed' }));
    expect(bench.core.requests().filter((request) => request.path.endsWith('/email/verify/token'))).toHaveLength(1);
  });

  it('a core that loses a call mid-run stops the push once (not per user); the resume finishes the created user without importing it again', async () => {
    const items = [withIdentity(1), withIdentity(2), withIdentity(3)];
    bench.core.identity.setMissing(['mapping']);
    const first = await bench.push(items, { identity: defaultIdentityOptions, concurrency: { initial: 1, min: 1, max: 1 } });
    expect(first.summary.stoppedEarly?.reason).toBe('coreRefused');
    expect(first.summary.stoppedEarly?.message).toContain('404');
    expect(first.summary).toMatchObject({ failed: 1, notAttempted: 2, imported: 0 });
    expect(bench.core.users()).toHaveLength(1);

    bench.core.identity.setMissing([]);
    const importsBefore = bench.core.requests().filter((request) => request.path.endsWith('/passwordhash/import')).length;
    const second = await bench.push(items, { identity: defaultIdentityOptions });
    expect(second.summary).toMatchObject({ imported: 3, failed: 0, steps: expect.objectContaining({ mapped: 3, completedAfterResume: 1 }) });
    const importsAfter = bench.core.requests().filter((request) => request.path.endsWith('/passwordhash/import')).length;
    expect(importsAfter - importsBefore).toBe(2);
    expect(
      bench.core
        .users()
        .map((user) => user.externalId)
        .sort(),
    ).toEqual(['old-1', 'old-2', 'old-3']);
  });
});
