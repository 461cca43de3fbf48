import { describe, expect, it } from 'vitest';
import { appTestBed } from '../support/app-bed.js';
import { flat, waitFor, walkToReview } from '../support/terminal.js';

const bed = appTestBed('scrypt-proof');
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
