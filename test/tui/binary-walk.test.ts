import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCoreDouble, type CoreDouble } from '../core-double/index.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = join(root, 'test/fixtures/exports/auth0');
const bin = join(root, 'tui/bin/core-migrate.js');
const apiKey = randomBytes(24).toString('hex');

/** Node 24 first on PATH, as an operator's own Node would be: the bin's `#!/usr/bin/env node` must find it. */
const { CORE_API_KEY: _inherited, ...inherited } = process.env;
const env: NodeJS.ProcessEnv = { ...inherited, PATH: `${dirname(process.execPath)}${delimiter}${process.env['PATH'] ?? ''}`, NO_COLOR: '1' };

let core: CoreDouble;
let home: string;
const socket = `core-migrate-walk-${process.pid}`;
const tmux = (...args: string[]) => run('tmux', ['-L', socket, ...args], { env });
const screen = async (): Promise<string> => (await tmux('capture-pane', '-p')).stdout;

async function waitForScreen(ready: (text: string) => boolean, what: string, limitMs = 20_000): Promise<string> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const text = await screen().catch(() => '');
    if (ready(text)) return text;
    if (Date.now() > deadline) throw new Error(`the terminal never showed ${what}; last screen:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function keys(...sequence: string[]): Promise<void> {
  for (const key of sequence) {
    await tmux('send-keys', key);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

beforeAll(async () => {
  core = await startCoreDouble({ apiKeys: [apiKey] });
  home = await mkdtemp(join(tmpdir(), 'core-migrate-operator-'));
  await copyFile(join(fixtures, 'users.ndjson'), join(home, 'users.ndjson'));
  await copyFile(join(fixtures, 'passwords.ndjson'), join(home, 'passwords.ndjson'));
});
afterAll(async () => {
  await tmux('kill-server').catch(() => undefined);
  await core.close();
  await rm(home, { recursive: true, force: true });
});

describe('the real binary in a pseudo-terminal, started outside the repository', () => {
  it("opens the app filled from the flags, walks with Enter and y, redraws on resize, and leaves the resume command and push's exit code", async () => {
    // The first user's creation is held until the terminal has been resized under the push screen, so the push is
    // still under way at each resize, however fast or slow the machine (the pre-flight's probes carry no email).
    core.faults.holdPath('/recipe/user/passwordhash/import', 'POST', 'ada@example.com');
    const command =
      `CORE_API_KEY=${apiKey} ${bin} users.ndjson --auth0-password-file passwords.ndjson --core ${core.url} --concurrency 1; ` +
      `echo "exit $?" > exit-code.txt; sleep 60`;
    await tmux('new-session', '-d', '-x', '80', '-y', '24', '-c', home, command);
    await waitForScreen((text) => text.includes('Where is the core?'), 'the Connect screen');
    await keys('Enter');
    await waitForScreen((text) => text.includes('detected: auth0') && text.includes('passwords.ndjson'), 'the Source screen, filled from the flags');
    await keys('Enter');
    await waitForScreen((text) => text.includes('Hash families in the file'), 'the Hashes screen');
    await keys('Enter');
    await waitForScreen((text) => text.includes('What a migrated user keeps'), 'the Identity screen');
    await keys('Enter');
    await waitForScreen((text) => text.includes('Nothing is sent until you confirm.'), 'the Review screen');
    await keys('Enter');
    await waitForScreen((text) => text.includes('(y/n)'), 'the question');
    await keys('y');
    await waitForScreen((text) => text.includes('concurrency 1'), 'the push under way');
    for (const [columns, rows] of [
      ['60', '20'],
      ['120', '40'],
    ] as const) {
      await tmux('resize-window', '-x', columns, '-y', rows);
      await new Promise((resolve) => setTimeout(resolve, 400));
      const drawn = await screen();
      expect(
        drawn.split('\n').filter((line) => line.startsWith('core-migrate ')),
        drawn,
      ).toHaveLength(1);
    }
    core.faults.releaseHeld();
    await waitForScreen((text) => text.includes('Push finished.'), 'the summary', 40_000);
    await keys('q');
    const after = await waitForScreen((text) => /run it again|to resume/.test(text) && text.includes('push users.ndjson'), 'the command printed on leaving');
    expect(after).toContain('--auth0-password-file passwords.ndjson');
    expect(core.emailPasswordUsers().map((user) => user.email)).toContain('ada@example.com');
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const code = await readFile(join(home, 'exit-code.txt'), 'utf8').catch(() => '');
      if (code !== '') {
        // The fixture holds records the plan refuses: push's exit code for that is 1.
        expect(code.trim()).toBe('exit 1');
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the binary never exited');
  }, 90_000);
});
