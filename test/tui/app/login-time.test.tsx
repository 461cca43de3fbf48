import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CoreClient } from '../../../core-client/src/http/core-client.js';
import { migrateAtLogin, openLoginMigration } from '../../../core-client/src/login-time/migrate-at-login.js';
import { Secret } from '../../../core-client/src/secret.js';
import { legacyHashVector } from '../../core-client/login-time/hash-vectors.js';
import { appTestBed } from '../support/app-bed.js';
import { keys } from '../keys.js';
import { flat, focusOn, onScreen, press, waitFor, walkToReview } from '../support/terminal.js';

const bed = appTestBed('login-time');
const django = legacyHashVector('django', (hash) => hash.startsWith('pbkdf2_sha256$1000$'));
const phpass = legacyHashVector('passlib', (hash) => hash.startsWith('$P$'));

describe('the app with a login-time migration', () => {
  it('Review says how many users will arrive at their first login, by family; Summary how to start the service', async () => {
    const lines = [
      { id: 'dj-1', email: 'ada@example.com', passwordHash: django.hash },
      { id: 'dj-2', email: 'grace@example.com', passwordHash: django.hash },
      { id: 'wp-3', email: 'wp@example.com', passwordHash: phpass.hash },
    ];
    await writeFile(join(bed.folder(), 'legacy.ndjson'), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    const app = bed.open({ file: 'legacy.ndjson', loginTime: 'waiting.sqlite' }, { size: { columns: 160, rows: 50 } });
    await walkToReview(app);
    expect(flat(app.lastFrame())).toMatch(/arrive at first login\s+3\s+Django PBKDF2-SHA256 \(2\), phpass \(WordPress, phpBB\) \(1\)/);
    // After the push, Summary says how to start the service the backend asks at their first sign-in.
    await press(app, keys.enter, 'y');
    const summary = flat(await waitFor(app, 'Push finished.', 20_000));
    expect(summary).toMatch(
      /3 user\(s\) wait for their first sign-in; start the service your backend asks \(docs\/login-time\.md\), with a key of its own .*openssl rand -hex 32 > service\.key\) .*login-migration serve --store waiting\.sqlite --core http:\/\/127\.0\.0\.1:\d+ --service-key-file service\.key/,
    );
    app.unmount();
  });

  it('Hashes shows the parked families and how they are checked; the known-password check finds a parked user, as hash verify does', async () => {
    const lines = [
      { id: 'dj-1', email: 'ada@example.com', passwordHash: django.hash },
      { id: 'wp-2', email: 'wp@example.com', passwordHash: phpass.hash },
      { id: 'bc-3', email: 'bc@example.com', passwordHash: '$2a$04$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy' },
    ];
    await writeFile(join(bed.folder(), 'legacy.ndjson'), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    const app = bed.open({ file: 'legacy.ndjson', loginTime: 'waiting.sqlite' }, { size: { columns: 80, rows: 24 } });
    await waitFor(app, 'Where is the core?');
    await press(app, keys.enter);
    await waitFor(app, onScreen('Source'));
    await press(app, keys.enter);
    const hashes = await waitFor(app, 'Hash families in the file');
    expect(hashes).toMatch(/bcrypt\s+1\s+imported as the standard \$2a\$ string/);
    expect(hashes).toMatch(/Django PBKDF2-SHA256\s+1\s+parked: core-migrate checks at first sign-in/);
    expect(hashes).toMatch(/phpass \(WordPress, phpBB\)\s+1\s+parked: core-migrate checks at first sign-in/);

    await focusOn(app, 'check email');
    await press(app, 'ada@example.com', keys.down, django.password, keys.enter);
    const matched = 'the password matches ada@example.com (Django PBKDF2-SHA256: parked, checked by the login-time service at its first sign-in)';
    await waitFor(app, (frame) => flat(frame).includes(`✓ ${matched}`));
    await press(app, keys.backspace, keys.enter);
    await waitFor(app, (frame) => flat(frame).includes('✗ the password does NOT match ada@example.com (Django PBKDF2-SHA256'));
    app.unmount();
  });

  it('the rollback question names the users created by the push, the login-time arrivals and the waiting users; the result counts them; Summary stays true', async () => {
    const lines = [
      { id: 'dj-1', email: 'ada@example.com', passwordHash: django.hash },
      { id: 'dj-2', email: 'grace@example.com', passwordHash: django.hash },
      { id: 'wp-3', email: 'wp@example.com', passwordHash: phpass.hash },
      { id: 'bc-4', email: 'bc@example.com', passwordHash: '$2a$04$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy' },
    ];
    await writeFile(join(bed.folder(), 'legacy.ndjson'), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    const app = bed.open({ file: 'legacy.ndjson', loginTime: 'waiting.sqlite', journal: 'journal.ndjson' }, { size: { columns: 120, rows: 40 } });
    await walkToReview(app);
    await press(app, keys.enter, 'y');
    expect(flat(await waitFor(app, 'Push finished.', 20_000))).toContain('3 user(s) wait for their first sign-in');
    // One parked user signs in: the login-time service creates it in the core.
    const client = new CoreClient({ baseUrl: bed.core().url, apiKey: new Secret(bed.apiKey), retry: false });
    const login = await openLoginMigration({ store: join(bed.folder(), 'waiting.sqlite'), core: client });
    expect(await migrateAtLogin(login, { email: 'ada@example.com', password: new Secret(django.password) })).toMatchObject({ outcome: 'migrated' });
    await login.close();
    await client.close();
    expect(bed.core().users()).toHaveLength(2);

    // The question comes from the rollback's own dry run at the core: a core that refuses it leaves u to try again.
    bed.core().faults.failNext(1, { status: 401, body: 'Invalid API key' });
    await press(app, 'u');
    await waitFor(app, (frame) => flat(frame).includes('✗ Rollback:') && flat(frame).includes('u roll back'));
    await press(app, 'u');
    const question = flat(await waitFor(app, (frame) => flat(frame).includes('(y/n)')));
    expect(question).toContain(
      'Remove the 1 user(s) this migration created, by its push and syncs, and the 1 created at first sign-in, and drop the 2 waiting in the login-time store (never one that was there before)? (y/n)',
    );
    expect(bed.core().users()).toHaveLength(2);
    await press(app, 'y');
    const after = flat(await waitFor(app, (frame) => flat(frame).includes('Rollback: '), 20_000));
    expect(after).toContain('Rollback: 1 removed now');
    expect(after).toContain('login-time: 1 created at their first sign-in removed, 2 waiting user(s) dropped from the store.');
    expect(after).not.toContain('wait for their first sign-in');
    expect(after).not.toContain('login-migration serve');
    expect(bed.core().users()).toEqual([]);
    app.unmount();
  }, 40_000);
});
