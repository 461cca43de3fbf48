import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Secret } from '../../../core-client/src/secret.js';
import { checkKnownPassword, findPasswordEmails } from '../../../core-client/src/push/known-password.js';
import { legacyHashVector } from '../login-time/hash-vectors.js';

/** Cost 12: about a third of a second of work, which an aborted check does not wait for. */
const COSTLY = '$2b$12$oPb3bnEBRn8qk/IAYUYUg.3ymz6sLeDHQYQP0/S5HGexkmKi2z5aW';

describe('the known-password check of one account', () => {
  let dir: string;
  let path: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'password-check-'));
    path = join(dir, 'users.ndjson');
    await writeFile(
      path,
      [
        JSON.stringify({ email: 'known@example.com', passwordHash: COSTLY }),
        JSON.stringify({ email: 'broken@example.com', passwordHash: '$2a$10$short' }),
        JSON.stringify({ email: 'kate@example.com', passwordHash: COSTLY }),
      ].join('\n'),
    );
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('says whether the password matches, as the hash will be imported', async () => {
    expect(await checkKnownPassword(path, { format: 'ndjson' }, 'Known@Example.com', new Secret('known password'))).toMatchObject({ match: true });
    expect(await checkKnownPassword(path, { format: 'ndjson' }, 'known@example.com', new Secret('wrong'))).toMatchObject({
      match: false,
      sentence: expect.stringContaining('does NOT match'),
    });
    expect(await checkKnownPassword(path, { format: 'ndjson' }, 'broken@example.com', new Secret('x'))).toMatchObject({
      match: false,
      sentence: expect.stringContaining('is not imported'),
    });
    expect(await checkKnownPassword(path, { format: 'ndjson' }, 'nobody@example.com', new Secret('x'))).toMatchObject({
      sentence: 'no password user nobody@example.com in this file',
    });
  });

  it('stops at once when its signal is aborted (the app quits), whether it is reading the plan or checking', async () => {
    const quit = new AbortController();
    const checking = checkKnownPassword(path, { format: 'ndjson' }, 'known@example.com', new Secret('known password'), quit.signal);
    setTimeout(() => quit.abort(new Error('the app was closed')), 0);
    await expect(checking).rejects.toThrow('the app was closed');
  });

  it('finds the password users whose email starts with what was typed, for completion', async () => {
    expect(await findPasswordEmails(path, { format: 'ndjson' }, 'k', 5)).toEqual(['known@example.com', 'kate@example.com']);
  });

  it('checks a user parked for a login-time migration against its legacy hash, and offers it for completion', async () => {
    const django = legacyHashVector('django', (hash) => hash.startsWith('pbkdf2_sha256$1000$'));
    await writeFile(path, JSON.stringify({ email: 'parked@example.com', passwordHash: django.hash }));
    const options = { format: 'ndjson' as const, loginTime: true };
    expect(await checkKnownPassword(path, options, 'parked@example.com', new Secret(django.password))).toEqual({
      match: true,
      sentence: 'the password matches parked@example.com (Django PBKDF2-SHA256: parked, checked by the login-time service at its first sign-in)',
    });
    expect(await checkKnownPassword(path, options, 'parked@example.com', new Secret(django.wrongPassword))).toMatchObject({
      match: false,
      sentence: expect.stringContaining('does NOT match parked@example.com'),
    });
    expect(await findPasswordEmails(path, options, 'park', 5)).toEqual(['parked@example.com']);
  });
});
