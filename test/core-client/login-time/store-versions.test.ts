import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWaitingStore } from '../../../core-client/src/login-time/store/open-store.js';
import { isWaitingStoreError } from '../../../core-client/src/login-time/store/waiting-store.js';
import { startTestPostgres, type TestPostgres } from '../../support/embedded-postgres.js';

const HASH = 'pbkdf2_sha256$1000$salt$c2VjcmV0LWhhc2gtdmFsdWUtbmV2ZXItc2hvd24=';

/** The table as the first version of the store made it (before users could be checked by the old system). */
const VERSION_1_TABLE = (bool: string, bigint: string) => `CREATE TABLE core_migrate_waiting_users (
  email TEXT PRIMARY KEY, source_id TEXT, map_source_id ${bool} NOT NULL, mapping_info TEXT, email_verified ${bool} NOT NULL,
  metadata TEXT, roles TEXT, family TEXT NOT NULL, legacy_hash TEXT NOT NULL, state TEXT NOT NULL, lease_until ${bigint},
  parked_at ${bigint} NOT NULL, core_user_id TEXT, migrated_at ${bigint}, seen_at ${bigint})`;
const VERSION_1_ROW = `INSERT INTO core_migrate_waiting_users (email, source_id, map_source_id, email_verified, family, legacy_hash, state, parked_at)
  VALUES ('old@example.com', 'old-1', TRUE, TRUE, 'django_pbkdf2_sha256', '${HASH}', 'waiting', 1)`;

let directory: string;
let postgres: TestPostgres;
let files = 0;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'store-versions-'));
  postgres = await startTestPostgres();
}, 120_000);

afterAll(async () => {
  await postgres.stop();
  rmSync(directory, { recursive: true, force: true });
});

const kinds = [
  {
    name: 'SQLite',
    location: () => Promise.resolve(join(directory, `store-${(files += 1)}.sqlite`)),
    run: (location: string, statements: string[]): Promise<void> => {
      const database = new DatabaseSync(location);
      for (const statement of statements) database.exec(statement);
      database.close();
      return Promise.resolve();
    },
    version1: [VERSION_1_TABLE('INTEGER', 'INTEGER'), VERSION_1_ROW.replaceAll('TRUE', '1')],
    later: ['PRAGMA user_version = 3'],
  },
  {
    name: 'PostgreSQL',
    location: () => postgres.newDatabase(),
    run: async (location: string, statements: string[]): Promise<void> => {
      const client = new pg.Client({ connectionString: location });
      await client.connect();
      for (const statement of statements) await client.query(statement);
      await client.end();
    },
    version1: [VERSION_1_TABLE('BOOLEAN', 'BIGINT'), VERSION_1_ROW],
    later: [
      'CREATE TABLE IF NOT EXISTS core_migrate_waiting_store_version (version INTEGER NOT NULL)',
      'DELETE FROM core_migrate_waiting_store_version',
      'INSERT INTO core_migrate_waiting_store_version VALUES (3)',
    ],
  },
] as const;

describe.each(kinds)('the waiting store on $name and the old system', (kind) => {
  it('parks a user checked by the old system, with no hash, and keeps who checks it through its arrival', async () => {
    const store = await openWaitingStore(await kind.location());
    try {
      expect(
        await store.park({ email: 'ann@example.com', sourceId: 'sub-1', mapSourceId: true, emailVerified: true, roles: ['admin'], oldSystem: 'cognito' }),
      ).toBe(true);
      const found = await store.find('ann@example.com');
      expect(found).toMatchObject({ email: 'ann@example.com', sourceId: 'sub-1', oldSystem: 'cognito', roles: ['admin'], state: 'waiting' });
      expect(found).not.toHaveProperty('legacyHash');
      expect(found).not.toHaveProperty('family');
      expect(await store.claim('ann@example.com')).toMatchObject({ oldSystem: 'cognito', state: 'migrating' });
      await store.markMigrated('ann@example.com', 'sub-1');
      expect(await store.find('ann@example.com')).toMatchObject({ oldSystem: 'cognito', state: 'migrated', coreUserId: 'sub-1' });
    } finally {
      await store.close();
    }
  });

  it('brings a store of the first version up once: its users still checked by their hash, new ones by the old system', async () => {
    const location = await kind.location();
    await kind.run(location, [...kind.version1]);
    for (let opening = 0; opening < 2; opening += 1) {
      const store = await openWaitingStore(location);
      try {
        expect(await store.find('old@example.com')).toMatchObject({ family: 'django_pbkdf2_sha256', legacyHash: HASH, state: 'waiting' });
        await store.park({ email: 'new@example.com', mapSourceId: false, emailVerified: false, oldSystem: 'firebase' });
        expect(await store.find('new@example.com')).toMatchObject({ oldSystem: 'firebase' });
      } finally {
        await store.close();
      }
    }
  });

  it('refuses a store of a later version than it reads, rather than misread it', async () => {
    const location = await kind.location();
    await (await openWaitingStore(location)).close();
    await kind.run(location, [...kind.later]);
    const opened = await openWaitingStore(location).catch((error: unknown) => error);
    expect(isWaitingStoreError(opened) && opened.code).toBe('waitingStoreRefused');
  });
});
