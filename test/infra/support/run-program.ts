import * as pulumi from '@pulumi/pulumi';
import { vi } from 'vitest';
import { installMocks, valueOf, type RegisteredResource } from './pulumi-mocks.js';

export const API_KEY = 'test-api-key-0123456789-abcdef';
export const SIGNER_KEY = 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==';
export const CORE_IMAGE = 'registry.example/auth-core:9.3';
export const DIGEST = `sha256:${'0123456789abcdef'.repeat(4)}`;

export const CONTAINER = 'docker:index/container:Container';
export const REMOTE_IMAGE = 'docker:index/remoteImage:RemoteImage';
export const NETWORK = 'docker:index/network:Network';
export const VOLUME = 'docker:index/volume:Volume';
export const RANDOM_PASSWORD = 'random:index/randomPassword:RandomPassword';
export const DOCKER_PROVIDER = 'pulumi:providers:docker';

export type ProgramModule = typeof import('../../../infra/index.js');

export interface ProgramRun {
  program: ProgramModule;
  resources: RegisteredResource[];
  /** What the program said with pulumi.log.warn. */
  warnings: string[];
}

/**
 * Runs infra/index.ts in a fresh module graph against mocks, with `pulumi config` values as the CLI would pass them
 * (keys without a namespace belong to core-migrate). The caller resets the module registry (vi.resetModules).
 */
export async function runProgram(
  values: Record<string, string>,
  secretKeys: string[] = ['apiKey', 'signerKey', 'registryPassword'],
  preview = false,
): Promise<ProgramRun> {
  const qualify = (key: string): string => (key.includes(':') ? key : `core-migrate:${key}`);
  const config = Object.fromEntries(Object.entries(values).map(([key, value]) => [qualify(key), value]));
  const { resources, settled } = await installMocks(config, secretKeys.map(qualify), preview);
  const warnings: string[] = [];
  const warn = vi.spyOn(pulumi.log, 'warn').mockImplementation(async (message) => {
    warnings.push(message);
  });
  try {
    const program = await import('../../../infra/index.js');
    await valueOf(program.coreUrl);
    await settled();
    return { program, resources, warnings };
  } finally {
    warn.mockRestore();
  }
}

/** The program's exports as `pulumi stack output --json --show-secrets` would print them. */
export async function stackOutputs(program: ProgramModule): Promise<Record<string, unknown>> {
  const entries = await Promise.all(
    Object.entries(program)
      .filter(([, value]) => value !== undefined)
      .map(async ([name, value]) => [name, pulumi.Output.isInstance(value) ? await valueOf(value as pulumi.Output<unknown>) : value] as const),
  );
  return Object.fromEntries(entries);
}

/** The name at the end of a URN, or of an `urn::id` provider reference. */
export function nameInUrn(reference: string, isProviderReference = false): string {
  const parts = reference.split('::');
  return parts.at(isProviderReference ? -2 : -1) ?? '';
}

/** An export the test expects this target to have. */
export function exported<T>(value: T | undefined, name: string): T {
  if (value === undefined) throw new Error(`expected the program to export ${name}`);
  return value;
}
