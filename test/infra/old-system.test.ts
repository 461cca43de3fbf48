import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { StackConfigError, readStackConfig, type StackConfigKey } from '../../infra/config.js';
import { onlyOne } from './support/pulumi-mocks.js';
import { API_KEY, CORE_IMAGE, runProgram } from './support/run-program.js';

const SERVICE_KEY = 'login-service-key-0123456789abcdef';
const CLIENT_SECRET = 'cognito-client-secret-0123456789';
const COGNITO = JSON.stringify({ kind: 'cognito', region: 'eu-west-1', clientId: '1example23456789' });
const SECRETS = ['apiKey', 'signerKey', 'registryPassword', 'loginServiceKey', 'loginServiceStoreUrl', 'loginServiceVerifyWithSecret'];
const Uploads = z.tuple([z.object({ file: z.string(), content: z.string() })]);
const withService = {
  apiKey: API_KEY,
  image: CORE_IMAGE,
  loginService: 'true',
  loginServiceImage: 'registry.example/core-migrate:0.1',
  loginServiceKey: SERVICE_KEY,
};

function problemsOf(values: Partial<Record<StackConfigKey, string>>): readonly string[] {
  const result = readStackConfig({ get: (key) => values[key] });
  if (!(result instanceof StackConfigError)) throw new Error('expected the config to be refused');
  return result.problems;
}

beforeEach(() => {
  vi.resetModules();
});

describe('the old system the login-time service asks (Docker)', () => {
  it('gets its settings as a file in the container, named by --verify-with, the secret field naming the variable that holds it', async () => {
    const { resources } = await runProgram({ ...withService, loginServiceVerifyWith: COGNITO, loginServiceVerifyWithSecret: CLIENT_SECRET }, SECRETS);
    const service = onlyOne(resources, 'login-migration-service');
    expect(service.inputs['command']).toEqual([
      ...['login-migration', 'serve', '--host', '0.0.0.0', '--port', '3568', '--core', 'http://auth-core-core-mock:3567'],
      ...['--verify-with', '/etc/core-migrate/verify-with.json'],
    ]);
    const [upload] = Uploads.parse(service.inputs['uploads']);
    expect(upload.file).toBe('/etc/core-migrate/verify-with.json');
    expect(JSON.parse(upload.content)).toEqual({
      kind: 'cognito',
      region: 'eu-west-1',
      clientId: '1example23456789',
      clientSecret: { env: 'LOGIN_MIGRATION_OLD_SYSTEM_SECRET' },
    });
    // The secret itself travels only in the secret environment, as the service's own key does.
    expect(service.inputs['envs']).toContain(`LOGIN_MIGRATION_OLD_SYSTEM_SECRET=${CLIENT_SECRET}`);
    expect(service.secretInputs).toContain('envs');
    expect(resources.flatMap((resource) => resource.plainText).filter((text) => text.includes(CLIENT_SECRET))).toEqual([]);
  });

  it('writes an old system without a secret as given, with no secret variable', async () => {
    const { resources } = await runProgram({ ...withService, loginServiceVerifyWith: COGNITO }, SECRETS);
    const service = onlyOne(resources, 'login-migration-service');
    const [upload] = Uploads.parse(service.inputs['uploads']);
    expect(JSON.parse(upload.content)).toEqual(JSON.parse(COGNITO));
    expect(JSON.stringify(service.inputs['envs'])).not.toContain('LOGIN_MIGRATION_OLD_SYSTEM_SECRET');
  });

  it('refuses settings the service could not use, each with the command that fixes it, never quoting the secret', () => {
    expect(problemsOf({ ...withService, loginServiceVerifyWith: '{kind: cognito' })).toEqual([
      expect.stringMatching(/^core-migrate:loginServiceVerifyWith is not JSON: run `pulumi config set core-migrate:loginServiceVerifyWith '\{"kind"/),
    ]);
    expect(problemsOf({ ...withService, loginServiceVerifyWith: '{"kind": "ldap"}' })).toEqual([
      expect.stringMatching(/^core-migrate:loginServiceVerifyWith needs "kind": one of firebase, cognito, openid, http/),
    ]);
    expect(problemsOf({ ...withService, loginServiceVerifyWith: '{"kind": "firebase"}' })).toEqual([
      expect.stringMatching(
        /is firebase but loginServiceVerifyWithSecret is not set: run `pulumi config set --secret core-migrate:loginServiceVerifyWithSecret/,
      ),
    ]);
    const inline = problemsOf({
      ...withService,
      loginServiceVerifyWith: JSON.stringify({ kind: 'openid', tokenEndpoint: 'https://sso.example/token', clientId: 'm', clientSecret: CLIENT_SECRET }),
    });
    expect(inline).toEqual([
      expect.stringMatching(/loginServiceVerifyWith has "clientSecret": leave it out, .*pulumi config set --secret core-migrate:loginServiceVerifyWithSecret/),
    ]);
    expect(inline.join()).not.toContain(CLIENT_SECRET);
    expect(problemsOf({ ...withService, loginServiceVerifyWithSecret: CLIENT_SECRET })).toEqual([
      expect.stringMatching(/loginServiceVerifyWithSecret is set but loginServiceVerifyWith is not/),
    ]);
    expect(problemsOf({ apiKey: API_KEY, image: CORE_IMAGE, loginServiceVerifyWith: COGNITO })).toEqual([
      expect.stringMatching(/loginServiceVerifyWith is set but loginService is not true: .*pulumi config set core-migrate:loginService true/),
    ]);
  });
});
