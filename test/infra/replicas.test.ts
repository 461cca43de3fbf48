import * as pulumi from '@pulumi/pulumi';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { byType, installMocks, onlyOne, valueOf } from './support/pulumi-mocks.js';
import { API_KEY, CONTAINER, CORE_IMAGE, REMOTE_IMAGE, VOLUME, exported, nameInUrn, runProgram } from './support/run-program.js';

beforeEach(() => {
  vi.resetModules();
});

describe('replicas', () => {
  it('runs that many cores from one image on the one database, each on its own host port', async () => {
    const { resources } = await runProgram({ apiKey: API_KEY, image: CORE_IMAGE, replicas: '3', hostPort: '4000' });
    const cores = ['auth-core-core', 'auth-core-core-2', 'auth-core-core-3'].map((name) => onlyOne(resources, name));
    expect(cores.map((core) => core.inputs['ports'])).toEqual(
      [4000, 4001, 4002].map((external) => [{ internal: 3567, external, ip: '127.0.0.1', protocol: 'tcp' }]),
    );
    const envs = cores.map((core) => core.inputs['envs']);
    expect(envs[1]).toEqual(envs[0]);
    expect(envs[2]).toEqual(envs[0]);
    expect(envs[0]).toContain('POSTGRESQL_HOST=postgres');
    expect(byType(resources, REMOTE_IMAGE).map((image) => image.name)).toEqual(['auth-core-image', 'auth-core-postgres-image']);
    expect(byType(resources, VOLUME)).toHaveLength(1);
    expect(byType(resources, CONTAINER)).toHaveLength(4);
  });

  it('starts the other cores after the first (which creates the tables), all after PostgreSQL', async () => {
    const { resources } = await runProgram({ apiKey: API_KEY, image: CORE_IMAGE, replicas: '3' });
    const waitsFor = (name: string): string[] => onlyOne(resources, name).options.dependencies.map((urn) => nameInUrn(urn));
    expect(waitsFor('auth-core-core')).toContain('auth-core-postgres');
    expect(waitsFor('auth-core-core')).not.toContain('auth-core-core-2');
    for (const name of ['auth-core-core-2', 'auth-core-core-3'])
      expect(waitsFor(name)).toEqual(expect.arrayContaining(['auth-core-postgres', 'auth-core-core']));
  });

  it('publishes every core as coreUrls, coreUrl staying the first', async () => {
    const { program } = await runProgram({ apiKey: API_KEY, image: CORE_IMAGE, replicas: '3' });
    expect(await valueOf(program.coreUrls)).toEqual(['http://127.0.0.1:3567', 'http://127.0.0.1:3568', 'http://127.0.0.1:3569']);
    expect(await valueOf(program.coreUrl)).toBe('http://127.0.0.1:3567');
    expect(await valueOf(exported(program.coreContainerNames, 'coreContainerNames'))).toEqual([
      'auth-core-core-mock',
      'auth-core-core-2-mock',
      'auth-core-core-3-mock',
    ]);
  });

  it('is refused with the memory database before any resource, in a sentence', async () => {
    const { resources } = await installMocks(
      { 'core-migrate:apiKey': API_KEY, 'core-migrate:image': CORE_IMAGE, 'core-migrate:database': 'memory', 'core-migrate:replicas': '2' },
      ['core-migrate:apiKey'],
    );
    const failure = import('../../infra/index.js');
    await expect(failure).rejects.toBeInstanceOf(pulumi.RunError);
    await expect(failure).rejects.toThrow(/core-migrate:replicas is 2 but database is memory: each core would keep its own users in memory/);
    expect(resources).toEqual([]);
  });

  it('is refused with the memory database by the component too, for a caller that skips the config', async () => {
    const { settled } = await installMocks({}, []);
    const { AuthCore } = await import('../../infra/auth-core.js');
    expect(
      () => new AuthCore('probe', { image: CORE_IMAGE, apiKey: API_KEY, hostPort: 3567, bindAddress: '127.0.0.1', database: 'memory', replicas: 2 }),
    ).toThrow(/replicas is 2 but database is memory/);
    await settled();
  });
});
