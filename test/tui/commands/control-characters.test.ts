import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { API_KEY, lastJson, runCli } from './push-support.js';

const HASH = '$2a$04$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy';
const hostile = ['clear\u001b[2J\u001b[H@example.com', 'nul\u0000byte@example.com', '\u202egnp.exe@example.com', 'zero\u200bwidth@example.com'];
/** Any control or bidi/zero-width character but the newline that ends each line. */
const RAW = /(?!\n)[\p{Cc}\u200b\u202e]/u;

describe('emails with control characters', () => {
  let dir: string;
  let source: string;
  let core: CoreDouble;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'control-'));
    source = join(dir, 'users.ndjson');
    await writeFile(source, [...hostile, 'ada@example.com'].map((email) => JSON.stringify({ email, passwordHash: HASH })).join('\n'));
    core = await startCoreDouble({ apiKeys: [API_KEY] });
  });
  afterEach(async () => {
    await core.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('are refused by the plan, and reach the terminal only escaped (table and --json)', async () => {
    const table = await runCli(['plan', source], dir);
    expect(table.exitCode).toBe(1);
    expect(table.stdout).not.toMatch(RAW);
    expect(table.stdout).toContain('invalidEmail (4)');
    expect(table.stdout).toContain('"clear\\x1b[2j\\x1b[h@example.com" holds control or invisible formatting characters (shown escaped)');
    expect(table.stdout).toContain('\\u{202e}gnp.exe@example.com');

    const json = await runCli(['plan', source, '--json'], dir);
    expect(json.stdout).not.toMatch(RAW);
    expect(JSON.parse(json.stdout)).toMatchObject({ rejected: 4, passwordImports: 1 });
  });

  it('are never sent to the core', async () => {
    const run = await runCli(['push', source, '--core', core.url, '--json'], dir);
    expect(run.exitCode).toBe(1);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(RAW);
    expect(lastJson(run)).toMatchObject({ imported: 1, rejected: 4 });
    expect(core.users().map((user) => user.email)).toEqual(['ada@example.com']);
  });
});
