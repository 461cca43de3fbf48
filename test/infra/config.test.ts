import { describe, expect, it } from 'vitest';
import { StackConfigError, configWarnings, defaultCoreUrl, readStackConfig, type StackConfig, type StackConfigKey } from '../../infra/config.js';

const VALID_API_KEY = 'abcdefghij0123456789=-XYZ';
const SIGNER_KEY = 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==';

function read(values: Partial<Record<StackConfigKey, string>>): StackConfig | StackConfigError {
  return readStackConfig({ get: (key) => values[key] });
}

function problemsOf(values: Partial<Record<StackConfigKey, string>>): readonly string[] {
  const result = read(values);
  if (!(result instanceof StackConfigError)) throw new Error('expected the config to be refused');
  return result.problems;
}

const minimal = { apiKey: VALID_API_KEY, image: 'registry.example/auth-core:9.3' };

describe('readStackConfig', () => {
  it('fills the defaults: port 3567 on loopback, PostgreSQL, no signer key', () => {
    expect(read(minimal)).toEqual({
      apiKey: VALID_API_KEY,
      image: 'registry.example/auth-core:9.3',
      hostPort: 3567,
      bindAddress: '127.0.0.1',
      database: 'postgresql',
      postgresImage: 'postgres:16-alpine',
    });
  });

  it('accepts every key set explicitly, and treats empty values as unset', () => {
    expect(read({ ...minimal, signerKey: SIGNER_KEY, hostPort: '13567', bindAddress: '0.0.0.0', database: 'memory', coreUrl: '' })).toEqual({
      ...minimal,
      signerKey: SIGNER_KEY,
      hostPort: 13567,
      bindAddress: '0.0.0.0',
      database: 'memory',
      postgresImage: 'postgres:16-alpine',
    });
    expect(read({ ...minimal, signerKey: '  ' })).not.toHaveProperty('signerKey');
  });

  it('refuses a missing apiKey with the --secret command', () => {
    const [problem, ...rest] = problemsOf({ image: 'core:1' });
    expect(rest).toEqual([]);
    expect(problem).toMatch(/^core-migrate:apiKey is not set: run `pulumi config set --secret core-migrate:apiKey <key>`/);
  });

  it.each([
    ['too short', 'short-key-123'],
    ['a character the core refuses', 'abcdefghij0123456789_underscore'],
    ['a comma, which would make two keys', 'abcdefghij0123456789,abcdefghij0123456789'],
  ])('refuses an apiKey with %s, without repeating the value', (_label, apiKey) => {
    const problems = problemsOf({ ...minimal, apiKey });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('core-migrate:apiKey');
    expect(problems[0]).toContain('at least 20 characters of A-Z a-z 0-9 = -');
    expect(problems[0]).toContain('pulumi config set --secret core-migrate:apiKey');
    expect(problems.join('\n')).not.toContain(apiKey);
  });

  it('refuses a signerKey that is not base64, without repeating the value', () => {
    const problems = problemsOf({ ...minimal, signerKey: 'not base64 at all!' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^core-migrate:signerKey must be base64/);
    expect(problems[0]).toContain('pulumi config set --secret core-migrate:signerKey');
    expect(problems[0]).not.toContain('not base64 at all!');
  });

  it('refuses a missing image', () => {
    expect(problemsOf({ apiKey: VALID_API_KEY })).toEqual([
      expect.stringMatching(/^core-migrate:image is not set: run `pulumi config set core-migrate:image /),
    ]);
  });

  it.each(['0', '65536', 'http', '35.67'])('refuses hostPort %s', (hostPort) => {
    expect(problemsOf({ ...minimal, hostPort })).toEqual([
      'core-migrate:hostPort must be a port number from 1 to 65535: run `pulumi config set core-migrate:hostPort 3567`.',
    ]);
  });

  it('refuses a bindAddress that is not an IP address', () => {
    expect(problemsOf({ ...minimal, bindAddress: 'localhost' })).toEqual([
      expect.stringMatching(/^core-migrate:bindAddress must be an IP address .*pulumi config set core-migrate:bindAddress 127\.0\.0\.1/),
    ]);
  });

  it('refuses an unknown database', () => {
    expect(problemsOf({ ...minimal, database: 'mysql' })).toEqual([
      expect.stringMatching(/^core-migrate:database must be postgresql or memory: run `pulumi config set core-migrate:database postgresql`/),
    ]);
  });

  it('refuses a coreUrl that is not http(s)', () => {
    expect(problemsOf({ ...minimal, coreUrl: 'ftp://core.example' })).toEqual([expect.stringMatching(/^core-migrate:coreUrl must be an http\(s\) URL/)]);
  });

  it('reports every broken key at once, in a message that keeps secrets out', () => {
    const result = read({ apiKey: 'tiny', signerKey: '%%%', hostPort: 'x' });
    expect(result).toBeInstanceOf(StackConfigError);
    const error = result as StackConfigError;
    expect(error.problems).toHaveLength(4);
    for (const key of ['apiKey', 'signerKey', 'image', 'hostPort']) expect(error.message).toContain(`core-migrate:${key}`);
    expect(error.message).not.toContain('tiny');
    expect(error.message).not.toContain('%%%');
  });
});

describe('configWarnings', () => {
  const base = read(minimal) as StackConfig;

  it('has nothing to say about PostgreSQL on loopback', () => {
    expect(configWarnings(base)).toEqual([]);
  });

  it('says that the memory database loses users on restart', () => {
    expect(configWarnings({ ...base, database: 'memory' })).toEqual([expect.stringContaining('loses every imported user when the container restarts')]);
  });

  it('calls a non-loopback bind address a conscious choice', () => {
    expect(configWarnings({ ...base, bindAddress: '0.0.0.0' })).toEqual([expect.stringContaining('reachable beyond this host')]);
  });
});

describe('defaultCoreUrl', () => {
  it.each([
    [{ bindAddress: '127.0.0.1', hostPort: 3567 }, 'http://127.0.0.1:3567'],
    [{ bindAddress: '0.0.0.0', hostPort: 8080 }, 'http://127.0.0.1:8080'],
    [{ bindAddress: '::', hostPort: 3567 }, 'http://[::1]:3567'],
    [{ bindAddress: '::1', hostPort: 3567 }, 'http://[::1]:3567'],
    [{ bindAddress: '10.0.0.5', hostPort: 3567, coreUrl: 'https://core.example/' }, 'https://core.example'],
  ])('%o gives %s', (config, url) => {
    expect(defaultCoreUrl(config)).toBe(url);
  });
});
