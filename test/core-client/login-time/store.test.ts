import { copyFileSync, mkdtempSync, renameSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWaitingStore } from '../../../core-client/src/login-time/store/open-store.js';
import { isWaitingStoreError, type WaitingStore } from '../../../core-client/src/login-time/store/waiting-store.js';
import type { ParkedUser } from '../../../core-client/src/login-time/store/waiting-user.js';
import { describeProblem } from '../../../core-client/src/settings/setting-problem.js';
import { startTestPostgres, type TestPostgres } from '../../support/embedded-postgres.js';

const HASH = 'pbkdf2_sha256$1000$salt$c2VjcmV0LWhhc2gtdmFsdWUtbmV2ZXItc2hvd24=';

function parked(email: string, overrides: Partial<ParkedUser> = {}): ParkedUser {
  return {
    email,
    sourceId: `old-${email}`,
    mapSourceId: true,
    mappingInfo: 'core-migrate: django id',
    emailVerified: true,
    metadata: { first_name: 'Ada' },
    roles: ['admin'],
    family: 'django_pbkdf2_sha256',
    legacyHash: HASH,
    ...overrides,
  };
}

let directory: string;
let postgres: TestPostgres;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'waiting-store-'));
  postgres = await startTestPostgres();
}, 120_000);

afterAll(async () => {
  await postgres.stop();
  rmSync(directory, { recursive: true, force: true });
});

let files = 0;

/** A copy of the file beside it, to put in its place. */
function copy(path: string): string {
  copyFileSync(path, `${path}.copy`);
  return `${path}.copy`;
}
const kinds = [
  {
    name: 'SQLite',
    location: () => {
      files += 1;
      return Promise.resolve(join(directory, `store-${files}.sqlite`));
    },
  },
  { name: 'PostgreSQL', location: () => postgres.newDatabase() },
] as const;

describe.each(kinds)('the waiting store on $name', (kind) => {
  async function withStore(test: (store: WaitingStore, location: string) => Promise<void>): Promise<void> {
    const location = await kind.location();
    const store = await openWaitingStore(location);
    try {
      await test(store, location);
    } finally {
      await store.close();
    }
  }

  it('parks a user with everything it must get, and finds it by email', () =>
    withStore(async (store) => {
      expect(await store.park(parked('ada@example.com'))).toBe(true);
      const found = await store.find('ada@example.com');
      expect(found).toMatchObject({ ...parked('ada@example.com'), state: 'waiting' });
      expect(found?.parkedAt).toBeGreaterThan(0);
      expect(await store.find('nobody@example.com')).toBeUndefined();
    }));

  it('parks again idempotently (a resumed push), with the newest data, while the user waits', () =>
    withStore(async (store) => {
      await store.park(parked('ada@example.com'));
      expect(await store.park(parked('ada@example.com', { roles: ['editor'], metadata: undefined }))).toBe(true);
      const found = await store.find('ada@example.com');
      expect(found?.roles).toEqual(['editor']);
      expect(found?.metadata).toBeUndefined();
      expect((await store.counts()).waiting).toBe(1);
    }));

  it('claims a waiting user once: a second claim gets nothing until the lease ends', () =>
    withStore(async (store) => {
      await store.park(parked('ada@example.com'));
      const now = 1_000_000;
      const claims = await Promise.all([store.claim('ada@example.com', 60_000, now), store.claim('ada@example.com', 60_000, now)]);
      expect(claims.filter((claim) => claim !== undefined)).toHaveLength(1);
      expect(claims.find((claim) => claim !== undefined)?.state).toBe('migrating');
      expect(await store.claim('ada@example.com', 60_000, now + 59_000)).toBeUndefined();
      // Its claimer crashed: once the lease ended, another sign-in takes it.
      expect(await store.claim('ada@example.com', 60_000, now + 61_000)).toMatchObject({ email: 'ada@example.com' });
      expect(await store.claim('nobody@example.com')).toBeUndefined();
    }));

  it('gives a released user back to wait, and keeps a migrated one migrated, without its hash', () =>
    withStore(async (store) => {
      await store.park(parked('ada@example.com'));
      await store.claim('ada@example.com');
      await store.release('ada@example.com');
      expect((await store.find('ada@example.com'))?.state).toBe('waiting');
      await store.claim('ada@example.com');
      await store.markMigrated('ada@example.com', 'old-ada@example.com', Date.UTC(2026, 10, 26, 12));
      const migrated = await store.find('ada@example.com');
      expect(migrated).toMatchObject({ state: 'migrated', coreUserId: 'old-ada@example.com', migratedAt: Date.UTC(2026, 10, 26, 12), legacyHash: '' });
      expect(await store.claim('ada@example.com')).toBeUndefined();
      // A later push does not park a migrated user again.
      expect(await store.park(parked('ada@example.com'))).toBe(false);
      expect((await store.find('ada@example.com'))?.state).toBe('migrated');
    }));

  it('counts waiting and arrived users per day, and lists the waiting ones without a hash', () =>
    withStore(async (store) => {
      for (const name of ['a', 'b', 'c', 'd', 'e']) await store.park(parked(`${name}@example.com`, name === 'e' ? { sourceId: undefined } : {}));
      for (const [name, day] of [
        ['a', 25],
        ['b', 26],
        ['c', 26],
      ] as const) {
        await store.claim(`${name}@example.com`);
        await store.markMigrated(`${name}@example.com`, `id-${name}`, Date.UTC(2026, 10, day, 23, 30));
      }
      expect(await store.counts()).toEqual({
        waiting: 2,
        migrating: 0,
        migrated: 3,
        arrivalsPerDay: [
          { day: '2026-11-25', migrated: 1 },
          { day: '2026-11-26', migrated: 2 },
        ],
      });
      const list = [];
      for await (const entry of store.waitingList()) list.push(entry);
      expect(list).toEqual([{ email: 'd@example.com', sourceId: 'old-d@example.com' }, { email: 'e@example.com' }]);
      expect(JSON.stringify(list)).not.toContain(HASH);
    }));

  it('lists the arrived users by core id, and forgets users (a rollback empties it)', () =>
    withStore(async (store) => {
      for (const name of ['a', 'b', 'c']) await store.park(parked(`${name}@example.com`));
      await store.claim('a@example.com');
      await store.markMigrated('a@example.com', 'core-a');
      await store.claim('b@example.com');
      const arrivals = [];
      for await (const arrival of store.arrivals()) arrivals.push(arrival);
      expect(arrivals).toEqual([{ email: 'a@example.com', coreUserId: 'core-a' }]);
      expect(await store.forgetWaiting()).toBe(2);
      expect(await store.counts()).toMatchObject({ waiting: 0, migrating: 0, migrated: 1 });
      await store.forget('a@example.com');
      expect(await store.find('a@example.com')).toBeUndefined();
    }));

  it('keeps what a sync met, takes out what it did not and what left the old system, never an arrived user', () =>
    withStore(async (store) => {
      await store.park(parked('a@example.com'), 1_000);
      await store.park(parked('b@example.com', { sourceId: 'old-b' }), 1_000);
      await store.park(parked('c@example.com'), 1_000);
      await store.park(parked('d@example.com'), 1_000);
      await store.claim('d@example.com');
      await store.markMigrated('d@example.com', 'core-d');
      // The email of old-b changed in the old system: its row moves to the new email.
      await store.park(parked('b.new@example.com', { sourceId: 'old-b' }), 2_000);
      expect(await store.find('b@example.com')).toBeUndefined();
      await store.touch('a@example.com', 2_000);
      expect(await store.leave('d@example.com')).toBe(false);
      expect(await store.forgetUnseen(2_000)).toBe(1);
      expect(await store.find('c@example.com')).toBeUndefined();
      expect(await store.leave('a@example.com')).toBe(true);
      expect(await store.counts()).toMatchObject({ waiting: 1, migrated: 1 });
    }));

  it('answers checkAvailable while open, and a store error once it cannot answer (closed)', () =>
    withStore(async (store) => {
      await store.checkAvailable();
      await store.close();
      const error: unknown = await store.checkAvailable().catch((caught: unknown) => caught);
      expect(isWaitingStoreError(error) && error.code).toBe('waitingStoreUnavailable');
    }));

  it('is the same store when opened again (by another server)', () =>
    withStore(async (store, location) => {
      await store.park(parked('ada@example.com'));
      const again = await openWaitingStore(location);
      try {
        expect(await again.claim('ada@example.com')).toBeDefined();
        expect(await store.claim('ada@example.com')).toBeUndefined();
      } finally {
        await again.close();
      }
    }));
});

describe('the SQLite store file', () => {
  it('is created readable and writable by its owner only', async () => {
    const path = join(directory, 'private.sqlite');
    const store = await openWaitingStore(path);
    await store.park(parked('ada@example.com'));
    await store.close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('whose file is removed, replaced or whose -shm is cut short while open stops: every call a store error, the store untouched', async () => {
    const cases = [
      ['removed', (path: string) => rmSync(path)],
      ['replaced', (path: string) => renameSync(copy(path), path)],
      ['-shm cut short', (path: string) => truncateSync(`${path}-shm`, 0)],
    ] as const;
    for (const [change, makeChange] of cases) {
      const path = join(directory, `changed-${files++}.sqlite`);
      const store = await openWaitingStore(path);
      await store.park(parked('ada@example.com'));
      await store.checkAvailable();
      makeChange(path);
      for (const call of [() => store.checkAvailable(), () => store.claim('ada@example.com'), () => store.park(parked('bob@example.com'))]) {
        const error: unknown = await call().catch((caught: unknown) => caught);
        expect(isWaitingStoreError(error) && error.code, change).toBe('waitingStoreUnavailable');
      }
      // Closed without a checkpoint through the lost map (a SIGBUS otherwise, at close or as the process exits).
      await store.close();
    }
  });

  it('that cannot be created is a store error naming the path, not a crash', async () => {
    const error: unknown = await openWaitingStore(join(directory, 'missing-folder', 'store.sqlite')).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'waitingStoreUnavailable', setting: 'loginTime' });
    expect(isWaitingStoreError(error) && describeProblem(error, 'flags')).toContain(join(directory, 'missing-folder', 'store.sqlite'));
  });
});

describe('the PostgreSQL store', () => {
  it('that cannot be reached is a store error without the password', async () => {
    const error: unknown = await openWaitingStore('postgresql://someone:hunter2-secret@127.0.0.1:1/none').catch((caught: unknown) => caught);
    expect(isWaitingStoreError(error) && error.code).toBe('waitingStoreUnavailable');
    expect(String(error)).not.toContain('hunter2-secret');
    expect(String(error)).toContain('ECONNREFUSED');
  });
});
