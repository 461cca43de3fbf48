import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AppResult } from '../../../tui/src/terminal-app.js';
import { runCli } from '../commands/push-support.js';
import { keys } from '../keys.js';
import { appTestBed } from '../support/app-bed.js';
import { flat, press, waitFor } from '../support/terminal.js';

const bed = appTestBed('sync');

describe('the terminal app runs a sync', () => {
  it('with a journal of an earlier push and a newer export, Review shows the delta, y runs the sync, and the command printed is the sync', async () => {
    const folder = bed.folder();
    const pushed = await runCli(
      ['push', 'users.json', '--core', bed.core().url, '--hash-config', 'hash_config.txt', '--journal', 'journal.ndjson', '--report', 'push.ndjson'],
      folder,
      { CORE_API_KEY: bed.apiKey },
    );
    expect(pushed.exitCode).toBe(1); // the sample has refused records
    const exported = JSON.parse(await readFile(join(folder, 'users.json'), 'utf8')) as { users: Record<string, unknown>[] };
    const users = exported.users
      .filter((user) => user['localId'] !== 'u07')
      .map((user) => (user['localId'] === 'u01' ? { ...user, displayName: 'Ada King' } : user));
    await writeFile(join(folder, 'tuesday.json'), `${JSON.stringify({ users })}\n`);
    const requestsBefore = bed.core().requestCount();

    let result: AppResult | undefined;
    const app = bed.open(
      { file: 'tuesday.json', hashConfig: 'hash_config.txt', journal: 'journal.ndjson', report: 'sync.ndjson' },
      { onDone: (done) => (result = done) },
    );
    await waitFor(app, 'Where is the core?');
    await press(app, keys.enter);
    await waitFor(app, 'Source]');
    await press(app, keys.enter);
    await waitFor(app, 'Hash families in the file');
    await press(app, keys.enter);
    await waitFor(app, 'Identity]');
    await press(app, keys.enter);
    await waitFor(app, 'Enter works out what changed since the journal');
    await press(app, keys.enter);
    await waitFor(app, 'deleted in source');
    const review = flat(app.lastFrame());
    expect(review).toMatch(/changed\s+1\s+profile 1/);
    expect(review).toMatch(/deleted in source\s+1/);
    expect(review).toMatch(/new users\s+0/);
    // Working out the delta wrote nothing about any user.
    const previewWrites = bed
      .core()
      .requests()
      .slice(requestsBefore)
      .filter(
        (request) => request.method !== 'GET' && JSON.stringify(request.body ?? {}) !== '{}' && !JSON.stringify(request.body).includes('core-migrate-probe'),
      );
    expect(previewWrites).toEqual([]);
    await press(app, keys.enter);
    await waitFor(app, 'Send the changes of 1 users to');
    await press(app, 'y');
    await waitFor(app, 'Sync finished.', 20_000);
    const summary = flat(app.lastFrame());
    expect(summary).toContain('Users: 0 new, 1 changed');
    expect(summary).toContain('core-migrate sync tuesday.json');
    expect(bed.core().identity.metadataOf('u01')['displayName']).toBe('Ada King');
    await press(app, keys.enter);
    for (let waited = 0; result === undefined && waited < 5_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(result?.command?.line).toMatch(/^core-migrate sync tuesday\.json /);
  });
});
