import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planSource } from '../../../core-client/src/plan/plan-source.js';
import type { PlanOptions } from '../../../core-client/src/plan/plan-source.js';
import { withTempDir } from '../sources/support.js';

const bcrypt = '$2a$04$Ysj6rkrK6ezLcSgDG3MSsucsWLoW9zxo743ap1duUszVf/Ps1Q7Fi';

/** Every rejection of a file's plan, as its code and the old id it names. */
async function rejections(path: string, options: PlanOptions): Promise<{ code: string; sourceId: string | undefined }[]> {
  const found: { code: string; sourceId: string | undefined }[] = [];
  for await (const record of planSource(path, options)) {
    for (const item of record.items) if (item.kind === 'rejection') found.push({ code: item.code, sourceId: item.sourceId });
  }
  return found;
}

const ndjsonOf = (lines: unknown[]): string => lines.map((line) => JSON.stringify(line)).join('\n');

describe("every rejection names the record's old id when the record has one", () => {
  it('Firebase JSON: a phone entry without rawId is read by its phoneNumber; a broken record still names its localId', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'users.json');
      const users = [
        { localId: 'fb-phone', providerUserInfo: [{ providerId: 'phone', phoneNumber: '+44 7700 900456' }] },
        { localId: 'fb-broken', email: 'b@example.com', emailVerified: 'yes' },
        { localId: 'fb-google', email: 'g@example.com', providerUserInfo: [{ providerId: 'google.com' }] },
        { localId: '', email: 'empty@example.com', passwordHash: 'x' },
      ];
      await writeFile(path, JSON.stringify({ users }));
      const planned = [];
      for await (const record of planSource(path, { format: 'firebase-json' })) planned.push(...record.items);
      expect(planned[0]).toMatchObject({ kind: 'passwordlessSignInUp', body: { phoneNumber: '+447700900456' }, identity: { sourceId: 'fb-phone' } });
      expect(planned.slice(1).map((item) => (item.kind === 'rejection' ? [item.code, item.sourceId] : item.kind))).toEqual([
        ['malformedRecord', 'fb-broken'],
        // The Google entry without its id costs that account only, named by the record's old id.
        ['invalidProviderUser', 'fb-google'],
        ['malformedRecord', undefined],
      ]);
    });
  });

  it('Firebase CSV: a row whose emailVerified is broken names its localId', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'users.csv');
      const row = (id: string, verified: string): string => [id, `${id}@example.com`, verified, ...Array<string>(25).fill('')].join(',');
      await writeFile(path, `${row('csv-1', 'true')},\n${row('csv-2', 'maybe')},\n`);
      expect(await rejections(path, { format: 'firebase-csv' })).toEqual([{ code: 'malformedRecord', sourceId: 'csv-2' }]);
    });
  });

  it('Auth0: a broken user line names its user_id, a broken or repeated hash entry its auth0| id', async () => {
    await withTempDir(async (dir) => {
      const users = join(dir, 'users.ndjson');
      const hashes = join(dir, 'hashes.ndjson');
      await writeFile(
        users,
        ndjsonOf([
          { user_id: 'auth0|a1', email: 'a1@example.com', email_verified: 'no' },
          { user_id: 7, email: 'n@example.com' },
        ]),
      );
      await writeFile(
        hashes,
        ndjsonOf([
          { _id: { $oid: 'h1' }, email: 'h1@example.com', passwordHash: bcrypt },
          { _id: { $oid: 'h1' }, email: 'h1@example.com', passwordHash: bcrypt },
          { _id: { $oid: 'h2' }, email: 'h2@example.com', passwordHash: 5 },
        ]),
      );
      expect(await rejections(users, { format: 'auth0', auth0PasswordFile: hashes })).toEqual([
        { code: 'malformedRecord', sourceId: 'auth0|h1' },
        { code: 'malformedRecord', sourceId: 'auth0|h2' },
        { code: 'malformedRecord', sourceId: 'auth0|a1' },
        // Its id is the broken field: nothing names it.
        { code: 'malformedRecord', sourceId: undefined },
      ]);
    });
  });

  it('generic exports: a record with a broken field names its mapped id', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'users.ndjson');
      await writeFile(
        path,
        ndjsonOf([
          { id: 'g-1', email: 'g1@example.com', passwordHash: 12 },
          { id: 42, email: ['x'] },
          { id: { no: 1 }, email: 'g3@example.com' },
        ]),
      );
      expect(await rejections(path, { format: 'ndjson' })).toEqual([
        { code: 'malformedRecord', sourceId: 'g-1' },
        { code: 'malformedRecord', sourceId: '42' },
        { code: 'malformedRecord', sourceId: undefined },
      ]);
    });
  });
});
