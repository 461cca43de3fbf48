import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { keys } from '../keys.js';
import { appTestBed } from '../support/app-bed.js';
import { flat, focusOn, focusedLine, onScreen, press, waitFor, walkToIdentity, type Terminal } from '../support/terminal.js';

const passwordless = fileURLToPath(new URL('../../fixtures/exports/passwordless/', import.meta.url));
const bed = appTestBed('passwordless');

/** The app on the Firebase export with phone, email-link and password+phone users, on a terminal tall enough for the table. */
async function openOnPhoneUsers(): Promise<Terminal> {
  await copyFile(join(passwordless, 'firebase-users.json'), join(bed.folder(), 'phones.json'));
  await copyFile(join(passwordless, 'hash_config.txt'), join(bed.folder(), 'phones-hash.txt'));
  return bed.open({ file: 'phones.json', hashConfig: 'phones-hash.txt', journal: 'journal.ndjson' }, { size: { columns: 110, rows: 40 } });
}

describe('phone and email-link users in the app (issue 27)', () => {
  it('Identity says what becomes of them and offers the email-link choice and the default region; the region typed reads national numbers', async () => {
    const app = await openOnPhoneUsers();
    const words = await walkToIdentity(app);
    expect(words).toContain('passwordless users yes: phone and email-link users become passwordless users');
    expect(words).toContain('email-link users passwordless: users with only an email sign in by a code or link');
    expect(words).toMatch(/phone users\s+3\s+passwordless users: a code by SMS, number in E\.164/);
    expect(words).toMatch(/email-link users\s+1\s+passwordless users: a code or link by email/);
    expect(words).toMatch(/numbers refused\s+3\s+unreadable or duplicate: a national number needs the default region/);

    await focusOn(app, 'default phone region');
    await press(app, 'GB');
    const read = flat(await waitFor(app, (frame) => /phone users\s+4\b/.test(flat(frame))));
    expect(read).toMatch(/numbers refused\s+2\b/);

    await focusOn(app, 'passwordless: users with only an email');
    await press(app, keys.right);
    expect(focusedLine(app.lastFrame())).toContain('reset: users with only an email are refused, listed for a reset');
    await waitFor(app, (frame) => !/email-link users\s+1\s+passwordless/.test(flat(frame)));
    app.unmount();
  });

  it('a default region the phone rules do not know is named at its field; no passwordless users leaves them out, counted', async () => {
    const app = await openOnPhoneUsers();
    await walkToIdentity(app);
    await focusOn(app, 'default phone region');
    await press(app, 'Atlantis');
    await waitFor(app, (frame) => flat(frame).includes('"Atlantis" is not a country the phone number rules know'));

    for (let step = 0; step < 8; step += 1) await press(app, keys.backspace);
    await press(app, keys.up, keys.up);
    expect(focusedLine(app.lastFrame())).toContain('passwordless users');
    await press(app, keys.right);
    const off = flat(await waitFor(app, (frame) => /passwordless left out\s+7\b/.test(flat(frame))));
    expect(off).toContain('no: they are left out, listed for a reset');
    expect(off).toContain('listed in the report for a reset');
    expect(off).not.toContain('email-link users passwordless');
    app.unmount();
  });

  it('Review shows the passwordless users of the plan by kind', async () => {
    const app = await openOnPhoneUsers();
    await walkToIdentity(app);
    await press(app, keys.enter);
    const review = flat(await waitFor(app, (frame) => onScreen('Review')(frame) && frame.includes('The plan')));
    expect(review).toMatch(/passwordless users\s+4\s+phone 3 · email 1/);
    expect(review).toMatch(/invalidPhoneNumber\s+2/);
    expect(review).toMatch(/duplicatePhoneNumber\s+1/);
    app.unmount();
  });
});
