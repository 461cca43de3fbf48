import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { API_KEY, isTenantProbe, runCli, writeExport } from './push-support.js';

const SIGNER_KEY = 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==';

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

function isOperation(request: { path: string; body?: unknown }): 'import' | 'thirdParty' | undefined {
  if (request.path.endsWith('/passwordhash/import')) return isTenantProbe(request) ? undefined : 'import';
  const body = request.body as { thirdPartyUserId?: unknown } | undefined;
  return request.path.endsWith('/signinup') && typeof body?.thirdPartyUserId === 'string' ? 'thirdParty' : undefined;
}

/** Runs the push once in its own folder; the request numbers of its operations, in order (one request at a time). */
async function rehearse(args: string[]): Promise<{ number: number; kind: 'import' | 'thirdParty' }[]> {
  const rehearsal = join(dir, 'rehearsal');
  await mkdir(rehearsal);
  await writeExport(join(rehearsal, 'users.ndjson'), 8);
  await runCli(['push', 'users.ndjson', ...args], rehearsal);
  const numbers = core.requests().flatMap((request, index) => {
    const kind = isOperation(request);
    return kind === undefined ? [] : [{ number: index + 1, kind }];
  });
  core.reset();
  return numbers;
}

it('a core that echoes the signer key in its answers never gets it into the report or onto the screen', async () => {
  await writeFile(
    join(dir, 'hash-config.json'),
    JSON.stringify({ algorithm: 'SCRYPT', base64_signer_key: SIGNER_KEY, base64_salt_separator: 'Bw==', rounds: 8, mem_cost: 14 }),
    { mode: 0o600 },
  );
  const args = ['--core', core.url, '--hash-config', join(dir, 'hash-config.json'), '--concurrency', '1'];
  const operations = await rehearse(args);
  expect(operations).toHaveLength(8);
  // Every operation's answer quotes the signer key: a 400 for the imports, a 200 non-OK status for the third-party users.
  for (const { number, kind } of operations) {
    core.faults.failRequestNumber(
      number,
      kind === 'thirdParty'
        ? {
            status: 200,
            contentType: 'application/json',
            body: JSON.stringify({ status: 'EMAIL_CHANGE_NOT_ALLOWED_ERROR', reason: `not with key ${SIGNER_KEY}` }),
          }
        : { status: 400, body: `Invalid input: signer key is ${SIGNER_KEY}, api key ${API_KEY}` },
    );
  }
  await writeExport(join(dir, 'users.ndjson'), 8);
  const run = await runCli(['push', 'users.ndjson', ...args], dir);
  expect(run.stderr).toBe('');
  const report = await readFile(join(dir, 'users.ndjson.push-report.ndjson'), 'utf8');
  expect(report.split('\n').filter((line) => line.includes('***'))).toHaveLength(8);
  for (const text of [report, run.stdout, run.stderr]) {
    expect(text).not.toContain(SIGNER_KEY);
    expect(text).not.toContain(API_KEY);
  }
});
