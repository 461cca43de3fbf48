import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isTenantProbe, runCli } from '../commands/push-support.js';
import { keys } from '../keys.js';
import { appTestBed } from '../support/app-bed.js';
import { flat, press, waitFor, walkToReview } from '../support/terminal.js';

const bed = appTestBed('hash-resend');
const size = { columns: 120, rows: 40 };

describe('Review warns before scrypt-variant users are sent with nothing proving their hash parameters (issue 25, item 2)', () => {
  it('without a known-accounts file: every such user would be locked out by a wrong parameter, and the one line that proves it', async () => {
    const app = bed.open({ file: 'users.json', hashConfig: 'hash_config.txt' }, { size });
    await walkToReview(app);
    await waitFor(app, (frame) => flat(frame).includes('locked out'));
    const review = flat(app.lastFrame());
    expect(review).toMatch(/WARNING: \d+ scrypt-variant user\(s\) .* every such user is locked out/);
    expect(review).toContain('set "credentials file" to a file holding the line');
    expect(review).toContain('tester@example.com the-password-you-know');
    expect(bed.core().users()).toEqual([]);
  }, 30_000);

  it('with a known-accounts file: no warning', async () => {
    const app = bed.open({ file: 'users.json', hashConfig: 'hash_config.txt', verifyCredentials: 'credentials.txt' }, { size });
    await walkToReview(app);
    await waitFor(app, 'records read');
    expect(flat(app.lastFrame())).not.toContain('locked out');
  }, 30_000);
});

describe('the app after a push with a wrong hash config (issue 25, item 2)', () => {
  it('a push with the corrected config and the same journal sends nothing for those users, counts them, and offers the sync', async () => {
    const folder = bed.folder();
    const right = await readFile(join(folder, 'hash_config.txt'), 'utf8');
    await writeFile(join(folder, 'wrong.txt'), right.replace(/mem_cost: \d+/, 'mem_cost: 13'), { mode: 0o600 });
    const wrong = await runCli(['push', 'users.json', '--core', bed.core().url, '--hash-config', 'wrong.txt', '--journal', 'journal.ndjson'], folder, {
      CORE_API_KEY: bed.apiKey,
    });
    expect(wrong.stdout).toMatch(/imported\s+\d+/);
    const importsBefore = bed
      .core()
      .requests()
      .filter((request) => request.path === '/recipe/user/passwordhash/import' && !isTenantProbe(request)).length;

    const app = bed.open({ file: 'users.json', hashConfig: 'hash_config.txt', journal: 'journal.ndjson', verifyCredentials: '' }, { size });
    await walkToReview(app);
    await press(app, keys.enter);
    await waitFor(app, '(y/n)');
    await press(app, 'y');
    await waitFor(app, 'Push finished.', 20_000);
    const summary = flat(app.lastFrame());
    expect(summary).toMatch(/created with another hash \(for sync\)\s+3/);
    expect(summary).toContain('to re-import the hashes of the 3 user(s) created earlier with another hash:');
    expect(summary).toMatch(/core-migrate sync users\.json .*--hash-config hash_config\.txt .*--journal/);
    const importsAfter = bed
      .core()
      .requests()
      .filter((request) => request.path === '/recipe/user/passwordhash/import' && !isTenantProbe(request)).length;
    expect(importsAfter).toBe(importsBefore);
  }, 40_000);
});
