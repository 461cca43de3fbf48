import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { contentionRate, defaultContention, earlierContention, lockLossRate, LOCKED_TABLE_TEXT, readDelayMs, writeTurnMs } from './contention.js';
import { waitFor } from '../core-client/push/engine-support.js';
import { type CoreDouble, startCoreDouble } from './index.js';

const API_KEY = 'double-test-key-0123456789';
const HASH = `$2a$04$${'x'.repeat(53)}`;

async function importUser(double: CoreDouble, email: string): Promise<{ status: number; text: string }> {
  const response = await request(`${double.url}/recipe/user/passwordhash/import`, {
    method: 'POST',
    headers: { 'api-key': API_KEY, 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ email, passwordHash: HASH }),
  });
  return { status: response.statusCode, text: await response.body.text() };
}

describe('the contention model', () => {
  it('as measured on a real in-memory core: no write lost alone, more lost the more in flight, up to 16 and no further', () => {
    expect(contentionRate(defaultContention, 1)).toBe(0);
    expect(contentionRate(defaultContention, 2)).toBeCloseTo(defaultContention.atTwo, 5);
    expect(contentionRate(defaultContention, 4)).toBeCloseTo(defaultContention.atFour, 5);
    expect(contentionRate(defaultContention, 8)).toBeGreaterThan(defaultContention.atFour);
    expect(contentionRate(defaultContention, 16)).toBeCloseTo(defaultContention.atSixteen ?? Number.NaN, 5);
    expect(contentionRate(defaultContention, 64)).toBeCloseTo(defaultContention.atSixteen ?? Number.NaN, 5);
  });

  it('the earlier model (issue 20): about 16% at 2 in flight, 33% at 4, and no more beyond', () => {
    expect(contentionRate(earlierContention, 2)).toBeCloseTo(0.16, 5);
    expect(contentionRate(earlierContention, 4)).toBeCloseTo(0.33, 5);
    expect(contentionRate(earlierContention, 16)).toBeCloseTo(0.33, 5);
  });

  it('a write holds the store longer the more users it holds, and loses more often for it', () => {
    expect(writeTurnMs({ writeMs: 3 }, 20_000)).toBe(3);
    expect(writeTurnMs({ writeMs: 3, slowerEveryUsers: 10_000 }, 0)).toBe(3);
    expect(writeTurnMs({ writeMs: 3, slowerEveryUsers: 10_000 }, 20_000)).toBe(9);
    const filling = { atTwo: 0.1, atFour: 0.2, writeMs: 3, slowerEveryUsers: 10_000 };
    expect(lockLossRate(filling, 2, 0)).toBeCloseTo(0.1, 5);
    // Three times as slow: lost as if it tried three times.
    expect(lockLossRate(filling, 2, 20_000)).toBeCloseTo(1 - 0.9 ** 3, 5);
    expect(lockLossRate(filling, 1, 20_000)).toBe(0);
    expect(lockLossRate(earlierContention, 4, 20_000)).toBeCloseTo(0.33, 5);
  });

  it('a read takes longer the more users the store holds (the lookup by email on a real in-memory core)', () => {
    expect(readDelayMs({}, 20_000)).toBe(0);
    expect(readDelayMs({ readMsPerThousandUsers: 7 }, 0)).toBe(0);
    expect(readDelayMs({ readMsPerThousandUsers: 7 }, 20_000)).toBe(140);
  });
});

describe('core double: contention, capacity and storms', () => {
  let double: CoreDouble;
  afterEach(async () => {
    await double.close();
  });

  it('with contention, a write loses the lock when the model says so for the requests in flight, and stores nothing', async () => {
    // Losers are drawn against 0.2: above the rate at 2 in flight (16%), below the rate at 4 (33%).
    double = await startCoreDouble({ apiKeys: [API_KEY], random: () => 0.2 });
    double.faults.setContention(earlierContention);
    double.faults.setLatencyMs(30);
    const alone = await importUser(double, 'alone@example.com');
    expect(alone.status).toBe(200);
    const pair = await Promise.all([importUser(double, 'p1@example.com'), importUser(double, 'p2@example.com')]);
    expect(pair.map((answer) => answer.status)).toEqual([200, 200]);
    const four = await Promise.all(['f1', 'f2', 'f3', 'f4'].map((name) => importUser(double, `${name}@example.com`)));
    const lost = four.filter((answer) => answer.status === 500);
    // The first two in flight cannot lose (rates 0 and 16%), the third and fourth do (25% and 33%).
    expect(lost).toHaveLength(2);
    expect(lost[0]?.text).toBe(`${LOCKED_TABLE_TEXT}\n`);
    expect(double.users()).toHaveLength(5);
  });

  it('with the earlier model, a locked write is answered at once, while the writes that got the lock still wait out the latency', async () => {
    double = await startCoreDouble({ apiKeys: [API_KEY], random: () => 0.2 });
    double.faults.setContention(earlierContention);
    double.faults.setLatencyMs(1_000);
    const answered: { status: number; inFlight: number }[] = [];
    const four = ['f1', 'f2', 'f3', 'f4'].map((name) =>
      importUser(double, `${name}@example.com`).then((answer) => answered.push({ status: answer.status, inFlight: double.inFlight() })),
    );
    await Promise.all(four);
    // The third and fourth lose the lock (25% and 33% against 0.2) and come back first, while the two others are still
    // at the core.
    expect(answered.map((answer) => answer.status)).toEqual([500, 500, 200, 200]);
    for (const answer of answered.slice(0, 2)) expect(answer.inFlight).toBeGreaterThanOrEqual(2);
  });

  it('as measured, a lost write takes its turn in the store and the latency, and fails as late as a written one', async () => {
    // Losers are drawn against 0.2: below every rate from 2 in flight on.
    double = await startCoreDouble({ apiKeys: [API_KEY], random: () => 0.2 });
    double.faults.setContention({ atTwo: 0.5, atFour: 0.6, writeMs: 200, lostWriteTakesTurn: true });
    double.faults.setLatencyMs(100);
    const answered: { status: number; users: number }[] = [];
    await Promise.all(
      ['f1', 'f2'].map((name) =>
        importUser(double, `${name}@example.com`).then((answer) => answered.push({ status: answer.status, users: double.users().length })),
      ),
    );
    // The first write is stored after its turn; the second loses the lock, waits for the first's turn and its own, and
    // comes back after the first, having stored nothing.
    expect(answered).toEqual([
      { status: 200, users: 1 },
      { status: 500, users: 1 },
    ]);
  });

  it('with contention, the store does one write at a time: the next write is acted on only once the one before has had its turn', async () => {
    double = await startCoreDouble({ apiKeys: [API_KEY], random: () => 0.99 });
    double.faults.setContention({ ...defaultContention, writeMs: 300 });
    const three = Promise.all(['s1', 's2', 's3'].map((name) => importUser(double, `${name}@example.com`)));
    await waitFor(() => double.users().length === 1, 'the first write');
    expect(double.inFlight()).toBe(2);
    await waitFor(() => double.users().length === 2, 'the second write');
    expect(double.inFlight()).toBe(1);
    expect((await three).map((answer) => answer.status)).toEqual([200, 200, 200]);
  });

  it('with contention, reads, /hello and the empty-body tenant probe never lose a lock', async () => {
    double = await startCoreDouble({ apiKeys: [API_KEY], random: () => 0 });
    double.faults.setContention(defaultContention);
    double.faults.setLatencyMs(20);
    const headers = { 'api-key': API_KEY, 'content-type': 'application/json; charset=utf-8' };
    const answers = await Promise.all([
      importUser(double, 'first@example.com'),
      request(`${double.url}/hello`).then((response) => response.statusCode),
      request(`${double.url}/recipe/user?email=x%40example.com`, { headers }).then((response) => response.statusCode),
      request(`${double.url}/recipe/signinup`, { method: 'POST', headers, body: '{}' }).then((response) => response.statusCode),
    ]);
    expect(answers.slice(1)).toEqual([200, 200, 400]);
  });

  it('with a capacity of 1, the second request is acted on only once the first answer is out', async () => {
    double = await startCoreDouble({ apiKeys: [API_KEY] });
    double.faults.setCapacity(1);
    double.faults.slowBodyNext(1, 300);
    const headers = { 'api-key': API_KEY, 'content-type': 'application/json; charset=utf-8' };
    const first = await request(`${double.url}/recipe/user/passwordhash/import`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email: 'one@example.com', passwordHash: HASH }),
    });
    const second = importUser(double, 'two@example.com');
    // The first answer's headers are here and its body is still held: the core is busy with it, the second waits.
    await waitFor(() => double.inFlight() === 2, 'the second request at the core');
    expect(double.users()).toHaveLength(1);
    await first.body.text();
    expect((await second).status).toBe(200);
    expect(double.users()).toHaveLength(2);
  });

  it('a storm answers every request that arrives while it lasts, then the core answers normally', async () => {
    double = await startCoreDouble({ apiKeys: [API_KEY] });
    double.faults.failFor(200, { status: 429, retryAfterSeconds: 1 });
    const during = await Promise.all([importUser(double, 'a@example.com'), importUser(double, 'b@example.com')]);
    expect(during.map((answer) => answer.status)).toEqual([429, 429]);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await importUser(double, 'c@example.com')).status).toBe(200);
    expect(double.users()).toHaveLength(1);
  });
});
