import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCKED_TABLE_TEXT } from '../../core-double/contention.js';
import { Journal, JournalError } from '../../../core-client/src/journal/journal.js';
import type { PasswordlessOperation } from '../../../core-client/src/plan/operation.js';
import { defaultIdentityOptions } from '../../../core-client/src/identity/identity-options.js';
import { MAX_CODES_PER_CREATION } from '../../../core-client/src/push/user-steps.js';
import { type PushBench, startPushBench } from './engine-support.js';
import { emailLinkOperation, phoneOperation } from './plan-fixtures.js';

const isConsume = (path: string): boolean => path.endsWith('/code/consume');

/** Journals the intent of each operation, as a run killed right after it would have left it. */
async function journalIntents(bench: PushBench, operations: PasswordlessOperation[]): Promise<void> {
  const journal = await Journal.open(bench.journalPath, {
    sourceFingerprint: 'sha256:test',
    target: bench.client.describe(),
    digestKey: (salt) => bench.client.digestKey(salt),
  });
  if (journal instanceof JournalError) throw journal;
  for (const operation of operations) await journal.announce(operation);
  journal.close();
}

describe('runPush with passwordless users', () => {
  let bench: PushBench;
  beforeEach(async () => {
    bench = await startPushBench();
    await bench.client.putRole({ role: 'member', permissions: [] });
  });
  afterEach(async () => {
    await bench.close();
  });

  it('creates phone and email-link users by a code consumed at once, then keeps the old id, metadata and roles', async () => {
    const phone = phoneOperation(1);
    const { summary } = await bench.push([phone, emailLinkOperation(2)], { identity: defaultIdentityOptions, concurrency: { initial: 1, min: 1, max: 1 } });
    expect(summary).toMatchObject({
      passwordlessCreated: 2,
      passwordlessExisting: 0,
      failed: 0,
      total: 2,
      steps: { mapped: 2, metadataWritten: 2, rolesAssigned: 1 },
    });
    // One user at a time: the first user's requests follow the role's creation.
    const firstUser = bench.core
      .requests()
      .slice(1, 7)
      .map((request) => `${request.method} ${request.path.split('?')[0] ?? ''}`);
    expect(firstUser).toEqual([
      'GET /users/by-accountinfo',
      'POST /recipe/signinup/code',
      'POST /recipe/signinup/code/consume',
      'POST /recipe/userid/map',
      'PUT /recipe/user/metadata',
      'PUT /recipe/user/role',
    ]);
    const users = bench.core.passwordlessUsers();
    expect(users.map((user) => [user.externalId, user.phoneNumber ?? user.email]).sort()).toEqual([
      ['old-1', '+14155550001'],
      ['old-2', 'link2@example.com'],
    ]);
    expect(bench.core.identity.metadataOf('old-1')).toMatchObject({ displayName: 'P1' });
    expect(await bench.client.userRoles('old-1')).toEqual(['member']);
    // An email-link user's email is verified by the consumed code itself: no verification token was asked for.
    expect(bench.core.identity.isVerified('old-2', 'link2@example.com')).toBe(true);
    expect(bench.core.requests().some((request) => request.path.includes('/email/verify'))).toBe(false);
    expect(bench.core.passwordlessCodes()).toEqual([]);
  });

  it('never writes a link code or its session id to the journal or the report', async () => {
    bench.core.faults.failBodiesContaining('linkCode', { status: 400, body: 'refused' });
    await bench.push([phoneOperation(1)], { identity: defaultIdentityOptions });
    const sent = bench.core.requests().filter((request) => isConsume(request.path));
    expect(sent.length).toBeGreaterThan(0);
    const { linkCode, preAuthSessionId } = sent[0]?.body as { linkCode: string; preAuthSessionId: string };
    for (const path of [bench.journalPath, bench.reportPath]) {
      const text = await readFile(path, 'utf8');
      expect(text).not.toContain(linkCode);
      expect(text).not.toContain(preAuthSessionId);
    }
  });

  it("leaves a login that already has a passwordless user (not this migration's) untouched, without making a code", async () => {
    const existing = await bench.client.consumePasswordlessCode(await bench.client.createPasswordlessCode({ phoneNumber: '+14155550001' }));
    const { summary } = await bench.push([phoneOperation(1)], { identity: defaultIdentityOptions });
    expect(summary).toMatchObject({ passwordlessExisting: 1, passwordlessCreated: 0, total: 1, steps: { mapped: 0, metadataWritten: 0 } });
    expect(bench.core.requests().filter((request) => request.path.endsWith('/signinup/code'))).toHaveLength(1);
    expect(bench.core.passwordlessUsers()).toEqual([expect.objectContaining({ id: existing.outcome === 'codeGone' ? '' : existing.userId })]);
    expect(bench.core.passwordlessUsers()[0]?.externalId).toBeUndefined();
    expect(await bench.reportLines()).toEqual([
      expect.objectContaining({
        operation: 'passwordlessSignInUp',
        reason: expect.stringContaining('a passwordless user with this phone number was already in the core'),
      }),
    ]);
    // A second push is skipped by the journal: nothing is sent for it.
    const before = bench.core.requestCount();
    expect((await bench.push([phoneOperation(1)], { identity: defaultIdentityOptions })).summary).toMatchObject({ skipped: 1 });
    expect(bench.core.requestCount()).toBe(before);
  });

  it('a run stopped between code and consume leaves a code; the resume removes it and creates the user once', async () => {
    const phone = phoneOperation(1);
    // The consume is refused hard (a key revoked mid-run): the code is made, the user is not.
    bench.core.faults.failBodiesContaining('linkCode', { status: 401, body: 'Invalid API key' });
    const first = await bench.push([phone], { identity: defaultIdentityOptions });
    expect(first.summary.stoppedEarly?.reason).toBe('authRejected');
    expect(bench.core.passwordlessCodes()).toHaveLength(1);
    expect(bench.core.passwordlessUsers()).toEqual([]);

    bench.core.faults.clearFaults();
    const second = await bench.push([phone], { identity: defaultIdentityOptions });
    expect(second.summary).toMatchObject({ passwordlessCreated: 1, failed: 0, steps: { mapped: 1 } });
    expect(bench.core.passwordlessUsers()).toHaveLength(1);
    expect(bench.core.passwordlessCodes()).toEqual([]);
    const removeAt = bench.core.requests().findIndex((request) => request.path.endsWith('/signinup/codes/remove'));
    const lastCodeAt = bench.core.requests().findLastIndex((request) => request.path.endsWith('/signinup/code'));
    expect(removeAt).toBeGreaterThan(-1);
    expect(removeAt).toBeLessThan(lastCodeAt);
  });

  it('after an intent whose consume created the user (its answer lost), the resume counts it as created, with or without the lookup', async () => {
    const withLookup = phoneOperation(1);
    const withoutLookup = phoneOperation(2);
    await journalIntents(bench, [withLookup, withoutLookup]);
    for (const phoneNumber of ['+14155550001', '+14155550002']) {
      await bench.client.consumePasswordlessCode(await bench.client.createPasswordlessCode({ phoneNumber }));
      await bench.client.createPasswordlessCode({ phoneNumber });
    }
    const found = await bench.push([withLookup], { identity: defaultIdentityOptions });
    expect(found.summary).toMatchObject({ passwordlessCreated: 1, steps: { mapped: 1, completedAfterResume: 1 } });
    const consumed = await bench.push([withoutLookup], { identity: { ...defaultIdentityOptions, lookup: false } });
    expect(consumed.summary).toMatchObject({ passwordlessCreated: 1, passwordlessExisting: 0, steps: { mapped: 1 } });
    expect(await bench.reportLines()).toContainEqual(
      expect.objectContaining({ reason: expect.stringContaining('an earlier creation of this migration for it was sent and its answer lost') }),
    );
    expect(
      bench.core
        .passwordlessUsers()
        .map((user) => user.externalId)
        .sort(),
    ).toEqual(['old-1', 'old-2']);
    expect(bench.core.passwordlessCodes()).toEqual([]);
  });

  /** One phone user pushed on a fresh journal, its code request answered 500 with `fault` once: the paths sent. */
  const pushWithCodeFault = async (fault: string): Promise<string[]> => {
    const before = bench.core.requestCount();
    // The lookup is request before + 1, the code request before + 2.
    bench.core.faults.failRequestNumber(before + 2, { status: 500, body: fault });
    const { summary } = await bench.push([phoneOperation(1)], { identity: { ...defaultIdentityOptions, keepIds: false, metadata: false, roles: false } });
    expect(summary).toMatchObject({ passwordlessCreated: 1, failed: 0 });
    expect(bench.core.passwordlessCodes()).toEqual([]);
    return bench.core
      .requests()
      .slice(before)
      .map((request) => request.path.split('?')[0] ?? '');
  };

  it("a code request that lost the store's lock made no code: it is sent again, and no codes are removed", async () => {
    expect(await pushWithCodeFault(LOCKED_TABLE_TEXT)).toEqual([
      '/users/by-accountinfo',
      '/recipe/signinup/code',
      '/recipe/signinup/code',
      '/recipe/signinup/code/consume',
    ]);
  });

  it("a code request whose answer was another server error may have made a code: that login's codes are removed", async () => {
    expect(await pushWithCodeFault('java.lang.NullPointerException')).toEqual([
      '/users/by-accountinfo',
      '/recipe/signinup/code',
      '/recipe/signinup/code',
      '/recipe/signinup/code/consume',
      '/recipe/signinup/codes/remove',
    ]);
  });

  it('a consume carried out whose answer was lost: its retry finds the code used, a fresh code finds the user, counted as created once', async () => {
    // The consume is acted on, but its body comes after the client's 2 s deadline: a lost answer, retried.
    bench.core.faults.slowBodyNext(1, 3_000, 'POST', '/recipe/signinup/code/consume');
    const { summary } = await bench.push([phoneOperation(1)], { identity: { ...defaultIdentityOptions, lookup: false } });
    expect(summary).toMatchObject({ passwordlessCreated: 1, passwordlessExisting: 0, failed: 0, steps: { mapped: 1 } });
    expect(bench.core.passwordlessUsers()).toHaveLength(1);
    expect(bench.core.passwordlessCodes()).toEqual([]);
    expect(bench.core.requests().filter((request) => request.path.endsWith('/signinup/code'))).toHaveLength(2);
    expect(await bench.reportLines()).toContainEqual(
      expect.objectContaining({ reason: expect.stringContaining('an earlier creation of this migration for it was sent and its answer lost') }),
    );
  });

  it("consumes that used their code up, then lost the store's lock, ten in a row: a fresh code each time, the user created once", async () => {
    bench.core.faults.loseConsumesAfterUse(10);
    const { summary } = await bench.push([phoneOperation(1)], { identity: defaultIdentityOptions });
    expect(summary).toMatchObject({ passwordlessCreated: 1, failed: 0, steps: { mapped: 1 } });
    expect(bench.core.passwordlessUsers()).toHaveLength(1);
    expect(bench.core.passwordlessCodes()).toEqual([]);
    expect(bench.core.requests().filter((request) => request.path.endsWith('/signinup/code'))).toHaveLength(11);
  });

  it('a core that uses every code up and makes no user: the creation fails after a bounded number of codes, with the reason', async () => {
    bench.core.faults.loseConsumesAfterUse(1_000);
    const { summary } = await bench.push([phoneOperation(1), emailLinkOperation(2)], { identity: defaultIdentityOptions });
    expect(summary).toMatchObject({ passwordlessCreated: 0, failed: 2 });
    expect(bench.core.passwordlessUsers()).toEqual([]);
    expect(bench.core.requests().filter((request) => request.path.endsWith('/signinup/code'))).toHaveLength(2 * MAX_CODES_PER_CREATION);
    expect(await bench.reportLines()).toContainEqual(
      expect.objectContaining({
        code: 'passwordlessCodeGone',
        reason: expect.stringContaining(`the core answered ${MAX_CODES_PER_CREATION} fresh codes for this login as used`),
      }),
    );
  });

  it('a code found gone on its first answer (another consume used it) is made again once, then the creation fails', async () => {
    bench.core.faults.failBodiesContaining('linkCode', {
      status: 200,
      body: JSON.stringify({ status: 'RESTART_FLOW_ERROR' }),
      contentType: 'application/json',
    });
    const { summary } = await bench.push([phoneOperation(1)], { identity: defaultIdentityOptions });
    expect(summary).toMatchObject({ passwordlessCreated: 0, failed: 1 });
    expect(bench.core.requests().filter((request) => request.path.endsWith('/signinup/code'))).toHaveLength(2);
  });

  it('a core that loses the passwordless calls mid-run stops the push once, not per user', async () => {
    bench.core.identity.setMissing(['passwordless']);
    const { summary } = await bench.push([phoneOperation(1), phoneOperation(2), phoneOperation(3)], {
      identity: defaultIdentityOptions,
      concurrency: { initial: 1, min: 1, max: 1 },
    });
    expect(summary.stoppedEarly?.reason).toBe('coreRefused');
    expect(summary).toMatchObject({ failed: 1, notAttempted: 2, passwordlessCreated: 0 });
  });
});
