import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CoreClient } from '../../../core-client/src/http/core-client.js';
import { createdRoles, removeCreatedRoles, setUpRoles } from '../../../core-client/src/roles/role-setup.js';
import { assignRoles } from '../../../core-client/src/roles/user-roles.js';
import { describeRoles } from '../../../core-client/src/summary/push-summary.js';
import { Secret } from '../../../core-client/src/secret.js';
import { type CoreDouble, startCoreDouble } from '../../core-double/index.js';

const API_KEY = 'roles-steps-key-0123456789';

describe('the roles steps against the core double', () => {
  let core: CoreDouble;
  let client: CoreClient;
  let dir: string;
  beforeAll(async () => {
    core = await startCoreDouble({ apiKeys: [API_KEY] });
    client = new CoreClient({ baseUrl: core.url, apiKey: new Secret(API_KEY), retry: false });
  });
  afterAll(async () => {
    await client.close();
    await core.close();
  });
  beforeEach(async () => {
    core.reset();
    dir = await mkdtemp(join(tmpdir(), 'roles-steps-'));
    return () => rm(dir, { recursive: true, force: true });
  });

  it('a dry run only looks: nothing is created, nothing recorded', async () => {
    const recordPath = join(dir, 'journal.roles');
    const setup = await setUpRoles(client, { admin: ['all'] }, { update: false, dryRun: true, recordPath, fromFile: true });
    expect(setup).toEqual({ created: ['admin'], existing: [], updated: [], differing: [], refused: {} });
    expect(await client.listRoles()).toEqual([]);
    expect(await createdRoles(recordPath)).toEqual([]);
    expect(describeRoles({ roles: setup, dryRun: true })).toEqual(['Roles: 1 would be created, 0 already on the core']);
  });

  it('records each role it creates before creating it, and never an existing one; without a file nothing is compared', async () => {
    const recordPath = join(dir, 'journal.roles');
    await client.putRole({ role: 'ops', permissions: ['deploy'] });
    const setup = await setUpRoles(client, { admin: [], ops: [] }, { update: false, dryRun: false, recordPath, fromFile: false });
    expect(setup).toMatchObject({ created: ['admin'], existing: ['ops'], differing: [] });
    expect(await readFile(recordPath, 'utf8')).toBe('{"role":"admin"}\n');
    // A torn last line (killed mid-write) names no role.
    await writeFile(recordPath, '{"role":"admin"}\n{"role":"ed', { flag: 'w' });
    expect(await createdRoles(recordPath)).toEqual(['admin']);
  });

  it('gives roles by the id every call takes, and tells the ones the core lacks', async () => {
    await client.putRole({ role: 'admin', permissions: [] });
    const sent: string[] = [];
    const assignment = await assignRoles(client, 'old-1', ['admin', 'gone'], (call) => {
      sent.push('call');
      return call({});
    });
    expect(assignment).toEqual({ given: ['admin'], unknown: ['gone'] });
    expect(sent).toHaveLength(2);
    expect(await client.userRoles('old-1')).toEqual(['admin']);
  });

  it('removes the roles it created once no user has them, keeps one still held, and skips one already gone', async () => {
    const recordPath = join(dir, 'journal.roles');
    await writeFile(recordPath, ['admin', 'editor', 'gone'].map((role) => JSON.stringify({ role })).join('\n'));
    await client.putRole({ role: 'admin', permissions: [] });
    await client.putRole({ role: 'editor', permissions: [] });
    await client.addUserRole({ userId: 'someone', role: 'editor' });
    expect(await removeCreatedRoles(client, recordPath, { dryRun: true })).toEqual({ created: 3, removed: [], kept: [] });
    expect(await removeCreatedRoles(client, recordPath, { dryRun: false })).toEqual({ created: 3, removed: ['admin'], kept: [{ role: 'editor', users: 1 }] });
    expect(await client.listRoles()).toEqual(['editor']);
  });
});
