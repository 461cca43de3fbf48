import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PlanItem } from '../../../core-client/src/plan/operation.js';
import type { PlannedRecord } from '../../../core-client/src/plan/plan-source.js';
import { defaultIdentityOptions } from '../../../core-client/src/identity/identity-options.js';
import { runPush } from '../../../core-client/src/push/engine.js';
import type { PushEvent } from '../../../core-client/src/push/events.js';
import type { SyncUserDelta } from '../../../core-client/src/sync/delta.js';
import { type PushBench, startPushBench } from './engine-support.js';
import { emailLinkOperation, fastRetry, FILE, phoneOperation } from './plan-fixtures.js';

async function* recordsOf(items: PlanItem[]): AsyncGenerator<PlannedRecord> {
  for (const item of items) yield { location: item.location, items: [item] };
}

function disabled(line: number): PlanItem {
  return {
    kind: 'rejection',
    operationKey: `${FILE}:L${line}#pl`,
    location: { file: FILE, line },
    sourceId: `old-${line}`,
    code: 'disabledAccount',
    reason: 'disabled in the old system',
  };
}

describe('a sync of passwordless users', () => {
  let bench: PushBench;
  beforeEach(async () => {
    bench = await startPushBench();
    await bench.client.putRole({ role: 'member', permissions: [] });
  });
  afterEach(async () => {
    await bench.close();
  });

  const sync = (items: PlanItem[], onEvent?: (event: PushEvent) => void) =>
    runPush({
      ...(onEvent === undefined ? {} : { onEvent }),
      records: recordsOf(items),
      mode: 'sync',
      sync: { deleted: 'keep', firstPass: () => recordsOf(items) },
      client: bench.client,
      sourceFingerprint: 'sha256:tuesday',
      journalPath: bench.journalPath,
      reportPath: bench.reportPath,
      retryPolicy: fastRetry,
      identity: defaultIdentityOptions,
    });

  it('changes a new number and email with the passwordless update, creates new users, removes the disabled, and reports a taken number', async () => {
    const monday = [phoneOperation(1), emailLinkOperation(2), phoneOperation(3), phoneOperation(4), phoneOperation(5), phoneOperation(6)];
    expect((await bench.push(monday, { identity: defaultIdentityOptions })).summary).toMatchObject({ passwordlessCreated: 6 });
    // Someone signs up in the application with the number user 4 moves to.
    await bench.client.consumePasswordlessCode(await bench.client.createPasswordlessCode({ phoneNumber: '+14155550444' }));

    const tuesday: PlanItem[] = [
      phoneOperation(1, '+14155550101'),
      emailLinkOperation(2, 'new2@example.com'),
      disabled(3),
      phoneOperation(4, '+14155550444'),
      phoneOperation(5),
      phoneOperation(6),
      phoneOperation(7),
    ];
    const deltas: SyncUserDelta[] = [];
    const summary = await sync(tuesday, (event) => {
      if (event.type === 'syncUser') deltas.push(event.user);
    });
    // A changed number is a phone number change, not an email change; the email-link user's new email is one.
    expect(summary.sync).toMatchObject({ new: 1, changed: 3, disabled: 1, emailChanged: 1, phoneNumberChanged: 2 });
    expect(deltas.filter((delta) => delta.change === 'changed').map((delta) => [delta.sourceId, delta.groups])).toEqual([
      ['old-1', ['phoneNumber']],
      ['old-2', ['email']],
      ['old-4', ['phoneNumber']],
    ]);
    expect(summary).toMatchObject({ passwordlessCreated: 1, updated: 2, removed: 1, failed: 1 });

    const logins = Object.fromEntries(bench.core.passwordlessUsers().map((user) => [user.externalId ?? user.id, user.phoneNumber ?? user.email]));
    expect(logins).toMatchObject({ 'old-1': '+14155550101', 'old-2': 'new2@example.com', 'old-4': '+14155550004', 'old-7': '+14155550007' });
    expect(logins['old-3']).toBeUndefined();
    const changes = bench.core.requests().filter((request) => request.method === 'PUT' && request.path === '/recipe/user');
    expect(changes.every((request) => request.headers['rid'] === 'passwordless')).toBe(true);
    expect(await bench.reportLines()).toContainEqual(
      expect.objectContaining({ code: 'phoneNumberTaken', reason: expect.stringContaining('already belongs to another passwordless user') }),
    );
    // The old id, metadata and roles stay with a changed user.
    expect(await bench.client.userRoles('old-1')).toEqual(['member']);
    expect(bench.core.identity.metadataOf('old-1')).toMatchObject({ displayName: 'P1' });

    // What was not brought over is sent again by the next sync, once the number is free.
    await bench.client.removeUser((await bench.client.usersByAccountInfo({ phoneNumber: '+14155550444' }))[0]?.userId ?? '');
    const again = await sync(tuesday);
    expect(again.sync).toMatchObject({ changed: 1 });
    expect(bench.core.passwordlessUsers().find((user) => user.externalId === 'old-4')?.phoneNumber).toBe('+14155550444');
  });
});
