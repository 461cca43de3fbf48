import { beforeAll, describe, expect, it, vi } from 'vitest';
import { isLoopback } from '../../infra/config.js';
import { parseImageReference } from '../../infra/image-reference.js';
import { MOCK_PASSWORD, byType } from './support/pulumi-mocks.js';
import { API_KEY, CONTAINER, CORE_IMAGE, DIGEST, REMOTE_IMAGE, SIGNER_KEY, VOLUME, runProgram, type ProgramRun } from './support/run-program.js';

const REGISTRY_PASSWORD = 'registry-password-0123';

/**
 * Policies as tests, in the style of pulumi/examples' testing-unit-ts: each rule is checked against every resource
 * of every stack below, so a new resource or option that breaks a rule fails here whatever test it was written for.
 */
const STACKS: Record<string, Record<string, string>> = {
  'the defaults': { apiKey: API_KEY, image: CORE_IMAGE },
  'three pinned cores from a private registry, with a signer key': {
    apiKey: API_KEY,
    image: `${CORE_IMAGE}@${DIGEST}`,
    postgresImage: `postgres:16-alpine@${DIGEST}`,
    signerKey: SIGNER_KEY,
    replicas: '3',
    registryAddress: 'registry.example',
    registryUsername: 'deploy',
    registryPassword: REGISTRY_PASSWORD,
  },
  'a rehearsal published on every interface': { apiKey: API_KEY, image: CORE_IMAGE, database: 'memory', bindAddress: '0.0.0.0', hostPort: '13567' },
  'an IPv6 loopback with the database unprotected': { apiKey: API_KEY, image: CORE_IMAGE, bindAddress: '::1', protectDatabase: 'false' },
};
const SECRET_VALUES = [API_KEY, SIGNER_KEY, MOCK_PASSWORD, REGISTRY_PASSWORD];

describe.each(Object.entries(STACKS))('Infrastructure: %s', (_label, config) => {
  let run: ProgramRun;

  beforeAll(async () => {
    vi.resetModules();
    run = await runProgram(config);
  });

  describe('#ports', () => {
    it('are published on bindAddress only, which is loopback unless the stack says otherwise', () => {
      const bindAddress = config['bindAddress'] ?? '127.0.0.1';
      for (const container of byType(run.resources, CONTAINER)) {
        const ports = (container.inputs['ports'] ?? []) as { ip?: string }[];
        // A port without ip is published on every interface of the Docker host.
        for (const port of ports) expect(port.ip, container.name).toBe(bindAddress);
        if (config['bindAddress'] === undefined) for (const port of ports) expect(isLoopback(port.ip ?? ''), container.name).toBe(true);
      }
    });

    it('are never published for PostgreSQL', () => {
      for (const container of byType(run.resources, CONTAINER).filter((resource) => resource.name.endsWith('-postgres'))) {
        expect(container.inputs['ports'], container.name).toBeUndefined();
      }
    });
  });

  describe('#secrets', () => {
    it('every input that carries a secret is a secret, and envs stay secret as outputs', () => {
      for (const resource of run.resources) {
        for (const [input, value] of Object.entries(resource.inputs)) {
          const text = JSON.stringify(value);
          if (SECRET_VALUES.some((secret) => text.includes(secret))) {
            expect(resource.secretInputs, `${resource.name}.${input}`).toContain(input);
            if (resource.type === CONTAINER) expect(resource.additionalSecretOutputs, `${resource.name}.${input}`).toContain(input);
          }
        }
      }
    });

    it('no warning quotes a secret', () => {
      for (const warning of run.warnings) for (const secret of SECRET_VALUES) expect(warning).not.toContain(secret);
    });
  });

  describe('#database', () => {
    it('the volume is retained on deletion, and protected unless the stack lifts it', () => {
      const volumes = byType(run.resources, VOLUME);
      expect(volumes).toHaveLength(config['database'] === 'memory' ? 0 : 1);
      for (const volume of volumes) {
        expect(volume.options.retainOnDelete, volume.name).toBe(true);
        expect(volume.options.protect, volume.name).toBe(config['protectDatabase'] !== 'false');
      }
    });
  });

  describe('#images', () => {
    it('are pinned by digest or warned about, with the way to find the digest', () => {
      for (const image of byType(run.resources, REMOTE_IMAGE)) {
        const name = String(image.inputs['name']);
        const reference = parseImageReference(name);
        expect(typeof reference, name).toBe('object');
        if (typeof reference === 'object' && reference.digest !== undefined) continue;
        expect(run.warnings, name).toContainEqual(expect.stringContaining(`${name} is not pinned by digest`));
        expect(run.warnings, name).toContainEqual(expect.stringContaining(`docker buildx imagetools inspect ${name}`));
      }
    });
  });
});
