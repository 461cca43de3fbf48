import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createdUsers } from '../../../core-client/src/rollback/journal-users.js';
import { Journal, JournalError } from '../../../core-client/src/journal/journal.js';
import type { ImportOperation } from '../../../core-client/src/plan/operation.js';

const options = {
  sourceFingerprint: 'sha256:steps',
  target: 'http://127.0.0.1:1 (tenant public)',
  digestKey: (salt: string): Buffer => createHash('sha256').update(`steps-api-key\n${salt}`).digest(),
};

function operation(line: number): ImportOperation {
  return {
    kind: 'passwordImport',
    operationKey: `L${line}#pw`,
    location: { file: 'users.json', line },
    email: `u${line}@example.com`,
    family: 'bcrypt',
    body: { email: `u${line}@example.com`, passwordHash: `$2a$04$${'x'.repeat(53)}` },
    exportedCredential: `$2a$04$${'x'.repeat(53)}`,
    warnings: [],
  };
}

async function open(path: string): Promise<Journal> {
  const journal = await Journal.open(path, options);
  if (journal instanceof JournalError) throw journal;
  return journal;
}

describe('journal step lines (issue 13)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'journal-steps-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes an intent ahead, at once; a resume sees the steps of an unfinished user and forgets those of a finished one', async () => {
    const path = join(dir, 'push.journal');
    const journal = await open(path);
    const [first, second] = [operation(1), operation(2)];
    await journal.announce(first);
    // Written ahead: on disk before any turn of the event loop.
    expect(await readFile(path, 'utf8')).toContain('"s":"intent"');
    journal.recordStep(first, 'created', { u: 'core-1' });
    journal.recordStep(second, 'created', { u: 'core-2' });
    journal.recordStep(second, 'mapped', { x: 'old-2' });
    journal.record(second, { outcome: 'imported' });
    journal.close();

    const again = await open(path);
    expect(again.progressOf(first)).toEqual({ steps: new Set(['intent', 'created']), userId: 'core-1', createdHere: true });
    expect(again.progressOf(second)).toBeUndefined();
    expect(again.lookup(second)).toEqual({ outcome: 'imported' });
    expect(again.lookup(first)).toBeUndefined();
    again.close();
  });

  it('reads a journal of before the step lines as before (the format change is additive)', async () => {
    const path = join(dir, 'old.journal');
    const journal = await open(path);
    journal.record(operation(1), { outcome: 'imported' });
    journal.close();
    const text = await readFile(path, 'utf8');
    expect(text).not.toContain('"s":');
    const again = await open(path);
    expect(again.lookup(operation(1))).toEqual({ outcome: 'imported' });
    again.close();
  });

  it('lists for a rollback the users created here, by id, the old id once mapped; never one that was found', async () => {
    const path = join(dir, 'push.journal');
    const journal = await open(path);
    journal.recordStep(operation(1), 'created', { u: 'core-1' });
    journal.recordStep(operation(1), 'mapped', { x: 'old-1' });
    journal.record(operation(1), { outcome: 'imported' });
    journal.recordStep(operation(2), 'found', { u: 'core-2' });
    journal.record(operation(2), { outcome: 'alreadyExisted' });
    journal.record(operation(3), { outcome: 'untouched' });
    journal.recordStep(operation(4), 'created', { u: 'core-4' });
    await journal.announce(operation(5));
    journal.close();
    // A torn last line, as a kill mid-write leaves it.
    await writeFile(path, `${await readFile(path, 'utf8')}{"k":"users.json:L6`);
    const stats = { uncertain: 0 };
    const users = [];
    for await (const user of createdUsers(path, stats)) users.push({ coreId: user.coreId, externalId: user.externalId });
    expect(users).toEqual([
      { coreId: 'core-1', externalId: 'old-1' },
      { coreId: 'core-4', externalId: undefined },
    ]);
    expect(stats.uncertain).toBe(1);
  });
});
