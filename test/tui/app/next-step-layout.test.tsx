import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bcryptHashOf } from '../../core-double/known-hashes.js';
import { legacyHashVector } from '../../core-client/login-time/hash-vectors.js';
import { appTestBed } from '../support/app-bed.js';
import { keys } from '../keys.js';
import { flat, overflow, press, waitFor, walkToIdentity, walkToReview, type Terminal } from '../support/terminal.js';

const passwordless = fileURLToPath(new URL('../../fixtures/exports/passwordless/', import.meta.url));
const django = legacyHashVector('django', (hash) => hash.startsWith('pbkdf2_sha256$1000$'));
const bed = appTestBed('next-step');
const size = { columns: 80, rows: 24 };

/** The body's blank lines at its end (above the message and hint lines): rows a cut table could have had. */
function blankBodyRowsAtEnd(frame: string): number {
  const body = frame.split('\n').slice(2, -2);
  let blank = 0;
  while (blank < body.length && (body[body.length - 1 - blank] ?? '').trim() === '') blank += 1;
  return blank;
}

function expectNothingHiddenWithRoom(app: Terminal): void {
  const frame = app.lastFrame();
  expect(overflow(frame, size.columns, size.rows), frame).toEqual([]);
  if (frame.includes('more rows')) expect(blankBodyRowsAtEnd(frame), frame).toBeLessThanOrEqual(1);
}

describe('at 80x24, what decides the next step is never behind "more rows"', () => {
  it('Identity shows the phone users and the refused numbers', async () => {
    await copyFile(join(passwordless, 'firebase-users.json'), join(bed.folder(), 'phones.json'));
    await copyFile(join(passwordless, 'hash_config.txt'), join(bed.folder(), 'phones-hash.txt'));
    const app = bed.open({ file: 'phones.json', hashConfig: 'phones-hash.txt', journal: 'journal.ndjson' }, { size });
    const words = await walkToIdentity(app);
    expect(words).toMatch(/phone users\s+3\s+passwordless users/);
    expect(words).toMatch(/numbers refused\s+3\s+unreadable or duplicate/);
    expectNothingHiddenWithRoom(app);
    app.unmount();
  });

  it('Summary shows the users parked for a login-time migration and those the plan rejected', async () => {
    const bcrypt = await bcryptHashOf('known-password');
    const lines = [
      { id: 'dj-1', email: 'ada@example.com', passwordHash: django.hash },
      { id: 'dj-2', email: 'grace@example.com', passwordHash: django.hash },
      { id: 'dj-3', email: 'alan@example.com', passwordHash: django.hash },
      { id: 'bc-4', email: 'known@example.com', passwordHash: bcrypt },
      { id: 'bc-5', email: 'both@example.com', passwordHash: bcrypt, phoneNumber: '+14155550146' },
      { id: 'ph-6', phoneNumber: '+14155550144' },
      { id: 'bad-7', email: 'not-an-email', passwordHash: bcrypt },
      { id: 'md5-8', email: 'md5@example.com', passwordHash: '5f4dcc3b5aa765d61d8327deb882cf99' },
    ];
    await writeFile(join(bed.folder(), 'users.ndjson'), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    await writeFile(join(bed.folder(), 'known.txt'), 'known@example.com known-password\n');
    const app = bed.open(
      {
        file: join(bed.folder(), 'users.ndjson'),
        loginTime: join(bed.folder(), 'waiting.sqlite'),
        journal: join(bed.folder(), 'journal.ndjson'),
        report: join(bed.folder(), 'report.ndjson'),
        verifyCredentials: join(bed.folder(), 'known.txt'),
      },
      { size },
    );
    await walkToReview(app);
    await press(app, keys.enter, 'y');
    const summary = flat(await waitFor(app, 'Push finished.', 20_000));
    expect(summary).toMatch(/parked for login-time migration\s+3/);
    expect(summary).toMatch(/rejected by plan\s+2/);
    expect(summary).toMatch(/imported\s+2/);
    expect(summary).toMatch(/passwordless created\s+2/);
    expect(summary).toContain('✓ these add up to 9 of 9 planned operations');
    expect(summary).toContain('3 user(s) wait for their first sign-in');
    expect(summary).not.toContain('more rows');
    expectNothingHiddenWithRoom(app);
    app.unmount();
  }, 40_000);
});
