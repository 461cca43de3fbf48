import { mkdtemp, readFile, rm, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Journal, JournalError } from '../../../core-client/src/push/journal.js';
import { bcryptOperation, thirdPartyOperation } from './plan-fixtures.js';

const target = 'http://127.0.0.1:3567 (tenant public)';
const sourceFingerprint = 'sha256:aaaa';

async function openOk(path: string, options: Partial<Parameters<typeof Journal.open>[1]> = {}): Promise<Journal> {
  const journal = await Journal.open(path, { sourceFingerprint, target, ...options });
  if (journal instanceof JournalError) throw journal;
  return journal;
}

describe('Journal', () => {
  let dir: string;
  let path: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'journal-'));
    path = join(dir, 'push.journal');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('remembers final outcomes across opens, keyed by operation and body', async () => {
    const first = await openOk(path);
    first.record(bcryptOperation(1), { outcome: 'imported' });
    first.record(thirdPartyOperation(2), { outcome: 'existing' });
    first.record(bcryptOperation(3), { outcome: 'rejectedByCore', reason: 'Password hash is in invalid format' });
    first.close();

    const again = await openOk(path);
    expect(again.entries).toBe(3);
    expect(again.lookup(bcryptOperation(1))).toEqual({ outcome: 'imported' });
    expect(again.lookup(thirdPartyOperation(2))).toEqual({ outcome: 'existing' });
    expect(again.lookup(bcryptOperation(3))).toEqual({ outcome: 'rejectedByCore', reason: 'Password hash is in invalid format' });
    expect(again.lookup(bcryptOperation(4))).toBeUndefined();
    again.close();
  });

  it('does not skip a record that changed at the same place (another body gives another digest)', async () => {
    const journal = await openOk(path);
    journal.record(bcryptOperation(1), { outcome: 'rejectedByCore', reason: 'bad' });
    journal.close();
    const again = await openOk(path);
    expect(again.lookup(bcryptOperation(1, 'fixed@example.com'))).toBeUndefined();
    again.close();
  });

  it('holds no hash, email or password: only keys, digests and outcomes', async () => {
    const journal = await openOk(path);
    const operation = bcryptOperation(1);
    journal.record(operation, { outcome: 'imported' });
    journal.close();
    const text = await readFile(path, 'utf8');
    expect(text).not.toContain(operation.body.passwordHash);
    expect(text).not.toContain(operation.body.passwordHash.slice(7, 29));
    expect(text).not.toContain(operation.email);
    expect(text.trim().split('\n')).toHaveLength(2);
  });

  it('tolerates a torn last line (a kill mid-write) and cuts it off before appending', async () => {
    const journal = await openOk(path);
    journal.record(bcryptOperation(1), { outcome: 'imported' });
    journal.close();
    await appendFile(path, '{"k":"users.ndjson:L2#pw","d":"abc');

    const again = await openOk(path);
    expect(again.tornLineDropped).toBe(true);
    expect(again.entries).toBe(1);
    again.record(bcryptOperation(2), { outcome: 'imported' });
    again.close();

    const third = await openOk(path);
    expect(third.lookup(bcryptOperation(2))).toEqual({ outcome: 'imported' });
    expect(third.tornLineDropped).toBe(false);
    third.close();
    for (const line of (await readFile(path, 'utf8')).trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('starts afresh when killed while writing the header', async () => {
    await writeFile(path, '{"journal":"core-migrate push jou');
    const journal = await openOk(path);
    expect(journal.entries).toBe(0);
    journal.close();
    expect(JSON.parse((await readFile(path, 'utf8')).split('\n')[0] ?? '')).toMatchObject({ source: sourceFingerprint });
  });

  it('refuses a journal written for another source file, with a sentence', async () => {
    (await openOk(path)).close();
    const refused = await Journal.open(path, { sourceFingerprint: 'sha256:bbbb', target });
    expect(refused).toBeInstanceOf(JournalError);
    expect((refused as JournalError).message).toMatch(/different source file.*new --journal/s);
  });

  it('refuses a journal written for another core or tenant', async () => {
    (await openOk(path)).close();
    const refused = await Journal.open(path, { sourceFingerprint, target: 'http://127.0.0.1:3567 (tenant other)' });
    expect(refused).toBeInstanceOf(JournalError);
    expect((refused as JournalError).message).toContain('tenant other');
  });

  it('refuses a file that is not a journal, and one damaged in the middle', async () => {
    await writeFile(path, 'email,password\n');
    expect(await Journal.open(path, { sourceFingerprint, target })).toBeInstanceOf(JournalError);

    await rm(path);
    const journal = await openOk(path);
    journal.record(bcryptOperation(1), { outcome: 'imported' });
    journal.close();
    await appendFile(path, 'garbage\n{"k":"x","d":"y","o":"imported"}\n');
    const damaged = await Journal.open(path, { sourceFingerprint, target });
    expect(damaged).toBeInstanceOf(JournalError);
    expect((damaged as JournalError).message).toMatch(/line 3/);
  });

  it('read-only (dry run) reads what is there and never creates the file', async () => {
    const journal = await openOk(path, { readOnly: true });
    journal.record(bcryptOperation(1), { outcome: 'imported' });
    journal.close();
    await expect(readFile(path)).rejects.toThrow();
  });
});
