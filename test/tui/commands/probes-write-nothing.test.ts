import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../core-client/src/settings/verdict.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { writeFirebaseExport } from './identity-support.js';
import { API_KEY, jsonOf, runCli } from './push-support.js';

/**
 * The pre-flight and the identity features' probes learn what a core offers from how it refuses requests: nothing
 * they send is carried out, not even the removal of a user that does not exist (issue 20). The double counts every
 * POST or PUT it carried out.
 */
let full: CoreDouble;
let lacking: CoreDouble;
let dir: string;
const firebase = ['users.json', '--hash-config', 'hash_config.txt'];

beforeAll(async () => {
  full = await startCoreDouble({ apiKeys: [API_KEY] });
  lacking = await startCoreDouble({ apiKeys: [API_KEY], missingFeatures: ['mapping', 'metadata', 'removal'] });
  dir = await mkdtemp(join(tmpdir(), 'core-migrate-probes-'));
  // Old ids, verified emails and profiles: a push needs every identity call for them.
  await writeFirebaseExport(dir, 4);
});

afterAll(async () => {
  await Promise.all([full.close(), lacking.close()]);
  await rm(dir, { recursive: true, force: true });
});

/** The POSTs and PUTs a run sent: each must have been a body the core refuses. */
function writeRequests(core: CoreDouble): string[] {
  return core
    .requests()
    .filter((request) => request.method === 'POST' || request.method === 'PUT')
    .map((request) => `${request.method} ${request.path} ${request.rawBody}`);
}

describe('checks that write nothing', () => {
  it('check learns every identity call of a core that has them all, and writes nothing', async () => {
    full.reset();
    const run = await runCli(['check', '--core', full.url, '--json'], dir);
    expect(run.exitCode).toBe(ExitCode.ok);
    expect(JSON.parse(run.stdout)).toMatchObject({
      ok: true,
      identityFeatures: { mapping: true, verification: true, metadata: true, lookup: true, removal: true },
    });
    expect(full.writeCount()).toBe(0);
    expect(full.users()).toEqual([]);
    // Every probe is an empty body, but the tenant's and the scrypt variant's name's: an import with a hash no core
    // takes (an empty body would be refused before the tenant is looked at).
    for (const request of writeRequests(full))
      expect(request).toMatch(
        / \{\}$|^POST \/recipe\/user\/passwordhash\/import .*"passwordHash":"core-migrate-probe"(,"hashingAlgorithm":"(vendor|firebase)_scrypt")?\}$/,
      );
  });

  it('check tells the calls a core lacks (404) from those it has, and writes nothing', async () => {
    lacking.reset();
    const run = await runCli(['check', '--core', lacking.url, '--json'], dir);
    expect(run.exitCode).toBe(ExitCode.ok);
    expect(JSON.parse(run.stdout)).toMatchObject({
      identityFeatures: { mapping: false, verification: true, metadata: false, lookup: true, removal: false },
    });
    expect(lacking.writeCount()).toBe(0);
  });

  it("the push's pre-flight and probes write nothing, on a core with every call and on one lacking some", async () => {
    full.reset();
    const onFull = await runCli(['push', ...firebase, '--core', full.url, '--dry-run', '--json', '--journal', 'full.journal'], dir);
    expect(onFull.exitCode).toBe(ExitCode.ok);
    expect(jsonOf(onFull)).toMatchObject({ dryRun: true });
    expect(full.writeCount()).toBe(0);
    expect(full.requestCount()).toBeGreaterThan(0);

    lacking.reset();
    // Without the calls the plan's steps need, the push stops before sending; with them turned off, it goes on.
    const refused = await runCli(['push', ...firebase, '--core', lacking.url, '--json', '--journal', 'refused.journal'], dir);
    expect(refused.exitCode).toBe(ExitCode.usageOrConfiguration);
    expect(refused.stderr).toMatch(/has no user id mapping .*user metadata .*nothing was sent/);
    const turnedOff = ['--no-keep-ids', '--no-metadata', '--dry-run', '--json', '--journal', 'lacking.journal'];
    const onLacking = await runCli(['push', ...firebase, '--core', lacking.url, ...turnedOff], dir);
    expect(onLacking.exitCode).toBe(ExitCode.ok);
    expect(lacking.writeCount()).toBe(0);
    expect(lacking.users()).toEqual([]);
  });

  it('the double counts a removal of an unknown id as the write it is (what the probes no longer send)', async () => {
    full.reset();
    const answer = await fetch(`${full.url}/user/remove`, {
      method: 'POST',
      headers: { 'api-key': API_KEY, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ userId: 'core-migrate-probe-nobody' }),
    });
    expect(answer.status).toBe(200);
    expect(full.writeCount()).toBe(1);
  });
});
