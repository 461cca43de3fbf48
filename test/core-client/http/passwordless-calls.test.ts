import { inspect } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CoreClient } from '../../../core-client/src/http/core-client.js';
import { NotFound } from '../../../core-client/src/http/errors.js';
import { probeIdentityFeatures } from '../../../core-client/src/identity/features.js';
import { Secret } from '../../../core-client/src/secret.js';
import { type CoreDouble, startCoreDouble } from '../../core-double/index.js';
import { bcryptHashOf } from '../../core-double/known-hashes.js';

const API_KEY = 'passwordless-calls-key-0123456789';
const PHONE = '+14155550123';

describe('CoreClient passwordless calls against the core double', () => {
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

  it('makes a code whose handles are Secrets, consumes it into a user, and a second code+consume finds that user', async () => {
    const code = await client.createPasswordlessCode({ phoneNumber: PHONE });
    expect(code.lifetimeMs).toBe(900_000);
    expect(inspect(code)).not.toContain(code.linkCode.reveal());
    expect(inspect(code)).not.toContain(code.preAuthSessionId.reveal());
    const created = await client.consumePasswordlessCode(code);
    expect(created).toEqual({ outcome: 'created', userId: expect.any(String) });
    expect(await client.consumePasswordlessCode(code)).toEqual({ outcome: 'codeGone' });
    const again = await client.consumePasswordlessCode(await client.createPasswordlessCode({ phoneNumber: PHONE }));
    expect(again).toEqual({ outcome: 'existing', userId: created.outcome === 'codeGone' ? '' : created.userId });
    // The tenant's path prefix applies, and no request carried the rid header but the change.
    expect(core.requests().every((request) => request.path.startsWith('/acme/') && request.headers['rid'] === undefined)).toBe(true);
  });

  it('removes the codes of a login, so a code a killed run left can no longer create anyone', async () => {
    const left = await client.createPasswordlessCode({ email: 'pl@example.com' });
    await client.removePasswordlessCodes({ email: 'pl@example.com' });
    expect(core.passwordlessCodes()).toEqual([]);
    expect(await client.consumePasswordlessCode(left)).toEqual({ outcome: 'codeGone' });
    expect(core.passwordlessUsers()).toEqual([]);
  });

  it('finds users of every kind by a login, naming the recipes that hold it', async () => {
    await client.consumePasswordlessCode(await client.createPasswordlessCode({ email: 'both@example.com' }));
    const { userId } = await client.importPasswordHash({ email: 'both@example.com', passwordHash: await bcryptHashOf('pw') });
    const found = await client.usersByAccountInfo({ email: 'both@example.com' });
    expect(found.map((user) => user.recipes).sort()).toEqual([['emailpassword'], ['passwordless']]);
    expect(found.find((user) => user.recipes.includes('emailpassword'))?.userId).toBe(userId);
    expect(await client.usersByAccountInfo({ phoneNumber: PHONE })).toEqual([]);
  });

  it('changes a passwordless login with rid: passwordless, and tells a taken number and an unknown user apart', async () => {
    const created = await client.consumePasswordlessCode(await client.createPasswordlessCode({ phoneNumber: PHONE }));
    if (created.outcome === 'codeGone') throw new Error('not created');
    await client.consumePasswordlessCode(await client.createPasswordlessCode({ phoneNumber: '+14155550999' }));
    expect(await client.changePasswordlessLogin({ recipeUserId: created.userId, phoneNumber: '+14155550124' })).toEqual({ outcome: 'changed' });
    expect(core.requests().at(-1)?.headers['rid']).toBe('passwordless');
    expect(await client.usersByAccountInfo({ phoneNumber: '+14155550124' })).toEqual([{ userId: created.userId, recipes: ['passwordless'] }]);
    expect(await client.changePasswordlessLogin({ recipeUserId: created.userId, phoneNumber: '+14155550999' })).toEqual({ outcome: 'phoneNumberTaken' });
    expect(await client.changePasswordlessLogin({ recipeUserId: 'nobody', email: 'x@example.com' })).toEqual({ outcome: 'unknownUser' });
  });

  it('never puts a link code into an error', async () => {
    core.faults.failNext(1, { status: 400, body: 'bad' });
    const code = await client.createPasswordlessCode({ phoneNumber: PHONE }).catch(() => undefined);
    expect(code).toBeUndefined();
    const made = await client.createPasswordlessCode({ phoneNumber: PHONE });
    core.faults.failNext(1, { status: 400, body: `refused ${made.linkCode.reveal()} and ${made.preAuthSessionId.reveal()}` });
    const error = await client.consumePasswordlessCode(made).catch((caught: unknown) => caught);
    expect(String(error)).not.toContain(made.linkCode.reveal());
    expect(String(error)).not.toContain(made.preAuthSessionId.reveal());
  });

  it('the feature probe finds the passwordless calls without writing, and a core without them answers 404 to every one', async () => {
    expect((await probeIdentityFeatures(client)).passwordless).toBe(true);
    core.identity.setMissing(['passwordless']);
    expect(await probeIdentityFeatures(client)).toMatchObject({ passwordless: false, lookup: true });
    expect(core.writeCount()).toBe(0);
    await expect(client.createPasswordlessCode({ phoneNumber: PHONE })).rejects.toBeInstanceOf(NotFound);
  });
});
