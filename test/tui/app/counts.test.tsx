import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../commands/push-support.js';
import { keys } from '../keys.js';
import { appTestBed } from '../support/app-bed.js';
import { flat, press, waitFor, walkToIdentity } from '../support/terminal.js';

const bed = appTestBed('counts');

describe('the app says the numbers it acts on (issue 25, item 4)', () => {
  it('Identity: disabled accounts are left out in a push; in a sync, those the migration created are removed from the core', async () => {
    const push = bed.open({ file: 'users.json', hashConfig: 'hash_config.txt', journal: 'journal.ndjson' });
    const pushWords = await walkToIdentity(push);
    expect(pushWords).toMatch(/disabled\s+\d+\s+left out, reported/);
    expect(pushWords).toContain('skip: left out, reported');
    push.unmount();

    const folder = bed.folder();
    const pushed = await runCli(['push', 'users.json', '--core', bed.core().url, '--hash-config', 'hash_config.txt', '--journal', 'journal.ndjson'], folder, {
      CORE_API_KEY: bed.apiKey,
    });
    expect(pushed.exitCode).toBe(1); // the sample has refused records
    // The newer export of the same system (another file): the app runs a sync.
    const exported = JSON.parse(await readFile(join(folder, 'users.json'), 'utf8')) as { users: Record<string, unknown>[] };
    const users = exported.users.map((user) => (user['localId'] === 'u01' ? { ...user, displayName: 'Ada King' } : user));
    await writeFile(join(folder, 'tuesday.json'), `${JSON.stringify({ users })}\n`);
    const sync = bed.open({ file: 'tuesday.json', hashConfig: 'hash_config.txt', journal: 'journal.ndjson' });
    const syncWords = await walkToIdentity(sync);
    expect(syncWords).toMatch(/disabled\s+\d+\s+removed if the migration created them, else left out/);
    expect(syncWords).toContain('skip: removed if the migration created them');
    expect(syncWords).not.toMatch(/disabled\s+\d+\s+left out, reported/);
  });

  it('the Summary shows no outcome at 0 and the retries; the rollback question says how many it removes; after it no command reuses the journal', async () => {
    const app = bed.open({ file: 'users.json', hashConfig: 'hash_config.txt', journal: 'journal.ndjson', report: 'report.ndjson' });
    await walkToIdentity(app);
    await press(app, keys.enter);
    await waitFor(app, 'Nothing is sent until you confirm.');
    // A store that loses lock conflicts: the requests sent again are counted, each operation still once.
    bed.core().faults.setContention({ atTwo: 0.9, atFour: 0.9, writeMs: 0 });
    bed.core().faults.setLatencyMs(10);
    await press(app, keys.enter, 'y');
    const first = flat(await waitFor(app, 'Push finished.', 20_000));
    expect(first).toMatch(/Retries: [1-9]\d* request\(s\) sent again/);
    expect(first).toContain('✓ these add up to 16 of 16 planned operations');
    bed.core().faults.clearFaults();
    // Run again: every user is skipped, so "this run" created none, yet a rollback removes every user of the journal.
    await press(app, 'b');
    await waitFor(app, 'Nothing is sent until you confirm.');
    await press(app, keys.enter, 'y');
    const again = flat(await waitFor(app, (frame) => frame.includes('Push finished.') && /skipped \(journal\) +12/.test(frame), 20_000));
    expect(again).not.toMatch(/(imported|already existed \(hash replaced\)|failed at core|not attempted) +0\b/);
    expect(again).not.toContain('not shown');
    expect(again).toContain('to run it again');
    const created = bed.core().users().length;

    await press(app, 'u');
    const question = flat(await waitFor(app, 'this migration created, by its push'));
    expect(question).toContain(`Remove the ${created} user(s) this migration created`);
    await press(app, 'y');
    const after = flat(await waitFor(app, (frame) => flat(frame).includes(`Rollback: ${created} removed now`), 20_000));
    expect(bed.core().users()).toEqual([]);
    expect(after).not.toContain('u roll back');
    expect(after).not.toContain('to run it again');
    expect(after).not.toContain('core-migrate sync');
    expect(after).not.toContain('core-migrate push');
  });
});
