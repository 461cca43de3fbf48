import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type FieldMapping, parseFieldMapping } from '../../../core-client/src/sources/generic/field-mapping.js';
import { readSource } from '../../../core-client/src/sources/read-source.js';
import { SourceError } from '../../../core-client/src/sources/source-error.js';
import { fixture, readAll, withTempDir } from './support.js';

const BCRYPT = '$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy';

describe('generic NDJSON in the contract shape (no mapping)', () => {
  const path = fixture('generic/users.ndjson');

  it('reads password users, the scrypt algorithm and the contract third-party shape; bad lines become malformed', async () => {
    const { records, error } = await readAll(readSource(path, { format: 'ndjson' }));
    expect(error).toBeUndefined();
    expect(records).toEqual([
      { kind: 'user', location: { file: path, line: 1 }, email: 'ada@example.com', passwordHash: BCRYPT, providers: [] },
      expect.objectContaining({ location: { file: path, line: 2 }, hashingAlgorithm: 'vendor_scrypt' }),
      {
        kind: 'user',
        location: { file: path, line: 3 },
        email: 'linus@example.com',
        emailVerified: true,
        providers: [{ providerId: 'google', providerUserId: '1234567890', email: 'linus@example.com' }],
      },
      { kind: 'malformed', location: { file: path, line: 5, field: 'isVerified' }, reason: 'field "isVerified" must be true or false, found "maybe"' },
      { kind: 'malformed', location: { file: path, line: 6, field: 'thirdPartyUserId' }, reason: expect.stringContaining('is missing') },
      { kind: 'malformed', location: { file: path, line: 7 }, reason: 'the line is not a JSON object' },
      expect.objectContaining({
        location: { file: path, line: 8 },
        emailVerified: false,
        providers: [{ providerId: 'github', providerUserId: '42', email: 'last@example.com' }],
      }),
    ]);
  });

  it('refuses a file whose first line is not a JSON object', async () => {
    const { error } = await readAll(readSource(fixture('generic/users-array.json'), { format: 'ndjson' }));
    expect((error as SourceError).reason).toBe('wrong-format');
    expect((error as SourceError).location.line).toBe(1);
  });

  it.each(['null', '7', 'true', '"text"'])('a first line %s is one malformed record, as the same line later is', async (line) => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'users.ndjson');
      await writeFile(path, `${line}\n{"email":"ada@example.com","passwordHash":"${BCRYPT}"}\n${line}\n`);
      const { records, error } = await readAll(readSource(path));
      expect(error).toBeUndefined();
      expect(records).toEqual([
        { kind: 'malformed', location: { file: path, line: 1 }, reason: 'the line is not a JSON object' },
        expect.objectContaining({ kind: 'user', email: 'ada@example.com' }),
        { kind: 'malformed', location: { file: path, line: 3 }, reason: 'the line is not a JSON object' },
      ]);
    });
  });

  it('keeps the users before a byte that is not UTF-8, then stops naming it', async () => {
    const file = fixture('broken/not-utf8.ndjson');
    const { records, error } = await readAll(readSource(file, { format: 'ndjson' }));
    expect(records).toEqual([expect.objectContaining({ email: 'ada@example.com' })]);
    expect((error as SourceError).location).toEqual({ file, line: 2, byteOffset: 41 });
  });

  it('refuses an empty file', async () => {
    const { records, error } = await readAll(readSource(fixture('broken/empty.ndjson'), { format: 'ndjson' }));
    expect(records).toEqual([]);
    expect((error as SourceError).reason).toBe('empty');
  });
});

describe('generic JSON array', () => {
  it('streams the elements with their index', async () => {
    const path = fixture('generic/users-array.json');
    const { records, error } = await readAll(readSource(path, { format: 'json-array' }));
    expect(error).toBeUndefined();
    expect(records).toEqual([
      expect.objectContaining({ location: { file: path, index: 0 }, passwordHash: expect.stringMatching(/^\$argon2id\$/) }),
      expect.objectContaining({ location: { file: path, index: 1 }, email: 'linus@example.com', emailVerified: true }),
      { kind: 'malformed', location: { file: path, index: 2 }, reason: 'the array element is not a JSON object' },
      { kind: 'malformed', location: { file: path, index: 3, field: 'email' }, reason: 'field "email" must be text, found a number' },
    ]);
  });

  it('refuses a Firebase object as a JSON array', async () => {
    const { error } = await readAll(readSource(fixture('firebase/users.json'), { format: 'json-array' }));
    expect((error as SourceError).reason).toBe('wrong-format');
  });
});

describe('generic CSV with a header row', () => {
  it('reads the contract column names without a mapping', async () => {
    const path = fixture('generic/users.csv');
    const { records, error } = await readAll(readSource(path, { format: 'csv' }));
    expect(error).toBeUndefined();
    expect(records).toEqual([
      { kind: 'user', location: { file: path, line: 2 }, email: 'ada@example.com', emailVerified: true, passwordHash: BCRYPT, providers: [] },
      expect.objectContaining({ location: { file: path, line: 3 }, email: 'grace@example.com', hashingAlgorithm: 'vendor_scrypt' }),
      expect.objectContaining({
        location: { file: path, line: 4 },
        providers: [{ providerId: 'google', providerUserId: '1234567890', email: 'linus@example.com' }],
      }),
      { kind: 'malformed', location: { file: path, line: 5 }, reason: 'the row has 2 fields, the header has 6' },
    ]);
  });

  it('reads other column names through a mapping file', async () => {
    const path = fixture('generic/mapped.csv');
    const mapping = parseFieldMapping(await readFile(fixture('generic/mapping.txt'), 'utf8'));
    expect(mapping).not.toBeInstanceOf(SourceError);
    const { records, error } = await readAll(readSource(path, { format: 'csv', mapping: mapping as FieldMapping }));
    expect(error).toBeUndefined();
    expect(records).toEqual([
      {
        kind: 'user',
        location: { file: path, line: 2 },
        sourceId: '17',
        system: 'generic export',
        email: 'ada@example.com',
        emailVerified: true,
        passwordHash: BCRYPT,
        providers: [],
      },
      {
        kind: 'user',
        location: { file: path, line: 3 },
        sourceId: '18',
        system: 'generic export',
        email: 'linus@example.com',
        emailVerified: false,
        providers: [{ providerId: 'github', providerUserId: '4242', email: 'linus@example.com' }],
      },
    ]);
  });

  it('refuses a mapping naming a column the header lacks, and a header naming no mapped column', async () => {
    const mapping = parseFieldMapping({ email: 'Mail' }) as FieldMapping;
    const missing = await readAll(readSource(fixture('generic/users.csv'), { format: 'csv', mapping }));
    expect((missing.error as SourceError).reason).toBe('bad-mapping');
    expect((missing.error as SourceError).message).toContain('"Mail"');
    expect(missing.error).toMatchObject({ code: 'source.bad-mapping', setting: 'mapping' });
    const none = await readAll(readSource(fixture('firebase/users.csv'), { format: 'csv' }));
    expect((none.error as SourceError).reason).toBe('wrong-format');
  });

  it('reports each row with a stray quote and keeps every other row, including a quoted line break', async () => {
    const path = fixture('broken/stray-quote.csv');
    const { records, error } = await readAll(readSource(path, { format: 'csv' }));
    expect(error).toBeUndefined();
    expect(records.map((record) => [record.kind, record.location.line, record.kind === 'user' ? record.email : record.reason])).toEqual([
      ['user', 2, 'ada@example.com'],
      ['malformed', 3, expect.stringContaining('stray quote in column 1')],
      ['malformed', 4, expect.stringContaining('stray quote in column 1')],
      ['user', 5, 'linus@example.com'],
      ['user', 6, 'multi\nline@example.com'],
      ['malformed', 8, expect.stringContaining('never closed')],
      ['user', 9, 'last@example.com'],
    ]);
  });
});

describe('parseFieldMapping', () => {
  it('defaults to the contract names', () => {
    expect(parseFieldMapping({})).toEqual({
      email: 'email',
      passwordHash: 'passwordHash',
      salt: 'salt',
      hashingAlgorithm: 'hashingAlgorithm',
      isVerified: 'isVerified',
      thirdPartyId: 'thirdPartyId',
      thirdPartyUserId: 'thirdPartyUserId',
      sourceId: 'id',
      roles: 'roles',
      phoneNumber: 'phoneNumber',
    });
  });

  it('reads flags (ignoring unset ones), JSON and "field = column" lines', () => {
    expect(parseFieldMapping({ email: 'mail', passwordHash: undefined })).toMatchObject({ email: 'mail', passwordHash: 'passwordHash' });
    expect(parseFieldMapping('{"isVerified": "verified"}')).toMatchObject({ isVerified: 'verified' });
    expect(parseFieldMapping('# comment\nemail: E-Mail\nthirdPartyUserId = sub\n')).toMatchObject({ email: 'E-Mail', thirdPartyUserId: 'sub' });
  });

  it('refuses unknown fields, empty columns and unreadable text', () => {
    const unknown = parseFieldMapping({ mail: 'x' }, 'mapping.txt') as SourceError;
    expect(unknown).toBeInstanceOf(SourceError);
    expect(unknown.message).toBe(
      'mapping.txt: unknown field "mail"; the fields are email, passwordHash, salt, hashingAlgorithm, isVerified, thirdPartyId, thirdPartyUserId, sourceId, roles, phoneNumber',
    );
    expect(parseFieldMapping({ email: '  ' })).toBeInstanceOf(SourceError);
    expect((parseFieldMapping('email mail') as SourceError).location.line).toBe(1);
    expect((parseFieldMapping('{"email": ') as SourceError).reason).toBe('bad-mapping');
  });
});
