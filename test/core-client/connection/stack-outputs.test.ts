import { describe, expect, it } from 'vitest';
import { StackOutputsSchema, stackCoreUrls } from '../../../core-client/src/connection/stack-outputs.js';

const outputs = { coreUrl: 'http://127.0.0.1:3567', apiKey: 'stack-api-key-0123456789', signerKeyConfigured: false, database: 'postgresql' };

describe('StackOutputsSchema', () => {
  it('reads a stack put up before replicas existed, and gives its one core as coreUrls', () => {
    const parsed = StackOutputsSchema.parse({ ...outputs, coreContainerName: 'auth-core-core-4f2a9c1' });
    expect(parsed).toEqual(outputs);
    expect(stackCoreUrls(parsed)).toEqual(['http://127.0.0.1:3567']);
  });

  it('reads every core of a stack with replicas', () => {
    const coreUrls = ['http://127.0.0.1:3567', 'http://127.0.0.1:3568'];
    expect(stackCoreUrls(StackOutputsSchema.parse({ ...outputs, coreUrls }))).toEqual(coreUrls);
  });

  it.each([
    ['coreUrls that do not start with coreUrl', { coreUrls: ['http://127.0.0.1:3568', 'http://127.0.0.1:3567'] }, 'coreUrls'],
    ['an empty coreUrls', { coreUrls: [] }, 'coreUrls'],
    ['a coreUrl that is not http(s)', { coreUrl: 'ftp://core.example' }, 'coreUrl'],
    ['an unknown database', { database: 'mysql' }, 'database'],
  ])('refuses %s, naming the output', (_label, change, output) => {
    const result = StackOutputsSchema.safeParse({ ...outputs, ...change });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path[0])).toContain(output);
  });
});
