import { afterEach, describe, expect, it } from 'vitest';
import { startCoreDouble, type CoreDouble } from './server.js';

async function hello(core: CoreDouble, times: number): Promise<void> {
  for (let index = 0; index < times; index += 1) await (await fetch(`${core.url}/hello`)).text();
}

describe('the core double keeps a bounded number of requests', () => {
  let core: CoreDouble;
  afterEach(async () => {
    await core.close();
  });

  it('keeps only the latest keepRequests, oldest first, and counts them all', async () => {
    core = await startCoreDouble({ keepRequests: 3 });
    await hello(core, 7);
    expect(core.requests().map((request) => request.number)).toEqual([5, 6, 7]);
    expect(core.requestCount()).toBe(7);
    core.reset();
    await hello(core, 2);
    expect(core.requests().map((request) => request.number)).toEqual([1, 2]);
  });

  it('keeps none as a sandbox (counters only), so memory does not grow with requests', async () => {
    core = await startCoreDouble({ keepRequests: 0 });
    await hello(core, 5);
    expect(core.requests()).toEqual([]);
    expect(core.requestCount()).toBe(5);
  });

  it('keeps 100,000 by default: a test reads back what it sent', async () => {
    core = await startCoreDouble();
    await hello(core, 3);
    expect(core.requests()).toHaveLength(3);
  });
});
