import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushSummary } from '../../core-client/src/push/summary.js';
import { startCoreDouble, type CoreDouble } from '../core-double/index.js';
import { App } from '../../tui/src/app.js';
import { writeDemoSample, type DemoSample } from '../sandbox/demo-sample.js';
import { keys, press, waitForFrame } from './keys.js';

const apiKey = randomBytes(24).toString('hex');
const signerKey = randomBytes(64);
let core: CoreDouble;
let folder: string;
let sample: DemoSample;

beforeAll(async () => {
  core = await startCoreDouble({ apiKeys: [apiKey], signerKey: signerKey.toString('base64') });
  folder = await mkdtemp(join(tmpdir(), 'core-migrate-walk-'));
  sample = await writeDemoSample(folder, signerKey);
});
afterAll(async () => {
  await core.close();
  await rm(folder, { recursive: true, force: true });
});

describe('the whole walk, typed as an operator would, against the core double', () => {
  it('connects, reads the export, proves a password, reviews, pushes and ends with the expected users', async () => {
    let finished: PushSummary | undefined;
    const app = render(
      <App
        env={{ CORE_API_KEY: apiKey }}
        cwd={folder}
        colour={false}
        pulumiBinary={join(folder, 'no-pulumi-here')}
        onDone={(summary) => (finished = summary)}
      />,
    );
    const frame = () => app.lastFrame() ?? '';

    // 1. Connect: the key comes from CORE_API_KEY; the URL is typed.
    await waitForFrame(app.lastFrame, (text) => text.includes('Pulumi CLI not found'), 'that no stacks can be listed');
    expect(frame()).toContain('from CORE_API_KEY');
    await press(app, keys.down, core.url, keys.enter);
    await waitForFrame(app.lastFrame, (text) => text.includes('Enter continue'), 'a passing pre-flight');
    expect(frame()).toContain('API versions');
    await press(app, keys.enter);

    // 2. Source: completion of the path, the detected format, the live count.
    await press(app, 'us', keys.tab);
    await waitForFrame(app.lastFrame, (text) => text.includes('users.json'), 'the completed path');
    await waitForFrame(app.lastFrame, (text) => text.includes('detected: firebase-json'), 'the detected format');
    await press(app, keys.enter);
    await waitForFrame(app.lastFrame, (text) => text.includes('✓ 14 records → 16 operations'), 'the counted plan');
    await press(app, keys.enter);

    // 3. Hashes: without parameters the scrypt users are refused; a pasted hash_config fixes that.
    await waitForFrame(app.lastFrame, (text) => text.includes('[3 Hashes]') && text.includes('refused: unusable'), 'the refused scrypt users');
    expect(frame()).not.toMatch(/vendor_scrypt +3/);
    const block = await readFile(sample.hashConfigPath, 'utf8');
    await press(app, block);
    await waitForFrame(app.lastFrame, (text) => /vendor_scrypt +3/.test(text), 'the scrypt family once the parameters are known');
    expect(frame()).toMatch(/mem_cost +14/);
    expect(frame()).toMatch(/rounds +8/);
    expect(frame()).toContain('read: the fields below now hold its values');

    await press(app, keys.up, keys.up, 'ad', keys.tab);
    await waitForFrame(app.lastFrame, (text) => text.includes('ada@example.com'), 'the completed email');
    await press(app, keys.down, 'not-the-password', keys.enter);
    await waitForFrame(app.lastFrame, (text) => text.includes('does NOT match'), 'a refused password');
    await press(app, keys.ctrlU, 'analytical-engine', keys.enter);
    await waitForFrame(app.lastFrame, (text) => text.includes('✓ the password matches ada@example.com (vendor_scrypt)'), 'a matching password');

    // 4. Review: Esc goes back and forth without losing anything; nothing is sent before "y".
    await press(app, keys.down, keys.enter);
    await waitForFrame(app.lastFrame, (text) => text.includes('[4 Review]'), 'the review');
    await press(app, keys.escape);
    await waitForFrame(app.lastFrame, (text) => text.includes('[3 Hashes]'), 'the hashes screen again');
    expect(frame()).toMatch(/mem_cost +14/);
    await press(app, keys.enter);
    await waitForFrame(app.lastFrame, (text) => text.includes('[4 Review]') && text.includes('password imports'), 'the plan table');
    expect(frame()).toMatch(/password imports +7 bcrypt 2 · argon2 2 · vendor_scrypt 3/);
    expect(frame()).toMatch(/third-party sign-ins +4/);
    expect(frame()).toMatch(/duplicates +1/);
    await press(app, keys.down, keys.down, keys.ctrlU, join(folder, 'walk.journal'), keys.down, keys.ctrlU, join(folder, 'walk.report'), keys.enter);
    await waitForFrame(app.lastFrame, (text) => text.includes('(y/n)'), 'the confirmation');
    expect(core.users()).toHaveLength(0);
    expect(core.requests().filter((request) => request.path.endsWith('/recipe/user/passwordhash/import'))).toHaveLength(0);
    await press(app, 'y');

    // 5 and 6. Push, then the summary.
    await waitForFrame(app.lastFrame, (text) => text.includes('[6 Summary]'), 'the summary', 20_000);
    expect(frame()).toContain('✓ these add up to 16 of 16 planned operations');
    expect(frame()).toMatch(/imported +7/);
    expect(frame()).toMatch(/third-party created +4/);
    expect(frame()).toContain('--journal');

    const stored = core
      .emailPasswordUsers()
      .map((user) => user.email)
      .sort();
    expect(stored).toEqual([
      'ada@example.com',
      'alan@example.com',
      'barbara@example.com',
      'donald@example.com',
      'edsger@example.com',
      'grace@example.com',
      'margaret@example.com',
    ]);
    expect(core.emailPasswordUsers().filter((user) => user.hashingAlgorithm === 'vendor_scrypt')).toHaveLength(3);
    expect(core.thirdPartyUsers()).toHaveLength(4);

    await press(app, keys.enter);
    expect(finished?.imported).toBe(7);
    for (const shown of app.frames) {
      expect(shown).not.toContain(apiKey);
      expect(shown).not.toContain(signerKey.toString('base64'));
      expect(shown).not.toContain('analytical-engine');
    }
  });

  it('stops safely on q, journals what was answered, and shows how to resume', async () => {
    core.reset();
    core.faults.setLatencyMs(150);
    const journal = join(folder, 'stopped.journal');
    const app = render(
      <App
        env={{ CORE_API_KEY: apiKey, CORE_URL: core.url }}
        cwd={folder}
        colour={false}
        pulumiBinary={join(folder, 'no-pulumi-here')}
        defaults={{
          source: { path: 'users.json' },
          hashes: { memCost: '14', rounds: '8', saltSeparator: 'Bw==' },
          review: { concurrency: '1', journalPath: journal, reportPath: join(folder, 'stopped.report') },
        }}
      />,
    );
    await press(app, keys.enter);
    await waitForFrame(app.lastFrame, (text) => text.includes('Enter continue'), 'a passing pre-flight');
    await press(app, keys.enter, keys.enter);
    await waitForFrame(app.lastFrame, (text) => text.includes('✓ 14 records'), 'the counted plan');
    await press(app, keys.enter, keys.down, keys.enter);
    await waitForFrame(app.lastFrame, (text) => text.includes('password imports'), 'the review');
    await press(app, keys.enter, 'y');
    await waitForFrame(app.lastFrame, (text) => text.includes('[5 Push]') && /imported +[1-9]/.test(text), 'the push under way');
    await press(app, 'q');
    await waitForFrame(app.lastFrame, (text) => text.includes('[6 Summary]'), 'the summary after the stop', 20_000);
    const frame = app.lastFrame() ?? '';
    expect(frame).toContain('Push stopped early.');
    expect(frame).toMatch(/not attempted +[1-9]/);
    expect(frame).toContain('✓ these add up to 16 of 16 planned operations');
    expect(frame.replace(/\s+/g, ' ')).toContain(`--journal ${journal}`);
    const journalled = (await readFile(journal, 'utf8')).trim().split('\n').length - 1;
    expect(journalled).toBeGreaterThan(0);
    expect(journalled).toBeLessThan(11);
    core.faults.setLatencyMs(0);
    app.unmount();
  });
});
