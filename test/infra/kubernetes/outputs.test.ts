import * as pulumi from '@pulumi/pulumi';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { StackOutputsSchema } from '../../../core-client/src/connection/stack-outputs.js';
import { valueOf } from '../support/pulumi-mocks.js';
import { PRODUCTION, REHEARSAL } from '../support/kubernetes.js';
import { API_KEY, SIGNER_KEY, exported, runProgram, stackOutputs } from '../support/run-program.js';

beforeEach(() => {
  vi.resetModules();
});

describe("the Kubernetes program's stack outputs, read with core-client's schema", () => {
  it.each<[string, Record<string, string>, string, string]>([
    ['production reached by port-forward', PRODUCTION, 'http://127.0.0.1:3567', 'postgresql'],
    [
      'four cores behind an ingress, with a signer key',
      { ...PRODUCTION, replicas: '4', signerKey: SIGNER_KEY, coreUrl: 'https://auth-core.example/' },
      'https://auth-core.example',
      'postgresql',
    ],
    ['a memory rehearsal forwarded to another local port', { ...REHEARSAL, database: 'memory', hostPort: '13567' }, 'http://127.0.0.1:13567', 'memory'],
  ])('parse for %s: one address, the Service, whatever the replicas', async (_label, config, coreUrl, database) => {
    const { program } = await runProgram(config);
    const outputs = StackOutputsSchema.parse(await stackOutputs(program));
    expect(outputs).toEqual({ coreUrl, coreUrls: [coreUrl], apiKey: API_KEY, signerKeyConfigured: config['signerKey'] !== undefined, database });
    expect(await pulumi.isSecret(program.apiKey)).toBe(true);
  });

  it('tells the operator the port-forward that makes the default coreUrl reach the Service, and no Docker names', async () => {
    const { program } = await runProgram({ ...PRODUCTION, kubernetesNamespace: 'auth', hostPort: '13567' });
    expect(await valueOf(exported(program.portForwardCommand, 'portForwardCommand'))).toBe(
      'kubectl port-forward --namespace auth service/auth-core-mock 13567:3567',
    );
    expect(await valueOf(exported(program.coreDeploymentName, 'coreDeploymentName'))).toBe('auth-core-mock');
    expect(program.coreContainerNames).toBeUndefined();
    expect(program.databaseVolume).toBeUndefined();
    expect(program.databaseClaim).toBeUndefined();
  });

  it('names the rehearsal database claim, to delete by hand once it is really to go', async () => {
    const { program } = await runProgram(REHEARSAL);
    expect(await valueOf(exported(program.databaseClaim, 'databaseClaim'))).toBe('auth-core-postgres-data-mock');
  });
});
