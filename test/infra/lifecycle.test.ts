import { beforeEach, describe, expect, it, vi } from 'vitest';
import { byType, onlyOne } from './support/pulumi-mocks.js';
import { API_KEY, CONTAINER, CORE_IMAGE, NETWORK, REMOTE_IMAGE, VOLUME, runProgram } from './support/run-program.js';

beforeEach(() => {
  vi.resetModules();
});

describe('replacing a container', () => {
  it('asks the engine to delete every container before creating its replacement', async () => {
    const { resources } = await runProgram({ apiKey: API_KEY, image: CORE_IMAGE, replicas: '2' });
    const containers = byType(resources, CONTAINER);
    expect(containers.map((container) => container.name).sort()).toEqual(['auth-core-core', 'auth-core-core-2', 'auth-core-postgres']);
    for (const container of containers) expect(container.options.deleteBeforeReplace, container.name).toBe(true);
  });

  it('keeps the default create-first replacement where nothing is held: network and images', async () => {
    const { resources } = await runProgram({ apiKey: API_KEY, image: CORE_IMAGE });
    for (const resource of [...byType(resources, NETWORK), ...byType(resources, REMOTE_IMAGE)]) {
      expect(resource.options.deleteBeforeReplace, resource.name).toBe(false);
    }
  });
});

describe('the PostgreSQL volume', () => {
  it('is retained on deletion and protected by default', async () => {
    const { program, resources } = await runProgram({ apiKey: API_KEY, image: CORE_IMAGE });
    const volume = onlyOne(resources, 'auth-core-postgres-data');
    expect(volume.options).toMatchObject({ retainOnDelete: true, protect: true });
    expect(program.databaseVolume).toBeDefined();
  });

  it('stays retained when the stack lifts the protection on the way to deleting it', async () => {
    const { resources } = await runProgram({ apiKey: API_KEY, image: CORE_IMAGE, protectDatabase: 'false' });
    expect(onlyOne(resources, 'auth-core-postgres-data').options).toMatchObject({ retainOnDelete: true, protect: false });
  });

  it('is the only retained or protected resource: the rest goes with pulumi destroy', async () => {
    const { resources } = await runProgram({ apiKey: API_KEY, image: CORE_IMAGE });
    const kept = resources.filter((resource) => resource.options.retainOnDelete === true || resource.options.protect === true);
    expect(kept.map((resource) => resource.type)).toEqual([VOLUME]);
  });
});
