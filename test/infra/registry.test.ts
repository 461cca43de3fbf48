import { beforeEach, describe, expect, it, vi } from 'vitest';
import { byType, onlyOne } from './support/pulumi-mocks.js';
import { API_KEY, CONTAINER, CORE_IMAGE, DOCKER_PROVIDER, REMOTE_IMAGE, VOLUME, nameInUrn, runProgram } from './support/run-program.js';

const REGISTRY = { registryAddress: 'registry.example', registryUsername: 'deploy', registryPassword: 'registry-password-0123' };

beforeEach(() => {
  vi.resetModules();
});

describe('a private registry', () => {
  it('pulls both images through a provider that carries the credentials, the password a secret', async () => {
    const { resources } = await runProgram({ apiKey: API_KEY, image: CORE_IMAGE, ...REGISTRY });
    const provider = onlyOne(resources, 'auth-core-registry');
    expect(provider.type).toBe(DOCKER_PROVIDER);
    expect(provider.secretInputs).toContain('registryAuth');
    // Non-string provider settings travel JSON-encoded, as the SDK sends them to the engine.
    expect(JSON.parse(String(provider.inputs['registryAuth']))).toEqual([
      { address: 'registry.example', username: 'deploy', password: 'registry-password-0123' },
    ]);
    for (const image of byType(resources, REMOTE_IMAGE)) expect(nameInUrn(image.options.provider, true), image.name).toBe('auth-core-registry');
  });

  it('talks to the engine the stack names in docker:* config, like the default provider', async () => {
    const { resources } = await runProgram({
      apiKey: API_KEY,
      image: CORE_IMAGE,
      ...REGISTRY,
      'docker:host': 'ssh://deploy@build-host',
      'docker:sshOpts': '["-o","StrictHostKeyChecking=yes"]',
    });
    const provider = onlyOne(resources, 'auth-core-registry');
    expect(provider.inputs['host']).toBe('ssh://deploy@build-host');
    expect(JSON.parse(String(provider.inputs['sshOpts']))).toEqual(['-o', 'StrictHostKeyChecking=yes']);
  });

  it('is not declared without credentials', async () => {
    const { resources } = await runProgram({ apiKey: API_KEY, image: CORE_IMAGE });
    expect(byType(resources, DOCKER_PROVIDER)).toEqual([]);
    for (const image of byType(resources, REMOTE_IMAGE)) expect(image.options.provider, image.name).toBe('');
  });

  it('leaves the containers and the volume on the default provider', async () => {
    const { resources } = await runProgram({ apiKey: API_KEY, image: CORE_IMAGE, ...REGISTRY });
    for (const resource of [...byType(resources, CONTAINER), ...byType(resources, VOLUME)]) expect(resource.options.provider, resource.name).toBe('');
  });
});
