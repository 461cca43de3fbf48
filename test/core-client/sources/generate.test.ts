import { describe, expect, it } from 'vitest';
import { readSource } from '../../../core-client/src/sources/read-source.js';
import type { SourceUser } from '../../../core-client/src/sources/source-user.js';
import { writeFirebaseJsonExport } from '../../fixtures/exports/generate.js';
import { readAll, withTempDir } from './support.js';

describe('writeFirebaseJsonExport', () => {
  it.each([false, true])('writes N users that read back as N users (gzip: %s)', async (gzip) => {
    await withTempDir(async (dir) => {
      const path = `${dir}/users.json${gzip ? '.gz' : ''}`;
      await writeFirebaseJsonExport(path, 1203, { gzip, providerEvery: 10, passwordlessEvery: 20 });
      const { records, error } = await readAll(readSource(path));
      expect(error).toBeUndefined();
      const users = records as SourceUser[];
      expect(users).toHaveLength(1203);
      expect(users.every((user) => user.kind === 'user')).toBe(true);
      expect(users.filter((user) => user.passwordHash === undefined)).toHaveLength(61); // 0, 20, ... 1200
      expect(users.filter((user) => user.providers.length > 0)).toHaveLength(121);
      expect(users[1]).toMatchObject({
        sourceId: 'user-00000001',
        passwordHash: expect.stringMatching(/^[A-Za-z0-9+/]{86}==$/),
        salt: expect.stringMatching(/^[A-Za-z0-9+/]{16}$/),
      });
      expect(users[1202]?.location).toEqual({ file: path, index: 1202 });
    });
  });
});

describe('stopping early', () => {
  it('lets a consumer stop after the first user without waiting for the rest of the file', async () => {
    await withTempDir(async (dir) => {
      const path = `${dir}/users.json`;
      await writeFirebaseJsonExport(path, 5000);
      const seen: string[] = [];
      for await (const record of readSource(path)) {
        seen.push(record.kind === 'user' ? (record.sourceId ?? '') : record.reason);
        break;
      }
      expect(seen).toEqual(['user-00000000']);
    });
  });
});
