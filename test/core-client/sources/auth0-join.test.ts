import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readAuth0 } from '../../../core-client/src/sources/auth0/auth0.js';
import { readSource } from '../../../core-client/src/sources/read-source.js';
import type { SourceRecord, SourceUser } from '../../../core-client/src/sources/source-user.js';
import { fixture, readAll, withTempDir } from './support.js';

const usersFile = fixture('auth0/users.ndjson');
const passwordFile = fixture('auth0/passwords.ndjson');

/** Every join id to one key: every digest collides, so only reading the line back tells entries apart. */
const everyDigestCollides = (): string => 'one key for all';

function renamed(records: SourceRecord[], from: string, to: string): SourceRecord[] {
  return records.map((record) => (record.location.file === from ? { ...record, location: { ...record.location, file: to } } : record));
}

function hashLine(oid: string, passwordHash: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ _id: { $oid: oid }, ...extra, passwordHash });
}

function userLine(id: string, email?: string): string {
  return JSON.stringify({ user_id: `auth0|${id}`, ...(email === undefined ? {} : { email }) });
}

function summary(records: SourceRecord[]): [string | undefined, number | undefined, string | undefined][] {
  return records.map((record) => [
    record.kind === 'user' ? record.sourceId : 'malformed',
    record.location.line,
    record.kind === 'user' ? record.passwordHash : undefined,
  ]);
}

describe('Auth0 join through the compact password index', () => {
  it('reads a gzipped hash file as the same records, and removes its decompressed copy at the end', async () => {
    await withTempDir(async (dir) => {
      const gzipped = join(dir, 'passwords.ndjson.gz');
      await writeFile(gzipped, gzipSync(await readFile(passwordFile)));
      const tempRoot = join(dir, 'tmp');
      await mkdir(tempRoot);
      const plain = await readAll(readSource(usersFile, { format: 'auth0', auth0PasswordFile: passwordFile }));
      const fromGzip = await readAll(readAuth0(usersFile, gzipped, { tempRoot }));
      expect(fromGzip.error).toBeUndefined();
      expect(fromGzip.records).toEqual(renamed(plain.records, passwordFile, gzipped));
      expect(fromGzip.records.filter((record) => record.kind === 'user' && record.passwordHash !== undefined)).toHaveLength(4);
      expect(await readdir(tempRoot)).toEqual([]);
    });
  });

  it('the decompressed copy has no name on disk even while it is read, and an abandoned reader closes it', async () => {
    await withTempDir(async (dir) => {
      const gzipped = join(dir, 'passwords.gz');
      await writeFile(gzipped, gzipSync(await readFile(passwordFile)));
      const tempRoot = join(dir, 'tmp');
      await mkdir(tempRoot);
      const reader = readAuth0(usersFile, gzipped, { tempRoot });
      const first = await reader.next();
      expect(first.value).toMatchObject({ kind: 'malformed', location: { file: gzipped, line: 5 } });
      // Read through its open descriptor only: nothing for a crash to leave behind.
      expect(await readdir(tempRoot)).toEqual([]);
      await reader.return(undefined);
      expect(await readdir(tempRoot)).toEqual([]);
    });
  });

  it('reads lines back at the right bytes: byte-order mark, CRLF, multi-byte text, a line longer than a read block, no final newline', async () => {
    await withTempDir(async (dir) => {
      const hashes = join(dir, 'passwords.ndjson');
      const users = join(dir, 'users.ndjson');
      const lines = [
        hashLine('a1', '$2b$10$one', { email: 'zoë@exämple.com' }),
        hashLine('a2', '$2b$10$two', { note: '日本語'.repeat(3000) }),
        hashLine('a3', '$2b$10$three', { email: '😀@example.com' }),
        hashLine('a4', '$2b$10$four'),
      ];
      const text = `\uFEFF${lines.join('\r\n')}`;
      await writeFile(hashes, text);
      await writeFile(users, [userLine('a4'), userLine('a3'), userLine('a2'), userLine('a1')].join('\n'));
      const expected = [
        ['auth0|a4', 1, '$2b$10$four'],
        ['auth0|a3', 2, '$2b$10$three'],
        ['auth0|a2', 3, '$2b$10$two'],
        ['auth0|a1', 4, '$2b$10$one'],
      ];
      expect(summary((await readAll(readAuth0(users, hashes))).records)).toEqual(expected);
      const gzipped = join(dir, 'passwords.gz');
      await writeFile(gzipped, gzipSync(Buffer.from(text)));
      expect(summary((await readAll(readAuth0(users, gzipped, { tempRoot: dir }))).records)).toEqual(expected);
    });
  });

  it('yields the hash entries no user matched after the users, in file order, each once', async () => {
    await withTempDir(async (dir) => {
      const hashes = join(dir, 'passwords.ndjson');
      const users = join(dir, 'users.ndjson');
      await writeFile(
        hashes,
        [
          hashLine('b1', '$2b$10$b1', { email: 'b1@example.com', email_verified: true }),
          hashLine('b2', '$2b$10$b2'),
          hashLine('b1', '$2b$10$b1-again'),
          '',
          hashLine('b3', '$2b$10$b3', { alt_id: 'legacy-3', email: 'b3@example.com' }),
          hashLine('b4', '$2b$10$b4'),
          '',
        ].join('\n'),
      );
      await writeFile(users, [userLine('b2'), userLine('legacy-3'), userLine('b2'), userLine('nobody')].join('\n'));
      const { records, error } = await readAll(readAuth0(users, hashes));
      expect(error).toBeUndefined();
      expect(summary(records)).toEqual([
        ['malformed', 3, undefined],
        ['auth0|b2', 1, '$2b$10$b2'],
        ['auth0|legacy-3', 2, '$2b$10$b3'],
        // A user_id that repeats gets the hash once, as before.
        ['auth0|b2', 3, undefined],
        ['auth0|nobody', 4, undefined],
        ['auth0|b1', 1, '$2b$10$b1'],
        ['auth0|b4', 6, '$2b$10$b4'],
      ]);
      expect(records[5]).toEqual({
        kind: 'user',
        location: { file: hashes, line: 1 },
        sourceId: 'auth0|b1',
        system: 'auth0',
        email: 'b1@example.com',
        emailVerified: true,
        passwordHash: '$2b$10$b1',
        providers: [],
      } satisfies SourceUser);
    });
  });

  it('tells ids apart when their digests collide: the same records as without the collision', async () => {
    const honest = await readAll(readAuth0(usersFile, passwordFile));
    const colliding = await readAll(readAuth0(usersFile, passwordFile, { indexKey: everyDigestCollides }));
    expect(colliding.error).toBeUndefined();
    expect(colliding.records).toEqual(honest.records);
    // The guard is what keeps them apart: a user whose digest hits another id's entry gets no hash.
    const users = colliding.records.filter((record): record is SourceUser => record.kind === 'user');
    expect(users.find((user) => user.sourceId === 'auth0|60425dc43519d90068f829aa')?.passwordHash).toBeUndefined();
    expect(users.find((user) => user.sourceId === 'auth0|legacy-7')?.passwordHash).toMatch(/^\$2b\$10\$C4H1/);
  });

  it('still reports a real duplicate, and joins the right entry, when every digest collides', async () => {
    await withTempDir(async (dir) => {
      const hashes = join(dir, 'passwords.ndjson');
      const users = join(dir, 'users.ndjson');
      await writeFile(
        hashes,
        [hashLine('c1', '$2b$10$c1'), hashLine('c2', '$2b$10$c2'), hashLine('c2', '$2b$10$c2-again'), hashLine('c3', '$2b$10$c3')].join('\n'),
      );
      await writeFile(users, [userLine('c3'), userLine('c9'), userLine('c2')].join('\n'));
      const { records } = await readAll(readAuth0(users, hashes, { indexKey: everyDigestCollides }));
      expect(summary(records)).toEqual([
        ['malformed', 3, undefined],
        ['auth0|c3', 1, '$2b$10$c3'],
        ['auth0|c9', 2, undefined],
        ['auth0|c2', 3, '$2b$10$c2'],
        ['auth0|c1', 1, '$2b$10$c1'],
      ]);
      expect(records[0]).toMatchObject({ location: { field: '_id' }, reason: expect.stringContaining('auth0|c2') });
    });
  });

  it('joins a few thousand users with a shuffled hash file as a plain map would', async () => {
    await withTempDir(async (dir) => {
      const count = 3000;
      const hashes = join(dir, 'passwords.ndjson');
      const users = join(dir, 'users.ndjson');
      const order = Array.from({ length: count }, (_, index) => (index * 1237) % count);
      await writeFile(hashes, order.map((index) => hashLine(`d${index}`, `$2b$10$hash-${index}`, { email: `d${index}@example.com` })).join('\n'));
      // Every third id has no user; ids past `count` have no hash.
      const userIds = Array.from({ length: count + 50 }, (_, index) => index).filter((index) => index % 3 !== 0);
      await writeFile(users, userIds.map((index) => userLine(`d${index}`)).join('\n'));
      const { records, error } = await readAll(readAuth0(users, hashes));
      expect(error).toBeUndefined();
      const expectedUsers = userIds.map((index) => [`auth0|d${index}`, index < count ? `$2b$10$hash-${index}` : undefined]);
      const expectedOrphans = order.filter((index) => index % 3 === 0).map((index) => [`auth0|d${index}`, `$2b$10$hash-${index}`]);
      expect(records.map((record) => [(record as SourceUser).sourceId, (record as SourceUser).passwordHash])).toEqual([...expectedUsers, ...expectedOrphans]);
    });
  });
});
