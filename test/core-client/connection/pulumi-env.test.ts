import { describe, expect, it } from 'vitest';
import { ConnectionError } from '../../../core-client/src/connection/errors.js';
import { resolveConnection } from '../../../core-client/src/connection/resolve-connection.js';
import { fakePulumi, stackOutputJson } from './support/fake-pulumi.js';

const ENV_KEY = 'env-api-key-must-stay-home-0123456789';

describe('--stack runs pulumi with only the environment it needs', () => {
  it('passes PATH, HOME, PULUMI_*, locale and proxies; never CORE_API_KEY or anything else', async () => {
    const pulumi = await fakePulumi({
      stdout: stackOutputJson({
        apiKey: 'stack-key-0123456789',
        coreUrl: 'http://127.0.0.1:3567',
        coreUrls: ['http://127.0.0.1:3567'],
        database: 'memory',
        signerKeyConfigured: false,
      }),
    });
    const env = {
      PATH: pulumi.path,
      HOME: '/home/operator',
      LANG: 'C.UTF-8',
      LC_ALL: 'C.UTF-8',
      HTTPS_PROXY: 'http://proxy.internal:3128',
      PULUMI_CONFIG_PASSPHRASE: 'stack passphrase',
      PULUMI_BACKEND_URL: 'file:///srv/state',
      CORE_API_KEY: ENV_KEY,
      CORE_URL: 'http://127.0.0.1:3567',
      GITHUB_TOKEN: 'ghp_unrelated_secret',
      DATABASE_PASSWORD: 'unrelated',
    };
    const connection = await resolveConnection({ stack: 'dev' }, env);
    if (connection instanceof ConnectionError) throw connection;

    const seen = await pulumi.lastEnv();
    expect(seen).toMatchObject({
      PATH: pulumi.path,
      HOME: '/home/operator',
      LANG: 'C.UTF-8',
      LC_ALL: 'C.UTF-8',
      HTTPS_PROXY: 'http://proxy.internal:3128',
      PULUMI_CONFIG_PASSPHRASE: 'stack passphrase',
      PULUMI_BACKEND_URL: 'file:///srv/state',
      PULUMI_SKIP_UPDATE_CHECK: 'true',
    });
    for (const name of ['CORE_API_KEY', 'CORE_URL', 'GITHUB_TOKEN', 'DATABASE_PASSWORD']) expect(seen).not.toHaveProperty(name);
    expect(Object.values(seen)).not.toContain(ENV_KEY);
  });
});
