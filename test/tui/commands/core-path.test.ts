import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../core-client/src/settings/verdict.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { API_KEY, jsonOf, runCli, writeExport } from './push-support.js';

/**
 * A core URL with a path (`http://host:3567/auth`): a real core 10 serves `/auth/hello` (it reads the segment as a
 * tenant) and refuses `/auth/apiversion` 403 "Only public tenantId can call this API", which once read as a recipe
 * disabled for the tenant.
 */
describe('a core URL with a path the core does not serve', () => {
  let core: CoreDouble;
  let dir: string;
  beforeAll(async () => {
    core = await startCoreDouble({ apiKeys: [API_KEY], pathPrefix: '/auth' });
    dir = await mkdtemp(join(tmpdir(), 'core-path-'));
    await writeExport(join(dir, 'users.ndjson'), 2);
  });
  afterAll(async () => {
    await core.close();
    await rm(dir, { recursive: true, force: true });
  });
  /** The double answers as a real core does at that path: /hello (the first request) served, /apiversion refused. */
  const asRealCore = (): void => {
    core.reset();
    core.faults.failRequestNumber(2, { status: 403, body: 'Only public tenantId can call this API' });
  };

  it('push stops before sending anything with its own problem code and a sentence naming the path', async () => {
    asRealCore();
    const run = await runCli(['push', 'users.ndjson', '--core', `${core.url}/auth`, '--json'], dir);
    expect(run.exitCode).toBe(ExitCode.coreUnreachableOrKeyRefused);
    const { error } = jsonOf(run) as { error: { code: string; message: string } };
    expect(error.code).toBe('corePathNotServed');
    expect(error.message).toContain(`has a path (/auth) the core does not serve`);
    expect(error.message).toContain(`give its address without the path (${core.url})`);
    expect(error.message).not.toContain('recipe is disabled');
    expect(core.users()).toEqual([]);
  });

  it('check says the same on its failed step', async () => {
    asRealCore();
    const run = await runCli(['check', '--core', `${core.url}/auth`, '--json'], dir);
    expect(run.exitCode).toBe(ExitCode.coreUnreachableOrKeyRefused);
    expect(jsonOf(run)).toMatchObject({ failure: { step: 'keyAccepted', pathNotServed: '/auth' } });
    expect(run.stderr).toContain('has a path (/auth) the core does not serve');
  });
});
