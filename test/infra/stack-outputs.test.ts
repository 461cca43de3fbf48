import * as pulumi from '@pulumi/pulumi';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { StackOutputsSchema } from '../../core-client/src/connection/stack-outputs.js';
import { API_KEY, CORE_IMAGE, SIGNER_KEY, runProgram, stackOutputs } from './support/run-program.js';

beforeEach(() => {
  vi.resetModules();
});

describe("the program's stack outputs, read with core-client's schema", () => {
  it.each<[string, Record<string, string>]>([
    ['one core on PostgreSQL', { apiKey: API_KEY, image: CORE_IMAGE }],
    ['three cores with a signer key', { apiKey: API_KEY, image: CORE_IMAGE, signerKey: SIGNER_KEY, replicas: '3' }],
    ['the memory database on a remote engine', { apiKey: API_KEY, image: CORE_IMAGE, database: 'memory', coreUrl: 'http://build-host:3567' }],
  ])('parse for %s, with every field of the schema present', async (_label, config) => {
    const { program } = await runProgram(config);
    const outputs = await stackOutputs(program);
    for (const field of Object.keys(StackOutputsSchema.shape)) expect(outputs, field).toHaveProperty(field);
    const parsed = StackOutputsSchema.parse(outputs);
    expect(parsed.apiKey).toBe(API_KEY);
    expect(parsed.coreUrls).toHaveLength(Number(config['replicas'] ?? '1'));
    expect(parsed.signerKeyConfigured).toBe(config['signerKey'] !== undefined);
    expect(parsed.database).toBe(config['database'] ?? 'postgresql');
  });

  it('keeps the api-key a secret output: `pulumi stack output` shows it only with --show-secrets', async () => {
    const { program } = await runProgram({ apiKey: API_KEY, image: CORE_IMAGE });
    expect(await pulumi.isSecret(program.apiKey)).toBe(true);
    const plain: pulumi.Output<unknown>[] = [program.coreUrl, program.coreUrls, program.signerKeyConfigured, program.database];
    for (const output of plain) expect(await pulumi.isSecret(output)).toBe(false);
  });
});
