import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { startJunkServer } from '../../core-client/http/junk-server.js';
import { API_KEY, jsonOf, runCli } from './push-support.js';

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
    expect(jsonOf(run)).toMatchObject({ imported: 1, rejected: 4 });
    expect(core.users().map((user) => user.email)).toEqual(['ada@example.com']);
  });
});

describe('a core that answers with control characters', () => {
  it('reaches the terminal only escaped: the pre-flight sentence of push, check and rollback', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'control-core-'));
    // Clears the screen, sets the window title and rings the bell, if printed raw.
    const hostile = 'broken \u001b[2J\u001b]0;pwned\u0007 \u202eetad';
    const server = await startJunkServer((request, _body, response) => {
      if (request.url === '/hello') return void response.writeHead(200, { 'content-type': 'text/plain' }).end('Hello');
      response.writeHead(500, { 'content-type': 'text/html;charset=UTF-8' }).end(hostile);
    });
    try {
      const source = join(dir, 'users.ndjson');
      await writeFile(source, `${JSON.stringify({ email: 'ada@example.com', passwordHash: HASH })}\n`);
      await writeFile(join(dir, 'j.ndjson'), '');
      for (const args of [
        ['push', source, '--core', server.url],
        ['check', '--core', server.url],
        ['rollback', '--journal', 'j.ndjson', '--core', server.url],
      ]) {
        const run = await runCli(args, dir);
        expect(run.exitCode, `${args[0]}: ${run.stderr}`).toBe(3);
        expect(`${run.stdout}${run.stderr}`, args[0]).toMatch(/broken \\x1b\[2J\\x1b\]0;pwned\\x07 \\u\{202e\}etad/);
        expect(`${run.stdout}${run.stderr}`, args[0]).not.toMatch(RAW);
      }
    } finally {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('hash inspect and verify', () => {
  it('print what they were given only escaped (a prefix rule with an escape sequence)', async () => {
    const rule = 'x\u001b[2J';
    for (const json of [false, true]) {
      const run = await runCli(['hash', 'inspect', '--strip-prefix', rule, `${rule}${HASH}`, ...(json ? ['--json'] : [])], tmpdir());
      expect(run.exitCode).toBe(0);
      expect(run.stdout).toMatch(json ? /x\\u001b\[2J/ : /x\\x1b\[2J/);
      expect(`${run.stdout}${run.stderr}`).not.toMatch(RAW);
    }
  });
});
