import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CoreClient } from '../../../core-client/src/http/core-client.js';
import { ContractViolation, NotFound, RecordRejected } from '../../../core-client/src/http/errors.js';
import { Secret } from '../../../core-client/src/secret.js';
import { type CoreDouble, startCoreDouble } from '../../core-double/index.js';
import { bcryptHashOf } from '../../core-double/known-hashes.js';

const API_KEY = 'roles-calls-key-0123456789';

describe('CoreClient: changing a user, and user roles, against the core double', () => {
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

  it('changes an email by the old id: the user signs in with it and the same password, and it is unverified', async () => {
    const { userId } = await client.importPasswordHash({ email: 'ann@example.com', passwordHash: await bcryptHashOf('pw-ann') });
    await client.mapUserId({ superTokensUserId: userId, externalUserId: 'old-1' });
    await client.importPasswordHash({ email: 'bob@example.com', passwordHash: await bcryptHashOf('pw-bob') });
    expect(await client.changeEmail({ recipeUserId: 'old-1', email: 'bob@example.com' })).toEqual({ outcome: 'emailTaken' });
    expect(await client.changeEmail({ recipeUserId: 'nobody', email: 'x@example.com' })).toEqual({ outcome: 'unknownUser' });
    expect(await client.changeEmail({ recipeUserId: 'old-1', email: 'ann.new@example.com' })).toEqual({ outcome: 'changed' });
    expect(await client.signIn({ email: 'ann.new@example.com', password: new Secret('pw-ann') })).toEqual({ outcome: 'signedIn' });
    expect(await client.userByEmail('ann.new@example.com')).toEqual({ found: true, userId: 'old-1' });
    expect(await client.isEmailVerified({ userId: 'old-1', email: 'ann.new@example.com' })).toBe(false);
    expect(core.requests().every((request) => request.path.startsWith('/acme/'))).toBe(true);
  });

  it('un-verifies an email', async () => {
    const { userId } = await client.importPasswordHash({ email: 'ann@example.com', passwordHash: await bcryptHashOf('pw') });
    const token = await client.createEmailVerificationToken({ userId, email: 'ann@example.com' });
    if (token.outcome === 'token') await client.verifyEmail(token.token);
    expect(await client.isEmailVerified({ userId, email: 'ann@example.com' })).toBe(true);
    await client.unverifyEmail({ userId, email: 'ann@example.com' });
    expect(await client.isEmailVerified({ userId, email: 'ann@example.com' })).toBe(false);
  });

  it('creates roles, adds permissions, assigns, lists and removes them', async () => {
    expect(await client.putRole({ role: 'editor', permissions: ['read'] })).toEqual({ created: true });
    expect(await client.putRole({ role: 'editor', permissions: ['write'] })).toEqual({ created: false });
    expect(await client.rolePermissions('editor')).toEqual(['read', 'write']);
    expect(await client.rolePermissions('ghost')).toBeUndefined();
    expect(await client.putRole({ role: 'admin', permissions: [] })).toEqual({ created: true });
    expect(await client.listRoles()).toEqual(['editor', 'admin']);

    const { userId } = await client.importPasswordHash({ email: 'ann@example.com', passwordHash: await bcryptHashOf('pw') });
    expect(await client.addUserRole({ userId, role: 'editor' })).toEqual({ outcome: 'added' });
    expect(await client.addUserRole({ userId, role: 'editor' })).toEqual({ outcome: 'alreadyHad' });
    expect(await client.addUserRole({ userId, role: 'ghost' })).toEqual({ outcome: 'unknownRole' });
    expect(await client.addUserRole({ userId, role: 'admin' })).toEqual({ outcome: 'added' });
    expect(await client.userRoles(userId)).toEqual(['editor', 'admin']);
    expect(await client.roleUsers('admin')).toEqual([userId]);
    expect(await client.roleUsers('ghost')).toBeUndefined();
    expect(await client.removeUserRole({ userId, role: 'admin' })).toEqual({ hadRole: true });
    expect(await client.removeUserRole({ userId, role: 'admin' })).toEqual({ hadRole: false });
    expect(await client.removeUserRole({ userId, role: 'ghost' })).toEqual({ hadRole: false });
    expect(await client.removeRole('editor')).toEqual({ existed: true });
    expect(await client.removeRole('editor')).toEqual({ existed: false });
    expect(await client.userRoles(userId)).toEqual([]);
    expect(await client.listRoles()).toEqual(['admin']);
  });

  it("a refused role name is a RecordRejected with the core's sentence; a core without roles is a NotFound; a broken answer a contract violation", async () => {
    const refused = await client.putRole({ role: ' ', permissions: [] }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RecordRejected);
    expect((refused as RecordRejected).coreMessage).toBe("Field name 'role' cannot be an empty String");
    core.faults.failNext(1, { status: 503 });
    expect(await client.listRoles()).toEqual([]);
    core.faults.failNext(1, { status: 200, body: '{"status":"OK"}' });
    await expect(client.putRole({ role: 'a', permissions: [] })).rejects.toBeInstanceOf(ContractViolation);
    core.identity.setMissing(['roles', 'emailChange']);
    await expect(client.listRoles()).rejects.toBeInstanceOf(NotFound);
    await expect(client.addUserRole({ userId: 'u', role: 'a' })).rejects.toBeInstanceOf(NotFound);
    await expect(client.changeEmail({ recipeUserId: 'u', email: 'a@example.com' })).rejects.toBeInstanceOf(NotFound);
  });
});
