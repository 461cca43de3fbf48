import { afterEach, describe, expect, it } from 'vitest';
import { CoreClient } from '../../../core-client/src/http/core-client.js';
import { Secret } from '../../../core-client/src/secret.js';
import { endAfterEarlierAttempt, mayHaveReachedCore } from '../../../core-client/src/push/lost-answer.js';
import { startCoreDouble, type CoreDouble } from '../../core-double/index.js';
import { bcryptOperation } from './plan-fixtures.js';

const KEY = 'lost-answer-key-0123456789-abcdef';

async function failureOf(core: CoreDouble | string): Promise<unknown> {
  const client = new CoreClient({ baseUrl: typeof core === 'string' ? core : core.url, apiKey: new Secret(KEY), requestTimeoutMs: 300, retry: false });
  try {
    await client.importPasswordHash(bcryptOperation(1).body);
    return undefined;
  } catch (error) {
    return error;
  } finally {
    await client.close();
  }
}

describe('mayHaveReachedCore (real failures over HTTP)', () => {
  let core: CoreDouble | undefined;
  afterEach(async () => {
    await core?.close();
    core = undefined;
  });

  it('an answer lost after the core did the work (a stalled body, a 500) may have reached it', async () => {
    core = await startCoreDouble({ apiKeys: [KEY] });
    core.faults.slowBodyNext(1, 2_000);
    const stalled = await failureOf(core);
    expect(mayHaveReachedCore(stalled)).toBe(true);
    expect(core.users()).toHaveLength(1);
    core.faults.failNext(1, { status: 500 });
    expect(mayHaveReachedCore(await failureOf(core))).toBe(true);
  });

  it('a 429, a 503 or a refused connection never reached it', async () => {
    core = await startCoreDouble({ apiKeys: [KEY] });
    core.faults.failNext(1, { status: 429, retryAfterSeconds: 1 });
    expect(mayHaveReachedCore(await failureOf(core))).toBe(false);
    core.faults.failNext(1, { status: 503 });
    expect(mayHaveReachedCore(await failureOf(core))).toBe(false);
    const url = core.url;
    await core.close();
    core = undefined;
    const refused = await failureOf(url);
    expect(refused).toBeDefined();
    expect(mayHaveReachedCore(refused)).toBe(false);
  });

  it('turns "already existed" after such a loss into "imported", with the reason for the report', () => {
    expect(endAfterEarlierAttempt({ kind: 'done', outcome: 'alreadyExisted', journal: 'alreadyExisted', note: 'replaced' })).toMatchObject({
      kind: 'done',
      outcome: 'imported',
      journal: 'imported',
      note: expect.stringMatching(/most likely created it/),
    });
    expect(endAfterEarlierAttempt({ kind: 'done', outcome: 'imported', journal: 'imported' })).toEqual({
      kind: 'done',
      outcome: 'imported',
      journal: 'imported',
    });
  });
});
