import * as pulumi from '@pulumi/pulumi';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SECRET_KEYS } from '../../infra/config.js';
import { byType, installMocks, valueOf } from './support/pulumi-mocks.js';
import { API_KEY, CONTAINER, CORE_IMAGE, SIGNER_KEY, runProgram } from './support/run-program.js';

beforeEach(() => {
  vi.resetModules();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('secret config', () => {
  it('is read with getSecret, never with get', async () => {
    const get = vi.spyOn(pulumi.Config.prototype, 'get');
    const getSecret = vi.spyOn(pulumi.Config.prototype, 'getSecret');
    await runProgram({ apiKey: API_KEY, image: CORE_IMAGE, signerKey: SIGNER_KEY });
    const readWithGet = get.mock.calls.map(([key]) => key);
    expect(readWithGet).toContain('image');
    for (const key of SECRET_KEYS) expect(readWithGet).not.toContain(key);
    expect(getSecret.mock.calls.map(([key]) => key)).toEqual(expect.arrayContaining([...SECRET_KEYS]));
  });

  it('stays secret when the stack holds it in plain text (set without --secret)', async () => {
    const { program, resources } = await runProgram({ apiKey: API_KEY, image: CORE_IMAGE, signerKey: SIGNER_KEY }, []);
    expect(await pulumi.isSecret(program.apiKey)).toBe(true);
    for (const container of byType(resources, CONTAINER)) expect(container.secretInputs, container.name).toContain('envs');
  });

  it('reaches the core trimmed, as validated', async () => {
    const { program, resources } = await runProgram({ apiKey: `  ${API_KEY}\n`, image: CORE_IMAGE });
    expect(await valueOf(program.apiKey)).toBe(API_KEY);
    expect(byType(resources, CONTAINER).find((container) => container.name === 'auth-core-core')?.inputs['envs']).toContain(`API_KEYS=${API_KEY}`);
  });

  it('is validated during a preview too, where the program declares the same resources', async () => {
    const update = await runProgram({ apiKey: API_KEY, image: CORE_IMAGE, replicas: '2' });
    vi.resetModules();
    const preview = await runProgram({ apiKey: API_KEY, image: CORE_IMAGE, replicas: '2' }, undefined, true);
    expect(preview.resources.map((resource) => resource.name).sort()).toEqual(update.resources.map((resource) => resource.name).sort());
  });

  it('stops the program before any resource when a secret is unusable, without quoting it', async () => {
    const { resources } = await installMocks(
      { 'core-migrate:apiKey': API_KEY, 'core-migrate:image': CORE_IMAGE, 'core-migrate:signerKey': 'not base64 at all!' },
      ['core-migrate:apiKey', 'core-migrate:signerKey'],
    );
    const failure = import('../../infra/index.js');
    await expect(failure).rejects.toThrow(/core-migrate:signerKey must be base64/);
    await expect(failure).rejects.not.toThrow(/not base64 at all!/);
    expect(resources).toEqual([]);
  });
});
