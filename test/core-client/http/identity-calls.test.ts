import { inspect } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CoreClient } from '../../../core-client/src/http/core-client.js';
import { NotFound, ContractViolation } from '../../../core-client/src/http/errors.js';
import { probeIdentityFeatures } from '../../../core-client/src/identity/features.js';
import { Secret } from '../../../core-client/src/secret.js';
import { type CoreDouble, startCoreDouble } from '../../core-double/index.js';
import { bcryptHashOf } from '../../core-double/known-hashes.js';

const API_KEY = 'identity-calls-key-0123456789';

describe('CoreClient identity calls against the core double', () => {
  let core: CoreDouble;
  let client: CoreClient;
  beforeAll(async () => {
    core = await startCoreDouble({ apiKeys: [API_KEY], tenants: ['acme'] });
    client = new CoreClient({
      baseUrl: core.url,
      apiKey: new Secret(API_KEY),
      tenantId: 'acme',
      retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2, maxTotalMs: 1_000 },
    });
  });
  afterAll(async () => {
    await client.close();
    await core.close();
  });
  beforeEach(() => {
    core.reset();
    core.identity.setMissing([]);
  });

  it('maps, treats the same mapping again as done, and tells a conflict and an unknown user apart', async () => {
    const { userId } = await client.importPasswordHash({ email: 'ann@example.com', passwordHash: await bcryptHashOf('pw') });
    expect(await client.mapUserId({ superTokensUserId: userId, externalUserId: 'old-1', externalUserIdInfo: 'test' })).toEqual({ outcome: 'mapped' });
    expect(await client.mapUserId({ superTokensUserId: userId, externalUserId: 'old-1' })).toEqual({ outcome: 'alreadyMapped' });
    const other = await client.importPasswordHash({ email: 'bob@example.com', passwordHash: await bcryptHashOf('pw') });
    expect(await client.mapUserId({ superTokensUserId: other.userId, externalUserId: 'old-1' })).toEqual({
      outcome: 'conflict',
      coreIdMapped: false,
      externalIdMapped: true,
    });
    expect(await client.mapUserId({ superTokensUserId: 'nobody', externalUserId: 'old-9' })).toEqual({ outcome: 'unknownUser' });
    expect(await client.userIdMapping('old-1')).toEqual({ coreId: userId, externalId: 'old-1' });
    expect(await client.userByEmail('ann@example.com')).toEqual({ found: true, userId: 'old-1' });
    expect(await client.userByEmail('nobody@example.com')).toEqual({ found: false });
    // The tenant's path prefix applies to every identity call.
    expect(core.requests().every((request) => request.path.startsWith('/acme/'))).toBe(true);
  });

  it('verifies with a token that is a Secret, and never prints it', async () => {
    const { userId } = await client.importPasswordHash({ email: 'ann@example.com', passwordHash: await bcryptHashOf('pw') });
    const token = await client.createEmailVerificationToken({ userId, email: 'ann@example.com' });
    expect(token.outcome).toBe('token');
    if (token.outcome !== 'token') return;
    expect(inspect(token)).not.toContain(token.token.reveal());
    expect(await client.verifyEmail(token.token)).toEqual({ outcome: 'verified' });
    expect(await client.verifyEmail(token.token)).toEqual({ outcome: 'invalidToken' });
    expect(await client.createEmailVerificationToken({ userId, email: 'ann@example.com' })).toEqual({ outcome: 'alreadyVerified' });
    expect(await client.isEmailVerified({ userId, email: 'ann@example.com' })).toBe(true);
  });

  it('merges metadata, removes users, and retries a 503 like every call', async () => {
    expect(await client.updateUserMetadata({ userId: 'u1', metadataUpdate: { a: 1 } })).toEqual({ a: 1 });
    core.faults.failNext(1, { status: 503 });
    expect(await client.updateUserMetadata({ userId: 'u1', metadataUpdate: { b: 2 } })).toEqual({ a: 1, b: 2 });
    expect(await client.userMetadata('u1')).toEqual({ a: 1, b: 2 });
    const { userId } = await client.importPasswordHash({ email: 'ann@example.com', passwordHash: await bcryptHashOf('pw') });
    await client.removeUser(userId);
    expect(core.users()).toHaveLength(0);
  });

  it('a missing feature is a NotFound (404), found by the probe; a broken answer is a contract violation', async () => {
    core.identity.setMissing(['metadata', 'removal', 'roles', 'emailChange']);
    await expect(client.userMetadata('u1')).rejects.toBeInstanceOf(NotFound);
    expect(await probeIdentityFeatures(client)).toEqual({
      mapping: true,
      verification: true,
      metadata: false,
      lookup: true,
      removal: false,
      roles: false,
      emailChange: false,
      passwordless: true,
    });
    core.faults.failNext(1, { status: 200, body: '{"status":"OK"}' });
    await expect(client.userByEmail('ann@example.com')).rejects.toBeInstanceOf(ContractViolation);
  });
});
