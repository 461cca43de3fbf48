import { describe, expect, it } from 'vitest';
import { StackConfigError, configWarnings, readStackConfig, type StackConfig, type StackConfigKey } from '../../infra/config.js';
import { coreUrlsFor } from '../../infra/core-urls.js';

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

const DIGEST = `sha256:${'0123456789abcdef'.repeat(4)}`;
const minimal = { apiKey: VALID_API_KEY, image: 'registry.example/auth-core:9.3' };
const pinned = { ...minimal, image: `registry.example/auth-core:9.3@${DIGEST}`, postgresImage: `postgres:16-alpine@${DIGEST}` };
const registry = { registryAddress: 'registry.example:5000', registryUsername: 'deploy', registryPassword: 'registry-password-1' };

describe('readStackConfig', () => {
  it('fills the defaults: the Docker target, one core on port 3567 on loopback, protected PostgreSQL, no signer key, no registry', () => {
    expect(read(minimal)).toEqual({
      target: 'docker',
      apiKey: VALID_API_KEY,
      image: 'registry.example/auth-core:9.3',
      hostPort: 3567,
      bindAddress: '127.0.0.1',
      database: 'postgresql',
      postgresImage: 'postgres:16-alpine',
      replicas: 1,
      protectDatabase: true,
      loginService: false,
      loginServicePort: 3568,
    });
  });

  it('accepts every key set explicitly, and treats empty values as unset', () => {
    expect(read({ ...minimal, signerKey: SIGNER_KEY, hostPort: '13567', bindAddress: '0.0.0.0', database: 'memory', coreUrl: '' })).toEqual({
      ...minimal,
      target: 'docker',
      signerKey: SIGNER_KEY,
      hostPort: 13567,
      bindAddress: '0.0.0.0',
      database: 'memory',
      postgresImage: 'postgres:16-alpine',
      replicas: 1,
      protectDatabase: true,
      loginService: false,
      loginServicePort: 3568,
    });
    expect(read({ ...minimal, signerKey: '  ' })).not.toHaveProperty('signerKey');
    expect(read({ ...pinned, ...registry, replicas: '3', protectDatabase: 'false' })).toMatchObject({ ...registry, replicas: 3, protectDatabase: false });
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

describe('image references', () => {
  it.each([
    'auth-core',
    'registry.example/auth-core:9.3',
    'registry.example:5000/team/auth-core:9.3-rc_1',
    `registry.example/auth-core@${DIGEST}`,
    `registry.example:5000/auth-core:9.3@${DIGEST}`,
  ])('accepts %s', (image) => {
    expect(read({ ...minimal, image, postgresImage: image })).toMatchObject({ image, postgresImage: image });
  });

  it.each(['Registry.example/Auth-Core', 'auth-core:', 'auth core:9.3', 'auth-core:9.3@@sha256'])('refuses %s, saying how to write one', (image) => {
    expect(problemsOf({ ...minimal, image })).toEqual([
      expect.stringMatching(/^core-migrate:image is not an image reference: run `pulumi config set core-migrate:image /),
    ]);
  });

  it.each([`auth-core@sha256:${'0'.repeat(63)}`, `auth-core:9.3@sha512:${'0'.repeat(128)}`, `auth-core@SHA256:${'A'.repeat(64)}`])(
    'refuses the digest of %s, saying where to copy it from',
    (postgresImage) => {
      expect(problemsOf({ ...minimal, postgresImage })).toEqual([
        expect.stringMatching(/^core-migrate:postgresImage has a digest that is not sha256: .*docker buildx imagetools inspect/),
      ]);
    },
  );
});

describe('replicas', () => {
  it.each(['0', '9', 'two', '1.5'])('refuses replicas %s with the bound and why', (replicas) => {
    expect(problemsOf({ ...minimal, replicas })).toEqual([
      expect.stringMatching(/^core-migrate:replicas must be a whole number from 1 to 8 \(each core holds/),
    ]);
  });

  it('refuses several cores on the memory database, in a sentence saying why and what to run', () => {
    expect(problemsOf({ ...minimal, database: 'memory', replicas: '2' })).toEqual([
      'core-migrate:replicas is 2 but database is memory: each core would keep its own users in memory, so a push spread over them would scatter the users. ' +
        'Run `pulumi config set core-migrate:database postgresql` to share one database, or `pulumi config set core-migrate:replicas 1`.',
    ]);
    expect(read({ ...minimal, database: 'memory', replicas: '1' })).not.toBeInstanceOf(StackConfigError);
  });

  it('refuses host ports that would run past 65535', () => {
    expect(problemsOf({ ...minimal, hostPort: '65534', replicas: '3' })).toEqual([
      expect.stringContaining('would publish ports up to 65536: run `pulumi config set core-migrate:hostPort 65533`'),
    ]);
  });

  it('needs a coreUrl with its port when there are several cores', () => {
    expect(problemsOf({ ...minimal, replicas: '2', coreUrl: 'https://core.example' })).toEqual([
      expect.stringMatching(/^core-migrate:coreUrl must name its port when replicas is more than 1/),
    ]);
    expect(read({ ...minimal, replicas: '2', coreUrl: 'http://build-host:3567' })).not.toBeInstanceOf(StackConfigError);
    expect(problemsOf({ ...minimal, replicas: '2', coreUrl: 'http://build-host:65535' })).toEqual([
      "core-migrate:coreUrl's port 65535 leaves no room for 2 cores on the ports after it: give coreUrl a port of at most 65534.",
    ]);
  });
});

describe('protectDatabase and the private registry', () => {
  it('refuses a protectDatabase that is not true or false', () => {
    expect(problemsOf({ ...minimal, protectDatabase: 'no' })).toEqual([expect.stringMatching(/^core-migrate:protectDatabase must be true or false/)]);
  });

  it.each([
    [{ registryUsername: 'deploy', registryPassword: 'registry-password-1' }, 'core-migrate:registryAddress is not set'],
    [{ registryAddress: 'registry.example' }, 'core-migrate:registryUsername and registryPassword are not set'],
  ])('refuses half a set of registry credentials (%o), without quoting the password', (partial, start) => {
    const problems = problemsOf({ ...minimal, ...partial });
    expect(problems).toEqual([expect.stringContaining(start)]);
    expect(problems[0]).toContain('pulumi config set --secret core-migrate:registryPassword <password>');
    expect(problems.join('\n')).not.toContain('registry-password-1');
  });

  it('refuses a registryAddress that is a URL rather than a host', () => {
    expect(problemsOf({ ...minimal, ...registry, registryAddress: 'https://registry.example/v2/' })).toEqual([
      expect.stringMatching(/^core-migrate:registryAddress must be a registry host/),
    ]);
  });
});

describe('configWarnings', () => {
  const base = read(pinned) as StackConfig;

  it('has nothing to say about pinned images and PostgreSQL on loopback', () => {
    expect(configWarnings(base)).toEqual([]);
  });

  it('says that the memory database loses users on restart', () => {
    expect(configWarnings({ ...base, database: 'memory' })).toEqual([expect.stringContaining('loses every imported user when the container restarts')]);
  });

  it('calls a non-loopback bind address a conscious choice', () => {
    expect(configWarnings({ ...base, bindAddress: '0.0.0.0' })).toEqual([expect.stringContaining('reachable beyond this host')]);
  });

  it('warns about each unpinned image, with the command that finds its digest and the one that pins it', () => {
    const warnings = configWarnings(read(minimal) as StackConfig);
    expect(warnings).toEqual([
      'core-migrate:image registry.example/auth-core:9.3 is not pinned by digest: its registry can point the tag at another image, which the next replaced container would run with no change to this stack. ' +
        'Find the digest with `docker buildx imagetools inspect registry.example/auth-core:9.3` (the Digest: line) and pin it: `pulumi config set core-migrate:image registry.example/auth-core:9.3@sha256:<digest>`.',
      expect.stringMatching(/^core-migrate:postgresImage postgres:16-alpine is not pinned by digest: .*`docker buildx imagetools inspect postgres:16-alpine`/),
    ]);
  });

  it('says nothing about the PostgreSQL image when the database is memory', () => {
    expect(configWarnings({ ...(read(minimal) as StackConfig), image: pinned.image, database: 'memory' })).toEqual([
      expect.stringContaining('loses every imported user'),
    ]);
  });
});

describe('coreUrlsFor', () => {
  it.each([
    [{ bindAddress: '127.0.0.1', hostPort: 3567 }, 'http://127.0.0.1:3567'],
    [{ bindAddress: '0.0.0.0', hostPort: 8080 }, 'http://127.0.0.1:8080'],
    [{ bindAddress: '::', hostPort: 3567 }, 'http://[::1]:3567'],
    [{ bindAddress: '::1', hostPort: 3567 }, 'http://[::1]:3567'],
    [{ bindAddress: '10.0.0.5', hostPort: 3567, coreUrl: 'https://core.example/' }, 'https://core.example'],
  ])('%o gives %s for one core', (config, url) => {
    expect(coreUrlsFor({ ...config, replicas: 1 })).toEqual([url]);
  });

  it('gives each core its own port after hostPort, the first core first', () => {
    expect(coreUrlsFor({ bindAddress: '127.0.0.1', hostPort: 3567, replicas: 3 })).toEqual([
      'http://127.0.0.1:3567',
      'http://127.0.0.1:3568',
      'http://127.0.0.1:3569',
    ]);
  });

  it('counts from the port of a configured coreUrl, keeping its host and path', () => {
    expect(coreUrlsFor({ bindAddress: '0.0.0.0', hostPort: 3567, replicas: 2, coreUrl: 'http://build-host:13567/core/' })).toEqual([
      'http://build-host:13567/core',
      'http://build-host:13568/core',
    ]);
  });
});
