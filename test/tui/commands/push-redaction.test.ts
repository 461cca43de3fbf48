import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { API_KEY, runCli, writeExport } from './push-support.js';

const SIGNER_KEY = 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==';
/** The pre-flight's requests (hello, apiversion, the tenant probe) come first. */
const PREFLIGHT_REQUESTS = 3;

let core: CoreDouble;
let dir: string;

beforeEach(async () => {
  core = await startCoreDouble({ apiKeys: [API_KEY] });
  dir = await mkdtemp(join(tmpdir(), 'push-redaction-'));
});
afterEach(async () => {
  await core.close();
  await rm(dir, { recursive: true, force: true });
});

it('a core that echoes the signer key in its answers never gets it into the report or onto the screen', async () => {
  await writeExport(join(dir, 'users.ndjson'), 8);
  await writeFile(
    join(dir, 'hash-config.json'),
    JSON.stringify({ algorithm: 'SCRYPT', base64_signer_key: SIGNER_KEY, base64_salt_separator: 'Bw==', rounds: 8, mem_cost: 14 }),
  );
  // One request at a time, so request numbers follow the file's lines (line 4 and 8 are third-party users).
  for (let line = 1; line <= 8; line += 1) {
    const requestNumber = PREFLIGHT_REQUESTS + line;
    if (line === 4) {
      core.faults.failRequestNumber(requestNumber, {
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ status: 'EMAIL_CHANGE_NOT_ALLOWED_ERROR', reason: `not with key ${SIGNER_KEY}` }),
      });
    } else {
      core.faults.failRequestNumber(requestNumber, { status: 400, body: `Invalid input: signer key is ${SIGNER_KEY}, api key ${API_KEY}` });
    }
  }
  const run = await runCli(['push', 'users.ndjson', '--core', core.url, '--hash-config', join(dir, 'hash-config.json'), '--concurrency', '1'], dir);
  expect(run.stderr).toBe('');
  const report = await readFile(join(dir, 'users.ndjson.push-report.ndjson'), 'utf8');
  expect(report.split('\n').filter((line) => line !== '')).toHaveLength(8);
  expect(report).toContain('***');
  for (const text of [report, run.stdout, run.stderr]) {
    expect(text).not.toContain(SIGNER_KEY);
    expect(text).not.toContain(API_KEY);
  }
});
