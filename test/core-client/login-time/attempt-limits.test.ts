import { describe, expect, it } from 'vitest';
import { AttemptLimits, type AttemptAdmission, type AttemptResult } from '../../../core-client/src/login-time/attempt-limits.js';
import { clientAddressOf } from '../../../core-client/src/login-time/client-address.js';

/** A clock the test moves by hand: no test here waits for time to pass. */
function manualClock(): { now: () => number; advance: (seconds: number) => void } {
  let time = 1_000_000;
  return { now: () => time, advance: (seconds) => (time += seconds * 1000) };
}

type Attempt = { email: string; client?: string };

async function attempt(limits: AttemptLimits, { email, client }: Attempt, result: AttemptResult): Promise<AttemptAdmission> {
  const admission = await limits.admit({ email, client });
  if (admission.admitted) limits.end(admission.ticket, result);
  return admission;
}

async function fail(limits: AttemptLimits, email: string, client?: string): Promise<void> {
  const admission = await attempt(limits, { email, ...(client !== undefined && { client }) }, 'failed');
  if (!admission.admitted) throw new Error(`${email} from ${client ?? 'no client'} was not admitted`);
}

/** Whether a promise has settled by the time the microtasks run out (the limits never wait on a timer). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  for (let turn = 0; turn < 20; turn += 1) await Promise.resolve();
  return done;
}

describe('attempt limits of a login-time migration', () => {
  it('checks under way make the others wait, never refuse them: 20 at once of one email from one client all go through', async () => {
    const limits = new AttemptLimits({}, manualClock().now);
    const admissions = Array.from({ length: 20 }, () => limits.admit({ email: 'ada@example.com', client: '203.0.113.9' }));
    const first = await Promise.all(admissions.slice(0, 5));
    // The five the client may fail at once are checked; the other fifteen wait for them.
    expect(await Promise.all(admissions.slice(5).map(settled))).toEqual(Array.from({ length: 15 }, () => false));
    let ended = 0;
    const endAll = async (batch: AttemptAdmission[], result: AttemptResult): Promise<void> => {
      for (const admission of batch) {
        if (!admission.admitted) throw new Error('refused while checks were under way');
        limits.end(admission.ticket, result);
        ended += 1;
      }
    };
    await endAll(first, 'matched');
    await endAll(await Promise.all(admissions.slice(5, 10)), 'undecided');
    await endAll(await Promise.all(admissions.slice(10, 15)), 'matched');
    await endAll(await Promise.all(admissions.slice(15)), 'matched');
    expect(ended).toBe(20);
  });

  it('a burst of parallel wrong guesses is held to the number allowed: those waiting are refused once the first fail', async () => {
    const limits = new AttemptLimits({ maxFailuresPerEmailFromClient: 5, windowSeconds: 900 }, manualClock().now);
    const admissions = Array.from({ length: 20 }, () => limits.admit({ email: 'ada@example.com', client: '203.0.113.9' }));
    for (const admission of await Promise.all(admissions.slice(0, 5))) if (admission.admitted) limits.end(admission.ticket, 'failed');
    // One token comes back every 900 / 5 seconds.
    expect(await Promise.all(admissions.slice(5))).toEqual(Array.from({ length: 15 }, () => ({ admitted: false, retryAfterSeconds: 180 })));
  });

  it('strangers cannot lock an account: 5 wrong passwords from 5 addresses, then the right one from a sixth goes through', async () => {
    const limits = new AttemptLimits({}, manualClock().now);
    for (let address = 1; address <= 5; address += 1) await fail(limits, 'ada@example.com', `198.51.100.${address}`);
    expect(await attempt(limits, { email: 'ada@example.com', client: '203.0.113.9' }, 'matched')).toMatchObject({ admitted: true });
  });

  it('one client is held at one account after its own wrong passwords, and only there', async () => {
    const clock = manualClock();
    const limits = new AttemptLimits({ maxFailuresPerEmailFromClient: 3, windowSeconds: 60 }, clock.now);
    for (let guess = 0; guess < 3; guess += 1) await fail(limits, 'ada@example.com', '192.0.2.7');
    expect(await limits.admit({ email: 'ada@example.com', client: '192.0.2.7' })).toEqual({ admitted: false, retryAfterSeconds: 20 });
    expect(await attempt(limits, { email: 'ada@example.com', client: '192.0.2.8' }, 'matched')).toMatchObject({ admitted: true });
    expect(await attempt(limits, { email: 'bob@example.com', client: '192.0.2.7' }, 'failed')).toMatchObject({ admitted: true });
    // One more try every 60 / 3 seconds.
    clock.advance(20);
    expect(await attempt(limits, { email: 'ada@example.com', client: '192.0.2.7' }, 'failed')).toMatchObject({ admitted: true });
    expect(await limits.admit({ email: 'ada@example.com', client: '192.0.2.7' })).toEqual({ admitted: false, retryAfterSeconds: 20 });
  });

  it('a right password fills its client’s count at that account again', async () => {
    const limits = new AttemptLimits({ maxFailuresPerEmailFromClient: 2 }, manualClock().now);
    await fail(limits, 'ada@example.com', 'a');
    await attempt(limits, { email: 'ada@example.com', client: 'a' }, 'matched');
    await fail(limits, 'ada@example.com', 'a');
    expect(await attempt(limits, { email: 'ada@example.com', client: 'a' }, 'failed')).toMatchObject({ admitted: true });
  });

  it('one client guessing at many emails is held by its own limit, and no other client is', async () => {
    const limits = new AttemptLimits({ maxFailuresPerClient: 4, windowSeconds: 30 }, manualClock().now);
    for (let user = 0; user < 4; user += 1) await fail(limits, `user${user}@example.com`, '192.0.2.7');
    expect(await limits.admit({ email: 'fresh@example.com', client: '192.0.2.7' })).toEqual({ admitted: false, retryAfterSeconds: 8 });
    expect(await attempt(limits, { email: 'fresh@example.com', client: '192.0.2.8' }, 'failed')).toMatchObject({ admitted: true });
  });

  it('past its budget from every client, an account’s checks slow down to one a period instead of shutting for a window', async () => {
    const clock = manualClock();
    const limits = new AttemptLimits({ maxFailuresPerEmail: 20, windowSeconds: 900 }, clock.now);
    for (let address = 0; address < 20; address += 1) await fail(limits, 'ada@example.com', `198.51.100.${address}`);
    expect(await limits.admit({ email: 'ada@example.com', client: '203.0.113.9' })).toEqual({ admitted: false, retryAfterSeconds: 45 });
    for (let round = 0; round < 3; round += 1) {
      clock.advance(45);
      expect(await attempt(limits, { email: 'ada@example.com', client: `192.0.2.${round}` }, 'failed')).toMatchObject({ admitted: true });
      expect(await limits.admit({ email: 'ada@example.com', client: '203.0.113.9' })).toEqual({ admitted: false, retryAfterSeconds: 45 });
    }
    clock.advance(45);
    expect(await attempt(limits, { email: 'ada@example.com', client: '203.0.113.9' }, 'matched')).toMatchObject({ admitted: true });
  });

  it('without a client address only the email counts: the backend’s address is nobody’s', async () => {
    const limits = new AttemptLimits({ maxFailuresPerEmail: 3, maxFailuresPerClient: 2, windowSeconds: 90 }, manualClock().now);
    for (let guess = 0; guess < 3; guess += 1) await fail(limits, 'ada@example.com');
    expect(await limits.admit({ email: 'ada@example.com', client: undefined })).toEqual({ admitted: false, retryAfterSeconds: 30 });
    for (let user = 0; user < 10; user += 1) expect(await attempt(limits, { email: `user${user}@example.com` }, 'failed')).toMatchObject({ admitted: true });
    expect(limits.tracked).toEqual({ emailsFromClients: 0, clients: 0, emails: 11 });
  });

  it('remembers at most maxTracked keys: accounts whose count filled again go first, then the least recently failing', async () => {
    const clock = manualClock();
    const limits = new AttemptLimits({ maxFailuresPerEmail: 1, maxFailuresPerClient: 100_000, windowSeconds: 10, maxTracked: 100 }, clock.now);
    for (let user = 0; user < 100; user += 1) await fail(limits, `old${user}@example.com`, 'c');
    clock.advance(10);
    for (let user = 0; user < 150; user += 1) await fail(limits, `new${user}@example.com`, 'c');
    expect(limits.tracked.emails).toBeLessThanOrEqual(100);
    expect(limits.tracked.emailsFromClients).toBeLessThanOrEqual(100);
    // The newest failures are still counted.
    expect(await limits.admit({ email: 'new149@example.com', client: 'c' })).toMatchObject({ admitted: false });
  });
});

describe('a client address as the limits compare it', () => {
  it('is an address, not its text: IPv4-mapped is IPv4, IPv6 in one spelling without a zone, counted by its /64', () => {
    expect(clientAddressOf('::ffff:203.0.113.50')).toEqual({ address: '203.0.113.50', limitKey: '203.0.113.50' });
    expect(clientAddressOf('::FFFF:CB00:7132')).toEqual({ address: '203.0.113.50', limitKey: '203.0.113.50' });
    for (const form of ['2001:DB8::1', '2001:0db8::1', '2001:db8:0:0:0:0:0:1', '2001:0DB8:0000:0000:0000:0000:0000:0001'])
      expect(clientAddressOf(form)).toEqual({ address: '2001:db8::1', limitKey: '2001:db8::/64' });
    expect(clientAddressOf('fe80::1%eth0')).toEqual({ address: 'fe80::1', limitKey: 'fe80::/64' });
    expect(clientAddressOf('2001:db8:1:2:3:4:5:6')?.limitKey).toBe('2001:db8:1:2::/64');
    // What ipaddr.js would also read, and no socket or body of the service gives.
    for (const text of ['127.1', '0x7f.0.0.1', 'localhost', '']) expect(clientAddressOf(text)).toBeUndefined();
  });
});
