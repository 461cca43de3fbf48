import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createHash, hash } from 'node:crypto';
import { hostname } from 'node:os';
import { mkdtemp, readFile, rm, writeFile, appendFile, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rollbackRecordPath } from '../../../core-client/src/journal/journal-file.js';
import { Journal, JournalError } from '../../../core-client/src/journal/journal.js';
import { emptyCounts } from '../../../core-client/src/summary/push-summary.js';
import { bcryptOperation, thirdPartyOperation } from '../push/plan-fixtures.js';

const target = 'http://127.0.0.1:3567 (tenant public)';
const sourceFingerprint = 'sha256:aaaa';
/** Stands in for `CoreClient.digestKey` (HKDF of the api-key): a key per api-key and salt. */
const keyOf =
  (apiKey: string) =>
  (salt: string): Buffer =>
    createHash('sha256').update(`${apiKey}\n${salt}`).digest();
const digestKey = keyOf('api-key-one-0123456789');

async function openOk(path: string, options: Partial<Parameters<typeof Journal.open>[1]> = {}): Promise<Journal> {
  const journal = await Journal.open(path, { sourceFingerprint, target, digestKey, ...options });
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
    const refused = await Journal.open(path, { sourceFingerprint: 'sha256:bbbb', target, digestKey });
    expect(refused).toBeInstanceOf(JournalError);
    expect((refused as JournalError).message).toMatch(/different source file.*new --journal/s);
  });

  it('refuses a journal written for another core or tenant', async () => {
    (await openOk(path)).close();
    const refused = await Journal.open(path, { sourceFingerprint, target: 'http://127.0.0.1:3567 (tenant other)', digestKey });
    expect(refused).toBeInstanceOf(JournalError);
    expect((refused as JournalError).message).toContain('tenant other');
  });

  it('refuses a file that is not a journal, and one damaged in the middle', async () => {
    await writeFile(path, 'email,password\n');
    expect(await Journal.open(path, { sourceFingerprint, target, digestKey })).toBeInstanceOf(JournalError);

    await rm(path);
    const journal = await openOk(path);
    journal.record(bcryptOperation(1), { outcome: 'imported' });
    journal.close();
    await appendFile(path, 'garbage\n{"k":"x","d":"y","o":"imported"}\n');
    const damaged = await Journal.open(path, { sourceFingerprint, target, digestKey });
    expect(damaged).toBeInstanceOf(JournalError);
    expect((damaged as JournalError).message).toMatch(/line 3/);
  });

  it('read-only (dry run) reads what is there and never creates the file', async () => {
    const journal = await openOk(path, { readOnly: true });
    journal.record(bcryptOperation(1), { outcome: 'imported' });
    journal.close();
    await expect(readFile(path)).rejects.toThrow();
  });

  it('is locked: a second opener is refused with a sentence naming the owner, and may open it once it is closed', async () => {
    const first = await openOk(path);
    const second = await Journal.open(path, { sourceFingerprint, target, digestKey });
    expect(second).toBeInstanceOf(JournalError);
    expect((second as JournalError).message).toMatch(new RegExp(`in use by another push \\(process ${process.pid} on `));
    // A dry run only reads: it takes no lock.
    (await openOk(path, { readOnly: true })).close();
    first.close();
    (await openOk(path)).close();
  });

  it('takes over a stale lock left by a process that is gone, and says so', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(dead.stdout);
    await writeFile(`${path}.lock`, JSON.stringify({ pid: deadPid, host: hostname(), startedAt: '2026-01-01T00:00:00.000Z' }));
    const notes: string[] = [];
    const journal = await openOk(path, { onNote: (message) => notes.push(message) });
    expect(notes).toEqual([`The journal's lock was left by process ${deadPid} (started 2026-01-01T00:00:00.000Z), which is gone; this push took it over.`]);
    expect(JSON.parse(await readFile(`${path}.lock`, 'utf8'))).toMatchObject({ pid: process.pid });
    journal.close();
    await expect(readFile(`${path}.lock`)).rejects.toThrow();
  });

  it('an empty lock file is one being taken right now; once a few seconds old it is a leftover and taken over', async () => {
    await writeFile(`${path}.lock`, '');
    expect(((await Journal.open(path, { sourceFingerprint, target, digestKey })) as JournalError).message).toMatch(
      /being locked by another push at this very moment/,
    );
    const aMinuteAgo = new Date(Date.now() - 60_000);
    await utimes(`${path}.lock`, aMinuteAgo, aMinuteAgo);
    (await openOk(path)).close();
  });

  it('keys digests by the api-key: another key is refused, and the salt in the file alone does not give the digests', async () => {
    const journal = await openOk(path);
    const operation = thirdPartyOperation(2);
    journal.record(operation, { outcome: 'created' });
    journal.close();
    const refused = await Journal.open(path, { sourceFingerprint, target, digestKey: keyOf('api-key-two-0123456789') });
    expect((refused as JournalError).message).toMatch(/written with another api-key/);

    // What a reader of the journal alone can compute (salt and body, as the journal of version 1 keyed it) is not
    // what the journal holds: a guessed email cannot be confirmed without the api-key.
    const [headerLine, entryLine] = (await readFile(path, 'utf8')).trim().split('\n');
    const header = JSON.parse(headerLine ?? '') as { digestSalt: string; version: number };
    const entry = JSON.parse(entryLine ?? '') as { d: string };
    expect(header.version).toBe(5);
    const withoutKey = hash('sha256', `${header.digestSalt}\n${operation.operationKey}\n${JSON.stringify(operation.body)}`, 'base64url').slice(0, 11);
    expect(entry.d).not.toBe(withoutKey);
    expect(JSON.stringify(header)).not.toContain(digestKey(header.digestSalt).toString('base64'));
  });

  it('refuses a journal of version 1 with a sentence', async () => {
    await writeFile(
      path,
      `${JSON.stringify({ journal: 'core-migrate push journal', version: 1, source: sourceFingerprint, target, digestNonce: 'n'.repeat(32), createdAt: 'x' })}\n`,
    );
    const refused = await Journal.open(path, { sourceFingerprint, target, digestKey });
    expect((refused as JournalError).message).toMatch(/another version of core-migrate \(journal version 1.*new --journal/);
  });

  it('refuses a journal of version 2 (sent lines, no step lines or user ids) with the same sentence', async () => {
    const header = { journal: 'core-migrate push journal', version: 2, source: sourceFingerprint, target, digestSalt: 's'.repeat(32), digestCheck: 'c' };
    await writeFile(path, `${JSON.stringify(header)}\n{"k":"L2#pw","d":"abc","o":"sent"}\n`);
    const refused = await Journal.open(path, { sourceFingerprint, target, digestKey });
    expect((refused as JournalError).message).toMatch(/another version of core-migrate \(journal version 2, this one reads 5\).*new --journal/);
    // Refused before the lock is taken: nothing is left behind.
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('resumes a journal of version 3 (before sync): what it records as done stays done, and it gets no account states', async () => {
    const journal = await openOk(path);
    journal.record(bcryptOperation(1), { outcome: 'imported' });
    journal.close();
    const [header = '', ...rest] = (await readFile(path, 'utf8')).split('\n');
    await writeFile(path, [header.replace(/"version":\d+/, '"version":3'), ...rest].join('\n'));
    const resumed = await openOk(path);
    expect(resumed.version).toBe(3);
    expect(resumed.lookup(bcryptOperation(1))).toEqual({ outcome: 'imported' });
    resumed.recordState({
      sourceId: 'old-1',
      role: 'pw',
      coreId: 'c1',
      callId: 'old-1',
      createdHere: true,
      untouched: false,
      removed: false,
      digests: [1, 2, 3, 4, 5, 6],
    });
    resumed.close();
    expect(await readFile(path, 'utf8')).not.toContain('"w":');
  });

  it('refuses to resume a journal a rollback marked, with the way on; a dry run alike', async () => {
    const journal = await openOk(path);
    journal.record(bcryptOperation(1), { outcome: 'imported' });
    journal.close();
    await writeFile(rollbackRecordPath(path), '');
    for (const readOnly of [false, true]) {
      const refused = await Journal.open(path, { sourceFingerprint, target, digestKey, readOnly });
      expect((refused as JournalError).message).toMatch(
        /was rolled back \(.*push\.journal\.rollback records the users removed on purpose\).*pass a new --journal file/,
      );
    }
    // A new journal beside it is fine.
    (await openOk(join(dir, 'new.journal'))).close();
  });

  it('a journal in a missing folder is a sentence, not a stack trace', async () => {
    const refused = await Journal.open(join(dir, 'missing', 'push.journal'), { sourceFingerprint, target, digestKey });
    expect((refused as JournalError).message).toMatch(
      /^The journal lock .*missing\/push\.journal\.lock cannot be created: the folder .*missing does not exist/,
    );
  });

  it('refuses a FIFO (which would hang) and /dev/null (which would swallow it) at once, with a sentence', async () => {
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    expect(((await Journal.open(join(dir, 'fifo'), { sourceFingerprint, target, digestKey })) as JournalError).message).toMatch(/is not a regular file/);
    expect(((await Journal.open('/dev/null', { sourceFingerprint, target, digestKey })) as JournalError).message).toMatch(/is not a regular file/);
  });

  it('remembers an announced creation without an answer (its intent line), apart from what is done', async () => {
    const journal = await openOk(path);
    await journal.announce(bcryptOperation(1));
    // The intent line is on disk before the promise resolves (before the request leaves), not at the next turn.
    expect(await readFile(path, 'utf8')).toContain('"s":"intent"');
    await journal.announce(bcryptOperation(2));
    journal.record(bcryptOperation(2), { outcome: 'imported' });
    journal.close();
    const again = await openOk(path);
    expect(again.progressOf(bcryptOperation(1))?.steps.has('intent')).toBe(true);
    expect(again.lookup(bcryptOperation(1))).toBeUndefined();
    expect(again.lookup(bcryptOperation(2))).toEqual({ outcome: 'imported' });
    expect(again.progressOf(bcryptOperation(2))).toBeUndefined();
    expect(again.progressOf(bcryptOperation(3))).toBeUndefined();
    again.close();
  });

  it("writes a run's start line before its first other line and its end with the summary's counts; a run that wrote nothing leaves no line", async () => {
    const run = { command: 'push', source: 'users.ndjson' } as const;
    (await openOk(path, { run })).close();
    expect((await readFile(path, 'utf8')).trim().split('\n')).toHaveLength(1);
    const journal = await openOk(path, { run });
    journal.record(bcryptOperation(1), { outcome: 'imported' });
    journal.endRun({ ...emptyCounts(), imported: 1, total: 1, dryRun: false, retries: 0, elapsedMs: 5, journalPath: path });
    journal.close();
    const lines = (await readFile(path, 'utf8'))
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual([
      { run: 'push', started: expect.any(String), source: 'users.ndjson' },
      expect.objectContaining({ o: 'imported' }),
      {
        run: 'push',
        started: lines[0]?.['started'],
        source: 'users.ndjson',
        ended: expect.any(String),
        end: 'complete',
        counts: { ...emptyCounts(), imported: 1, total: 1 },
      },
    ]);
    // Read back by a resume as lines of the journal, not as damage.
    const resumed = await openOk(path);
    expect(resumed.lookup(bcryptOperation(1))).toEqual({ outcome: 'imported' });
    resumed.close();
  });

  it('writes no run line into a journal of version 4, whose readers would take it for damage', async () => {
    const journal = await openOk(path);
    journal.record(bcryptOperation(1), { outcome: 'imported' });
    journal.close();
    const [header = '', ...rest] = (await readFile(path, 'utf8')).split('\n');
    await writeFile(path, [header.replace(/"version":\d+/, '"version":4'), ...rest].join('\n'));
    const resumed = await openOk(path, { run: { command: 'sync', source: 'newer.ndjson' } });
    resumed.record(bcryptOperation(2), { outcome: 'imported' });
    resumed.endRun({ ...emptyCounts(), imported: 1, total: 1, dryRun: false, retries: 0, elapsedMs: 5 });
    resumed.close();
    expect(await readFile(path, 'utf8')).not.toContain('"run":');
  });
});
