import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AppResult } from '../../../tui/src/terminal-app.js';
import { runCli, userWrites } from '../commands/push-support.js';
import { keys } from '../keys.js';
import { appTestBed } from '../support/app-bed.js';
import { flat, press, waitFor, walkToIdentity, type Terminal } from '../support/terminal.js';

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
    await workOutDelta(app);
    await waitFor(app, 'deleted in source');
    const review = flat(app.lastFrame());
    expect(review).toMatch(/new 0 · changed 1 · disabled 0 · deleted in source 1/);
    // The users one by one, by old id: the one leaving first, then the one changed.
    expect(review).toMatch(/keep\s+"u07"\s+gone from the export: left in the core \(setting: keep\).*change\s+"u01"\s+profile/s);
    // Working out the delta wrote nothing about any user.
    const previewWrites = userWrites(bed.core(), requestsBefore);
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
  it('checks a journal chosen in the app as the command does: an unlike export is refused before Review asks; said to be the right one, its users are listed by old id', async () => {
    const folder = bed.folder();
    const push = ['--core', bed.core().url, '--hash-config', 'hash_config.txt', '--journal', 'journal.ndjson', '--report', 'push.ndjson'];
    expect((await runCli(['push', 'users.json', ...push], folder, { CORE_API_KEY: bed.apiKey })).exitCode).toBe(1);
    const exported = JSON.parse(await readFile(join(folder, 'users.json'), 'utf8')) as { users: Record<string, unknown>[] };
    const unrelated = exported.users.map((user, index) => ({ ...user, localId: `other-${index}`, email: `other${index}@example.org` }));
    await writeFile(join(folder, 'other.json'), `${JSON.stringify({ users: unrelated })}\n`);
    const requestsBefore = bed.core().requestCount();
    const writes = () => userWrites(bed.core(), requestsBefore);

    const app = bed.open({ file: 'other.json', hashConfig: 'hash_config.txt', journal: 'journal.ndjson', report: 'sync.ndjson' });
    await workOutDelta(app);
    await waitFor(app, 'users appear in this export');
    expect(flat(app.lastFrame())).toMatch(/0 of the journal's 10 users appear in this export.*set "sync an unlike export" to yes/s);
    // Enter does not ask to send a refused sync.
    await press(app, keys.enter);
    expect(flat(app.lastFrame())).not.toContain('(y/n)');
    // The operator says it is the right export: the delta is worked out, and lists the new users by old id.
    await press(app, keys.down);
    await press(app, keys.down);
    await press(app, keys.right);
    await press(app, keys.enter);
    await waitFor(app, 'users 1–');
    // The journal's 10 users, gone from this export, come first (kept: "gone from the export" is keep); PgDn shows the new ones.
    expect(flat(app.lastFrame())).toMatch(/keep\s+"u01"\s+gone from the export: left in the core/);
    await press(app, keys.pageDown);
    expect(flat(app.lastFrame())).toMatch(/create\s+"other-\d+"\s+new in the export/);
    expect(writes()).toEqual([]);
  });

  it('removals over the limit: Review lists them first by old id, says they are withheld, and offers the limit', async () => {
    const folder = bed.folder();
    const push = ['--core', bed.core().url, '--hash-config', 'hash_config.txt', '--journal', 'journal.ndjson', '--report', 'push.ndjson'];
    expect((await runCli(['push', 'users.json', ...push], folder, { CORE_API_KEY: bed.apiKey })).exitCode).toBe(1);
    const exported = JSON.parse(await readFile(join(folder, 'users.json'), 'utf8')) as { users: Record<string, unknown>[] };
    const tuesday = exported.users.map((user) => (user['localId'] === 'u03' || user['localId'] === 'u06' ? { ...user, disabled: true } : user));
    await writeFile(join(folder, 'tuesday.json'), `${JSON.stringify({ users: tuesday })}\n`);
    const app = bed.open({ file: 'tuesday.json', hashConfig: 'hash_config.txt', journal: 'journal.ndjson', report: 'sync.ndjson' });
    await workOutDelta(app);
    await waitFor(app, 'Removals withheld');
    const review = flat(app.lastFrame());
    expect(review).toMatch(/would remove 2 users.*more than its limit of 1 \(most removals\).*set "most removals" to 2/s);
    expect(review).toMatch(/withheld\s+"u03"\s+disabled in the old system: over the removal limit.*withheld\s+"u06"/s);
    expect(review).toContain('most removals');
  });
});

/** Through Connect, Source, Hashes and Identity to Review, and Enter there: the sync's delta is worked out (a dry run). */
async function workOutDelta(app: Terminal): Promise<void> {
  await walkToIdentity(app);
  await press(app, keys.enter);
  await waitFor(app, 'Enter works out what changed since the journal');
  await press(app, keys.enter);
}
