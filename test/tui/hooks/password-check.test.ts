import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Secret } from '../../../core-client/src/secret.js';
import { checkKnownPassword } from '../../../tui/src/hooks/password-check.js';

/** Cost 12: about a third of a second of work, which an aborted check does not wait for. */
const COSTLY = '$2b$12$oPb3bnEBRn8qk/IAYUYUg.3ymz6sLeDHQYQP0/S5HGexkmKi2z5aW';

describe("the app's known-password check", () => {
  let dir: string;
  let path: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'password-check-'));
    path = join(dir, 'users.ndjson');
    await writeFile(path, `${JSON.stringify({ email: 'known@example.com', passwordHash: COSTLY })}\n`);
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('says whether the password matches', async () => {
    const request = { path, options: { format: 'ndjson' as const }, key: 'k' };
    expect(await checkKnownPassword(request, 'Known@Example.com', new Secret('known password'), undefined)).toMatchObject({ match: true });
  });

  it('stops at once when the app quits (its signal is aborted), whether it is reading the plan or checking', async () => {
    const request = { path, options: { format: 'ndjson' as const }, key: 'k' };
    const quit = new AbortController();
    const checking = checkKnownPassword(request, 'known@example.com', new Secret('known password'), undefined, quit.signal);
    setTimeout(() => quit.abort(new Error('the app was closed')), 0);
    await expect(checking).rejects.toThrow('the app was closed');
  });
});
